"""Protected marbles (jackaroo.md §3 rule 4): start squares and barriers."""

from __future__ import annotations

import pytest

from .rule_helpers import apply, board, moves, position


def test_start_guard_own_protects_marble_on_its_own_start_square() -> None:
    pos = position(marbles={0: ["t35"], 2: ["t38"]}, hands={0: ["3S", "5S"]}, five="own")
    assert moves(pos) == ["3S discard", "5S discard"]


def test_start_guard_own_leaves_marble_on_another_start_square_unprotected() -> None:
    # Seat 1's marble on seat 2's start square may be passed.
    pos = position(marbles={0: ["t36"], 1: ["t38"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t36-t39"]


def test_start_guard_any_protects_marble_on_any_start_square() -> None:
    pos = position(marbles={0: ["t36"], 1: ["t38"]}, hands={0: ["3S"]}, start_guard="any")
    assert moves(pos) == ["3S discard"]


def test_start_guard_any_forbids_landing_on_any_start_square_marble() -> None:
    pos = position(marbles={0: ["t35"], 1: ["t38"]}, hands={0: ["3S"]}, start_guard="any")
    assert moves(pos) == ["3S discard"]


@pytest.mark.parametrize("start", ["t19", "t57"])
def test_two_seats_every_start_square_counts_with_start_guard_any(start: str) -> None:
    index = int(start[1:])
    pos = position(
        marbles={0: [f"t{index - 2}"], 2: [start]}, hands={0: ["3S"]}, seats=2, start_guard="any"
    )
    assert moves(pos) == ["3S discard"]


@pytest.mark.parametrize("start", ["t19", "t57"])
def test_two_seats_unused_start_squares_unprotected_with_start_guard_own(start: str) -> None:
    index = int(start[1:])
    pos = position(marbles={0: [f"t{index - 2}"], 2: [start]}, hands={0: ["3S"]}, seats=2)
    assert moves(pos) == [f"3S t{index - 2}-t{index + 1}"]


def test_barrier_protects_the_front_of_two_adjacent_marbles() -> None:
    # Seat 1 on t20 (rear) and t21 (front): the rear may be captured, the front not.
    pos = position(
        marbles={0: ["t18"], 1: ["t20", "t21"]}, hands={0: ["2S", "3S"]}, preset="classic"
    )
    assert moves(pos) == ["2S t18-t20"]


def test_barrier_front_blocks_passing() -> None:
    pos = position(marbles={0: ["t18"], 1: ["t20", "t21"]}, hands={0: ["5S"]}, preset="classic")
    assert moves(pos) == ["5S discard"]


def test_barrier_off_adjacent_marbles_are_not_protected() -> None:
    pos = position(
        marbles={0: ["t18"], 1: ["t20", "t21"]},
        hands={0: ["3S", "5S"]},
        preset="classic",
        barrier=False,
    )
    assert moves(pos) == ["3S t18-t21", "5S t18-t23"]


def test_barrier_is_formed_by_any_colours() -> None:
    pos = position(
        marbles={0: ["t15"], 1: ["t20"], 3: ["t21"]}, hands={0: ["5S", "6S"]}, preset="classic"
    )
    assert moves(pos) == ["5S t15-t20"]


def test_barrier_run_of_three_protects_the_two_front_marbles() -> None:
    pos = position(
        marbles={0: ["t15"], 1: ["t20", "t21", "t22"]},
        hands={0: ["5S", "6S", "7S"]},
        preset="classic",
    )
    assert moves(pos) == ["5S t15-t20"]


def test_barrier_across_the_wrap_t75_t0() -> None:
    pos = position(
        turn=1, marbles={1: ["t70"], 3: ["t75", "t0"]}, hands={1: ["6S", "5S"]}, preset="classic"
    )
    assert moves(pos) == ["5S t70-t75"]


def test_barrier_judged_with_the_moving_marble_lifted() -> None:
    # Seat 0's own t20 is the rear of the pair t20-t21; lifted, it protects nothing.
    pos = position(marbles={0: ["t20"], 1: ["t21"]}, hands={0: ["AS"]}, preset="classic")
    assert moves(pos) == ["AS b0-t0", "AS t20-t21", "AS t20-t31"]
    assert board(apply(pos, "AS t20-t21"))["1"] == ["b", "b", "b", "b"]


def test_own_marble_as_barrier_rear_protects_front_from_other_own_marbles() -> None:
    # t20 (seat 0) stays behind seat 1's t21: t15 may not land there; t20 itself may pass.
    pos = position(
        marbles={0: ["t15", "t20"], 1: ["t21"]}, hands={0: ["6S"]}, preset="classic", pass_own=True
    )
    assert moves(pos) == ["6S t20-t26"]


def test_barrier_protected_own_marble_blocks_its_owner() -> None:
    # Seat 0's t13 is the front of t12-t13; pass_own is on but t10 may not pass it.
    pos = position(
        marbles={0: ["t10", "t12", "t13"]}, hands={0: ["5S"]}, preset="classic", pass_own=True
    )
    assert moves(pos) == ["5S t12-t17", "5S t13-t18"]
