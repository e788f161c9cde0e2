"""Scoring a hand and deciding the match (buraco.md §5–6)."""

from __future__ import annotations

import random

import pytest

from sahrat.errors import MalformedInput
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.melds import Meld, arrange
from sahrat.games.buraco.points import CARD_POINTS, points_of
from sahrat.games.buraco.scoring import match_winner, score_side
from sahrat.games.buraco.setup import from_table

from .helpers import RandomModuleSource, c, play_random


def melds(*texts: str) -> list[Meld]:
    found = [arrange(c(text), sets=True) for text in texts]
    assert all(m is not None for m in found)
    return [m for m in found if m is not None]


def test_card_points() -> None:
    assert [CARD_POINTS[x] for x in c("JK AS 2H KD QC JS TH 9D 8C")] == [
        50, 15, 10, 10, 10, 10, 10, 10, 10,
    ]  # fmt: skip
    assert [CARD_POINTS[x] for x in c("7S 6H 5D 4C 3S")] == [5] * 5


def test_clean_canasta_scores_200() -> None:
    score = score_side(melds("5C 6C 7C 8C 9C TC JC"), [], went_out=False, took_morto=True)
    assert (score.canastas_clean, score.canastas_dirty, score.bonus) == (1, 0, 200)


def test_dirty_canasta_scores_100() -> None:
    score = score_side(melds("5C 6C 7C JK 9C TC JC"), [], went_out=False, took_morto=True)
    assert (score.canastas_clean, score.canastas_dirty, score.bonus) == (0, 1, 100)


def test_going_out_scores_100() -> None:
    score = score_side([], [], went_out=True, took_morto=True)
    assert score.bonus == 100


def test_morto_not_taken_costs_100() -> None:
    score = score_side([], [], went_out=False, took_morto=False)
    assert score.bonus == -100 and score.total == -100


def test_melded_cards_count_their_points_and_cards_in_hand_cost_theirs() -> None:
    score = score_side(
        melds("AC 2C 3C", "QS QH JK"), c("JK 9D 4S"), went_out=False, took_morto=True
    )
    assert score.melded == 15 + 10 + 5 + 10 + 10 + 50
    assert score.hand == 50 + 10 + 5
    assert score.total == score.melded - score.hand


def test_seed_example_dirty_canasta_in_hearts() -> None:
    # Seed 001 §5: 5-6-7-8 of hearts, the partner adds 9 and 10, then a joker:
    # 5..10 of hearts and a joker = 7 cards, a dirty canasta (+100).
    meld = arrange(c("5H 6H 7H 8H"))
    assert meld is not None
    score = score_side(melds("5H 6H 7H 8H 9H TH JK"), [], went_out=False, took_morto=True)
    assert (score.canastas_dirty, score.canastas_clean) == (1, 0)
    assert score.bonus == 100
    assert score.melded == 5 + 5 + 5 + 10 + 10 + 10 + 50


def test_seed_example_played_by_partners() -> None:
    # The seed's players 1 and 4 are partners; here partners sit opposite: seats 0 and 2.
    state = from_table(
        BuracoOptions(seats=4),
        hands=["5H 6H 7H 4C JK 3S", "KS KH", "9H TH QD QS", "JS JD"],
        stock="8H 2S 3D 4D 5S 6S",
        discard_pile="9C",
    )
    for text in (
        "draw", "meld 5H 6H 7H 8H", "discard 4C",  # seat 0 draws 8H
        "draw", "discard KS",  # seat 1
        "draw", "add 0 9H TH", "discard QD",  # seat 2 (partner)
        "draw", "discard JS",  # seat 3
        "draw", "add 0 JK", "discard 3S",  # seat 0: the joker makes a dirty canasta
    ):  # fmt: skip
        state.apply_action(text)
    (canasta,) = state.melds[0]
    assert canasta.canasta == "dirty"
    assert state.score_hand()[0].canastas_dirty == 1


