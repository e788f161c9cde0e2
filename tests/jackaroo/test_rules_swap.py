"""The J swap (jackaroo.md §3 rule 5)."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position


def test_jack_swaps_with_opponent() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t30"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t10~t30"]
    after = board(apply(pos, "JS t10~t30"))
    assert after["0"] == ["b", "b", "b", "t30"]
    assert after["1"] == ["b", "b", "b", "t10"]


def test_jack_swaps_with_partner() -> None:
    pos = position(marbles={0: ["t10"], 2: ["t30"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t10~t30"]
    after = board(apply(pos, "JS t10~t30"))
    assert after["0"] == ["b", "b", "b", "t30"]
    assert after["2"] == ["b", "b", "b", "t10"]


def test_jack_lists_every_pair_of_own_and_other_marble() -> None:
    pos = position(marbles={0: ["t10", "t20"], 1: ["t30"], 3: ["t60"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t10~t30", "JS t10~t60", "JS t20~t30", "JS t20~t60"]


def test_jack_never_captures() -> None:
    pos = position(marbles={0: ["t10", "t11"], 1: ["t50"]}, hands={0: ["JS"]})
    after = board(apply(pos, "JS t10~t50"))
    assert after["0"] == ["b", "b", "t11", "t50"]
    assert after["1"] == ["b", "b", "b", "t10"]


def test_jack_cannot_swap_marble_on_its_start_square() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t19"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS discard"]


def test_jack_cannot_swap_own_protected_marble() -> None:
    # Seat 0's own marble on t0 is protected: it may not be swapped either.
    pos = position(marbles={0: ["t0"], 1: ["t30"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS discard"]


def test_jack_cannot_swap_marble_on_any_start_square_with_start_guard_any() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t38"]}, hands={0: ["JS"]}, start_guard="any")
    assert moves(pos) == ["JS discard"]


def test_jack_may_swap_marble_on_another_start_square_with_start_guard_own() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t38"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t10~t38"]


def test_jack_cannot_swap_barrier_front() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t30", "t31"]}, hands={0: ["JS"]}, preset="classic")
    assert moves(pos) == ["JS t10~t30"]


def test_jack_lifts_nothing_own_marble_as_barrier_rear_still_protects() -> None:
    # Seat 0's t29 makes seat 1's t30 the front of a barrier: t29~t30 is no move.
    pos = position(marbles={0: ["t29"], 1: ["t30", "t50"]}, hands={0: ["JS"]}, preset="classic")
    assert moves(pos) == ["JS t29~t50"]


def test_jack_cannot_swap_own_barrier_front() -> None:
    # Seat 0's t10 stands in front of seat 1's t9: it is protected and stays.
    pos = position(marbles={0: ["t10"], 1: ["t9", "t50"]}, hands={0: ["JS"]}, preset="classic")
    assert moves(pos) == ["JS discard"]


def test_jack_does_not_swap_two_own_marbles() -> None:
    pos = position(marbles={0: ["t10", "t20"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS discard"]


def test_jack_ignores_marbles_in_home_lanes() -> None:
    pos = position(marbles={0: ["t10"], 1: ["h1.2"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS discard"]


def test_jack_ignores_own_marble_in_home_lane() -> None:
    pos = position(marbles={0: ["h0.1"], 1: ["t30"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS discard"]
