"""The heuristic Buraco bot: accepted moves at every table, reproducible, sound in plain spots."""

from __future__ import annotations

import random

import pytest

from sahrat.bots.buraco.heuristic import (
    BuracoHeuristicBot,
    evaluate,
    rollout_choice,
    score_actions,
)
from sahrat.cards import parse_cards
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.setup import from_table
from sahrat.simulation import SimSource

TABLES = [
    BuracoOptions(seats=players, sets=sets, closed=closed)
    for players in (2, 4)
    for sets in (False, True)
    for closed in (False, True)
]


def c(text: str) -> list[int]:
    return parse_cards(text.split(), joker=True)


def play_hand(options: BuracoOptions, seed: int) -> list[BuracoAction]:
    """One hand, the bot on the even seats and a random player on the odd ones, checking
    every policy on every decision; the bot's actions."""
    state = BuracoState(options)
    source = SimSource(seed)
    rng = random.Random(seed)
    bots = {seat: BuracoHeuristicBot(seed + seat) for seat in range(0, options.seats, 2)}
    chosen: list[BuracoAction] = []
    while not state.results:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        assert -1.0 <= evaluate(state, seat) <= 1.0
        probe = state.clone()
        probe.apply_action(rollout_choice(probe, rng))  # raises if not accepted
        if seat in bots:
            action = bots[seat].choose(state)
            chosen.append(action)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)  # raises IllegalMove if the bot got it wrong
    return chosen


@pytest.mark.parametrize("options", TABLES, ids=str)
def test_every_choice_is_accepted_at_every_table(options: BuracoOptions) -> None:
    for seed in range(1, 5):
        assert play_hand(options, seed)


def test_choices_are_reproducible_for_a_seed() -> None:
    options = BuracoOptions(seats=4, sets=True)
    assert play_hand(options, 5) == play_hand(options, 5)


def test_the_bot_alone_finishes_a_match() -> None:
    state = BuracoState(BuracoOptions(seats=2, target=1000))
    source = SimSource(3)
    bots = [BuracoHeuristicBot(0), BuracoHeuristicBot(1)]
    for _ in range(10_000):
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(bots[seat].choose(state))
    assert state.is_terminal()


def test_rollouts_finish_hands() -> None:
    rng = random.Random(4)
    for options in TABLES:
        state = BuracoState(options)
        source = SimSource(4)
        for _ in range(20_000):
            if state.results:
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(source))
            else:
                state.apply_action(rollout_choice(state, rng))
        assert state.results, options


def test_policies_refuse_a_chance_step() -> None:
    state = BuracoState(BuracoOptions())
    with pytest.raises(ValueError):
        rollout_choice(state, random.Random(0))


# -- the draw ------------------------------------------------------------------------------


def pile_completing_a_canasta() -> BuracoState:
    return from_table(
        BuracoOptions(seats=4),
        hands=["KS 4D JC", "5S 6S", "7S 8S", "9S TS"],
        melds=[["3H 4H 5H 6H 7H 8H"], []],
        discard_pile="QD 9H",
    )


def single_useless_card() -> BuracoState:
    return from_table(
        BuracoOptions(seats=2),
        hands=["KS 4D JC 7H", "5S 6S"],
        melds=[["3H 4H 5H"], []],
        discard_pile="9C",
    )


def test_takes_a_pile_that_completes_a_canasta() -> None:
    assert BuracoHeuristicBot(0).choose(pile_completing_a_canasta()) == act.take()


def test_takes_a_closed_pile_with_the_card_that_completes_a_canasta() -> None:
    state = from_table(
        BuracoOptions(seats=2, closed=True),
        hands=["KS 4D JC", "5S 6S"],
        melds=[["3H 4H 5H 6H 7H 8H"], []],
        discard_pile="QD 9H",
    )
    assert BuracoHeuristicBot(0).choose(state) == act.take_add(0)


def test_takes_a_big_pile_rather_than_leave_it_to_the_next_opponent() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["KS 4D JC 7H", "5S 6S", "7S 8S", "9S TS"],
        melds=[["3H 4H 5H"], []],
        discard_pile="9C 4S QD 8S",
    )
    assert BuracoHeuristicBot(0).choose(state) == act.take()


def test_draws_rather_than_take_a_single_useless_card() -> None:
    assert BuracoHeuristicBot(0).choose(single_useless_card()) == act.draw()


# -- melding ---------------------------------------------------------------------------------


def test_completes_a_canasta_first() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["9H 5C 6C 7C KD QS", "5S", "7S", "9S"],
        melds=[["3H 4H 5H 6H 7H 8H"], []],
        phase="play",
    )
    assert BuracoHeuristicBot(0).choose(state) == act.add(0, c("9H"))


def test_keeps_a_wild_card_rather_than_dirty_a_clean_meld() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["JK 5C 9D KS", "5S", "7S", "9S"],
        melds=[["3H 4H 5H 6H 7H 8H", "3D 4D 5D 6D 7D 8D 9D"], []],
        morto_status=("taken", "untaken"),
        phase="play",
    )
    assert BuracoHeuristicBot(0).choose(state).kind == act.DISCARD


