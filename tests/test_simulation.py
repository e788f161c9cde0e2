"""The simulations' chance and random games: the same draws as Python's ``random``."""

from __future__ import annotations

import random

import pytest

from sahrat.game import TERMINAL
from sahrat.games import GAMES
from sahrat.simulation import LabelledSource, SimSource, play_out, shuffle_as_random


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 52, 53, 108, 1000])
def test_shuffle_as_random_gives_random_shuffles_order(length: int) -> None:
    for seed in range(20):
        ours, theirs = list(range(length)), list(range(length))
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle_as_random(mine, ours)
        reference.shuffle(theirs)
        assert ours == theirs
        # Both consumed the same draws: what follows is the same too.
        assert mine.random() == reference.random()


def test_the_sources_shuffle_as_random_does() -> None:
    cards = list(range(53))
    SimSource(5).shuffle("deal", cards)
    expected = list(range(53))
    random.Random(5).shuffle(expected)
    assert cards == expected
    labelled = list(range(53))
    LabelledSource(5).shuffle("deal/1", labelled)
    expected = list(range(53))
    random.Random("5/deal/1").shuffle(expected)
    assert labelled == expected


def test_play_out_plays_a_jackaroo_game_to_its_end() -> None:
    game = GAMES["jackaroo"]
    state = game.new_game(game.options_from_json({"preset": "sahrat"}, 4))
    moves = play_out(state, random.Random(3), SimSource(4))
    assert state.current_player() == TERMINAL
    assert state.outcome() is not None
    assert moves > 0
    # Seeded: the same game again.
    again = game.new_game(game.options_from_json({"preset": "sahrat"}, 4))
    assert play_out(again, random.Random(3), SimSource(4)) == moves
