"""The heuristic Jackaroo bot: legal and reproducible everywhere, and sound in plain spots."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sahrat.bots.jackaroo.heuristic import (
    JackarooHeuristicBot,
    burn_choice,
    evaluate,
    rollout_heuristic,
    score_moves,
)
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.jackaroo import JackarooState, Move, Options, from_position
from sahrat.games.jackaroo.actions import DISCARD, DISCARD_ALL
from sahrat.simulation import SimSource

TABLES = [(preset, seats) for preset in ("sahrat", "classic", "complex") for seats in (4, 2)]


def position(
    marbles: dict[int, list[str]], hand: list[str], *, seats: int = 4, **options: object
) -> JackarooState:
    """Seat 0 to move holding ``hand``; missing marbles wait in their bases."""
    order = (0, 1, 2, 3) if seats == 4 else (0, 2)
    obj: dict[str, Any] = {
        "options": {"seats": seats, **options},
        "turn": 0,
        "marbles": {
            str(s): marbles.get(s, []) + ["b"] * (4 - len(marbles.get(s, []))) for s in order
        },
        "hands": {str(s): hand if s == 0 else 4 for s in order},
    }
    return from_position(obj)


def choice(state: JackarooState, seed: int = 0) -> str:
    return str(JackarooHeuristicBot(seed).choose(state))


def play(preset: str, seats: int, seed: int) -> list[Move]:
    """One game, the heuristic on every even seat and a random player on the odd ones,
    checking every policy on every decision; the heuristic's moves."""
    state = JackarooState.new_game(Options.preset(preset, seats))
    source = SimSource(seed)
    rng = random.Random(seed)
    bots = {seat: JackarooHeuristicBot(seed + seat) for seat in (0, 2)}
    chosen: list[Move] = []
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        legal = state.legal_actions()
        assert -1.0 < evaluate(state, seat) < 1.0
        assert rollout_heuristic(state, rng) in legal
        assert len(score_moves(state, legal)) == len(legal)
        if legal[0].kind in (DISCARD, DISCARD_ALL):
            assert burn_choice(state) in legal
        if seat in bots:
            move = bots[seat].choose(state)
            assert move in legal
            chosen.append(move)
        else:
            move = rng.choice(legal)
        state.apply_action(move)
        assert len(chosen) < 3000
    for seat in state.rules.order:
        assert evaluate(state, seat) == (1.0 if seat in state.winners() else -1.0)
    return chosen


@pytest.mark.parametrize(("preset", "seats"), TABLES)
def test_heuristic_plays_legal_moves_to_the_end(preset: str, seats: int) -> None:
    play(preset, seats, 7)


def test_heuristic_is_deterministic_for_a_seed() -> None:
    assert play("sahrat", 4, 11) == play("sahrat", 4, 11)


def test_heuristic_captures_an_opponent() -> None:
    state = position({0: ["t10", "t30"], 1: ["t36"]}, ["6S", "9H"])
    assert choice(state) == "6S t30-t36"


def test_heuristic_spares_its_partner() -> None:
    state = position({0: ["t10", "t30"], 2: ["t36"]}, ["6S", "9H"])
    assert choice(state) != "6S t30-t36"


def test_heuristic_brings_a_marble_out() -> None:
    # Out first, then the 4 takes the new marble back from t0 to t72, near home.
    state = position({0: ["t30"]}, ["AS", "4H"])
    assert choice(state) == "AS b0-t0"


def test_heuristic_enters_its_home_lane() -> None:
    state = position({0: ["t73", "t20"], 1: ["t60"]}, ["3S", "8H"])
    assert choice(state) == "3S t73-h0.1"


def test_heuristic_takes_the_four_from_its_start_square() -> None:
    state = position({0: ["t0", "t30"]}, ["4S", "8H"])
    assert choice(state) == "4S t0-t72"


def test_heuristic_moves_out_of_reach() -> None:
    # t24 is 2 ahead of the opponent on t22; both other cards leave a marble exposed.
    state = position({0: ["t24", "t50"], 1: ["t22"]}, ["QS", "9H"], king="plain")
    assert choice(state).startswith("QS t24-") or choice(state).startswith("9H t24-")


def test_heuristic_swaps_a_lagging_marble_for_one_about_to_go_home() -> None:
    # Seat 3's marble on t55 is 2 squares from its home lane; ours on t1 has just left.
    state = position({0: ["t1", "t30"], 3: ["t55"]}, ["JS", "9H"])
    assert choice(state) == "JS t1~t55"


def test_heuristic_burns_with_the_ten_rather_than_hit_its_partner() -> None:
    state = position({0: ["t30"], 2: ["t40"]}, ["TD"])
    assert choice(state) == "TD burn"


def test_burn_choice_keeps_a_bring_out_card() -> None:
    # Classic (no passing one's own marbles): t0 and t5 are walled in by our own
    # marbles, t12 by the opponent on its start square t19, and t0 bars the way out.
    state = position({0: ["t0", "t5", "t12"], 1: ["t19"]}, ["KH", "9D", "8C"], preset="classic")
    assert {m.kind for m in state.legal_moves()} == {DISCARD}
    assert str(burn_choice(state)) in ("9D discard", "8C discard")
    assert JackarooHeuristicBot(0).choose(state) == burn_choice(state)


def test_burn_choice_burns_the_whole_hand_when_that_is_the_move() -> None:
    state = position({1: ["t5"]}, ["9D", "QH"], preset="classic")
    assert str(burn_choice(state)) == "discard-all"


@pytest.mark.parametrize("seats", [4, 2])
def test_evaluate_is_one_for_the_winners(seats: int) -> None:
    home = [f"h{{}}.{k}" for k in range(1, 5)]
    marbles = {0: [q.format(0) for q in home]}
    if seats == 4:
        marbles[2] = [q.format(2) for q in home]
        marbles[1] = ["t5"]
    state = position(marbles, ["9D"], seats=seats)
    assert state.is_terminal()
    for seat in state.rules.order:
        assert evaluate(state, seat) == (
            1.0 if (seat % 2 == 0 and seats == 4) or seat == 0 else -1.0
        )


def test_evaluate_favours_the_side_ahead() -> None:
    state = position({0: ["h0.4", "h0.3", "t60"], 2: ["h2.4", "t40"], 1: ["t5"]}, ["9D"])
    assert 0.0 < evaluate(state, 0) < 1.0
    assert evaluate(state, 2) == evaluate(state, 0)
    assert evaluate(state, 1) == -evaluate(state, 0)
