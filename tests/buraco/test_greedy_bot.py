"""The greedy bot plays only legal actions and finishes hands."""

from __future__ import annotations

import random

import pytest

from sahrat.bots.buraco.greedy import GreedyBuracoBot
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.setup import from_table

from .helpers import c, deal_first_hand


@pytest.mark.parametrize(
    "options",
    [
        BuracoOptions(seats=2),
        BuracoOptions(seats=4, sets=True),
        BuracoOptions(seats=4, closed=True),
        BuracoOptions(seats=2, sets=True, closed=True),
    ],
)
def test_greedy_bot_finishes_a_hand_with_legal_actions(options: BuracoOptions) -> None:
    state, source = deal_first_hand(options, 3)
    bot = GreedyBuracoBot(random.Random(3))
    for _ in range(5000):
        if state.results:
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        action = bot.choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.results


def test_greedy_bot_completes_a_canasta_when_it_can() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["JH 4S 9D KD", "KS KH"],
        melds=[["5H 6H 7H 8H 9H TH"], []],
        phase="play",
    )
    assert GreedyBuracoBot(random.Random(0)).choose(state) == act.add(0, c("JH"))