def test_untaken_morto_cards_count_nothing() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["4H 5H", "KS KH"],
        mortos=["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", None],
        morto_status=["untaken", "taken"],
        stock="",
        rest="pile",
        phase="draw",
    )
    # Side 0's morto became the stock; the hand is played on.
    assert state.results == []
    sides = state.score_hand()
    assert sides[0].hand == points_of(c("4H 5H")) and not sides[0].took_morto


def test_hand_result_adds_up_to_running_totals() -> None:
    state = from_table(
        BuracoOptions(seats=2),
        hands=["9H", "KS KH"],
        melds=[["5C 6C 7C 8C 9C TC JC"], ["QD KD AD"]],
        morto_status=["taken", "untaken"],
        totals=(500, 300),
        phase="play",
    )
    state.apply_action("discard 9H")
    result = state.results[-1]
    assert result is not None
    assert result.sides[0].total == 55 + 200 + 100
    assert result.sides[1].total == 35 - 100 - 20
    assert result.totals == (500 + 355, 300 - 85)
    assert state.totals == [855, 215]


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((1990, 500), 2000, -1),
        ((2000, 500), 2000, 0),
        ((500, 2100), 2000, 1),
        ((2100, 2300), 2000, 1),
        ((2300, 2100), 2000, 0),
        ((2100, 2100), 2000, -1),
        ((1000, 900), 1000, 0),
        ((2500, 2900), 3000, -1),
    ],
)
def test_match_winner(totals: tuple[int, int], target: int, winner: int) -> None:
    assert match_winner(totals, target) == winner


def test_targets_are_1000_2000_or_3000() -> None:
    for target in (1000, 2000, 3000):
        assert BuracoOptions(target=target).target == target
    with pytest.raises(MalformedInput):
        BuracoOptions(target=1500)
    with pytest.raises(MalformedInput):
        BuracoOptions(seats=3)
    with pytest.raises(MalformedInput):
        BuracoOptions(sets=1)  # type: ignore[arg-type]


def test_match_ends_when_a_side_reaches_the_target() -> None:
    state = from_table(
        BuracoOptions(seats=4, target=1000),
        hands=["9H", "KS", "KH", "KD"],
        melds=[["5C 6C 7C 8C 9C TC JC"], []],
        morto_status=["taken", "untaken"],
        totals=(700, 990),
        phase="play",
    )
    state.apply_action("discard 9H")
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == (1.0, -1.0, 1.0, -1.0)


def test_both_sides_over_the_target_the_higher_wins() -> None:
    state = from_table(
        BuracoOptions(seats=2, target=1000),
        hands=["9H", "KS KH"],
        melds=[["5C 6C 7C 8C 9C TC JC"], []],
        morto_status=["taken", "untaken"],
        totals=(700, 1200),
        phase="play",
    )
    state.apply_action("discard 9H")  # side 0 gets 355 -> 1055; side 1 -120 -> 1080
    assert state.totals == [1055, 1080]
    assert state.winner == 1 and state.returns() == (-1.0, 1.0)


def test_tie_over_the_target_plays_another_hand() -> None:
    state = from_table(
        BuracoOptions(seats=2, target=1000),
        hands=["9H", "KS KH"],
        melds=[["5C 6C 7C 8C 9C TC JC"], []],
        morto_status=["taken", "untaken"],
        totals=(725, 1200),
        phase="play",
    )
    state.apply_action("discard 9H")
    assert state.totals == [1080, 1080]
    assert not state.is_terminal() and state.phase_name == "shuffle"
    assert state.returns() == (0.0, 0.0)


@pytest.mark.parametrize("players", [2, 4])
def test_random_match_runs_to_a_winner(players: int) -> None:
    state = BuracoState(BuracoOptions(seats=players, target=1000))
    play_random(state, RandomModuleSource(players), random.Random(players), hands=50)
    assert state.is_terminal()
    winner = state.winner
    assert max(state.totals) >= 1000 and state.totals[winner] > state.totals[1 - winner]
    assert sorted(state.returns()) == sorted([1.0, -1.0] * (players // 2))
    assert [r.totals for r in state.results][-1] == tuple(state.totals)