def test_empties_the_hand_to_pick_up_the_morto() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["5C 6C JK 9D", "5S 6S"],
        melds=[["3H 4H 5H"], []],
        phase="play",
    )
    bot = BuracoHeuristicBot(0)
    while state.current_player() == 0 and state.phase_name == "play":
        state.apply_action(bot.choose(state))
    assert state.morto_status[0] != 0  # taken, or pending after the last discard


def test_goes_out_when_ahead() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["5C 6C 7C 9D", "5S 6S 8D TD JD QS KS 4H 9H"],
        melds=[["3H 4H 5H 6H 7H 8H 9H"], ["4S 5S 6S"]],
        morto_status=("taken", "untaken"),
        phase="play",
    )
    bot = BuracoHeuristicBot(0)
    while state.current_player() == 0:
        state.apply_action(bot.choose(state))
    assert state.results and state.results[-1].went_out == 0


# -- discarding ----------------------------------------------------------------------------------


def test_does_not_discard_a_card_that_extends_an_opponent_meld() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["4S KD 9C", "5D", "7D", "9D"],
        melds=[[], ["5S 6S 7S"]],
        phase="play",
    )
    assert BuracoHeuristicBot(0).choose(state) != act.discard(c("4S")[0])


@pytest.mark.parametrize("seed", range(5))
def test_never_discards_a_wild_card_with_a_natural_one_left(seed: int) -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["JK 2C KD", "5D"],
        melds=[[], ["5S 6S 7S"]],
        phase="play",
    )
    assert BuracoHeuristicBot(seed).choose(state) == act.discard(c("KD")[0])


def test_prefers_a_card_an_opponent_discarded() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["8D 3S KC", "5D"],
        melds=[[], []],
        discard_pile="4H 3S",
        phase="play",
    )
    assert BuracoHeuristicBot(0).choose(state) == act.discard(c("3S")[0])


# -- evaluate ----------------------------------------------------------------------------------


def test_evaluate_is_bounded_and_zero_sum_between_sides() -> None:
    state = BuracoState(BuracoOptions(seats=4))
    source = SimSource(8)
    rng = random.Random(8)
    while not state.results:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        for seat in range(4):
            value = evaluate(state, seat)
            assert -1.0 <= value <= 1.0
            assert value == evaluate(state, seat ^ 2)
            assert value == pytest.approx(-evaluate(state, seat ^ 1))
        state.apply_action(rng.choice(state.legal_actions()))


def test_evaluate_favours_the_side_ahead() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["5C", "KS QS JD 9D", "6C", "KH QH JC 9C"],
        melds=[["3H 4H 5H 6H 7H 8H 9H", "4D 5D 6D"], ["8S 9S TS"]],
        morto_status=("taken", "untaken"),
        totals=(300, 100),
    )
    assert evaluate(state, 0) > 0.3
    assert evaluate(state, 1) < -0.3


def test_evaluate_is_certain_once_the_match_is_won() -> None:
    state = from_table(
        BuracoOptions(seats=2, target=1000),
        hands=["5C 6C 7C 9D", "5S 6S"],
        melds=[["3H 4H 5H 6H 7H 8H 9H"], []],
        morto_status=("taken", "untaken"),
        phase="play",
        totals=(900, 0),
    )
    state.apply_action(act.meld(c("5C 6C 7C")))
    state.apply_action(act.discard(c("9D")[0]))
    assert state.is_terminal()
    assert evaluate(state, 0) == 1.0
    assert evaluate(state, 1) == -1.0


# -- the opinion a search asks for -------------------------------------------------------------


def test_scores_rank_the_heuristics_take_and_draw() -> None:
    for state in (pile_completing_a_canasta(), single_useless_card()):
        legal = state.legal_actions()
        scores = score_actions(state, legal)
        best = legal[max(range(len(legal)), key=scores.__getitem__)]
        assert best == BuracoHeuristicBot(0).choose(state)
        assert scores[legal.index(act.draw())] == 0.0


def test_scores_put_a_meld_to_lay_down_above_every_discard() -> None:
    state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C KD QH", "AS 3H"], phase="play")
    legal = state.legal_actions()
    scores = dict(zip(legal, score_actions(state, legal), strict=True))
    meld = act.meld(c("5C 6C 7C"))
    discards = [a for a in legal if a.kind == act.DISCARD]
    assert discards and all(scores[meld] > scores[d] for d in discards)
    # The discard the heuristic would make is the best scored of the discards.
    no_meld = from_table(BuracoOptions(seats=2), hands=["5C 9D KD QH", "AS 3H"], phase="play")
    legal = no_meld.legal_actions()
    scores = dict(zip(legal, score_actions(no_meld, legal), strict=True))
    assert max(legal, key=scores.__getitem__) == BuracoHeuristicBot(0).choose(no_meld)
