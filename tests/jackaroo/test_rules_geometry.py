"""Board geometry (jackaroo.md §1): start and entry squares, the wrap, home lanes,
the 4 backwards, and the two-seat table."""

from __future__ import annotations

import pytest

from .rule_helpers import apply, board, moves, position


@pytest.mark.parametrize(("seat", "start"), [(0, "t0"), (1, "t19"), (2, "t38"), (3, "t57")])
def test_start_squares_are_t0_t19_t38_t57(seat: int, start: str) -> None:
    pos = position(turn=seat, hands={seat: ["AS"]})
    assert moves(pos) == [f"AS b{seat}-{start}"]


@pytest.mark.parametrize(("seat", "entry"), [(0, "t75"), (1, "t18"), (2, "t37"), (3, "t56")])
def test_entry_square_is_the_square_before_the_start(seat: int, entry: str) -> None:
    # Two steps from the entry: h<seat>.1 then h<seat>.2, never the start square.
    pos = position(turn=seat, marbles={seat: [entry]}, hands={seat: ["2S"]})
    assert moves(pos) == [f"2S {entry}-h{seat}.2"]


def test_forward_move_wraps_from_t75_to_t0() -> None:
    # Seat 1's marble on t74 is at progress 55: t75, t0, t1.
    pos = position(turn=1, marbles={1: ["t74"]}, hands={1: ["3S"]})
    assert moves(pos) == ["3S t74-t1"]


def test_entry_square_forces_home_lane() -> None:
    pos = position(marbles={0: ["t75"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t75-h0.3"]
    assert board(apply(pos, "3S t75-h0.3"))["0"] == ["b", "b", "b", "h0.3"]


def test_entry_square_never_goes_round_again() -> None:
    # Seat 2's marble on t37 (progress 75) may not step onto t38 or beyond.
    pos = position(turn=2, marbles={2: ["t37"]}, hands={2: ["AS"]})
    assert moves(pos) == ["AS b2-t38", "AS t37-h2.1"]


def test_exact_count_reaches_last_home_square() -> None:
    pos = position(marbles={0: ["t72"]}, hands={0: ["7S"]})
    assert moves(pos) == ["7S t72-h0.4"]


def test_overshooting_the_home_lane_is_illegal() -> None:
    # From progress 72: 8, 9 and 12 would go past h0.4; nothing else can move.
    pos = position(marbles={0: ["t72"]}, hands={0: ["8S", "9S", "QS"]})
    assert moves(pos) == ["8S discard", "9S discard", "QS discard"]


def test_home_lane_destination_must_be_empty() -> None:
    # t74 + 3 is h0.2, which is taken; h0.2 + 3 overshoots.
    pos = position(marbles={0: ["t74", "h0.2"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S discard"]


def test_passing_a_marble_in_the_home_lane_is_illegal() -> None:
    # t74 + 5 is h0.4 but passes h0.1; without the marble on h0.1 it is legal.
    blocked = position(marbles={0: ["t74", "h0.1"]}, hands={0: ["5S"]})
    assert moves(blocked) == ["5S discard"]
    free = position(marbles={0: ["t74"]}, hands={0: ["5S"]})
    assert moves(free) == ["5S t74-h0.4"]


def test_marbles_move_on_inside_the_home_lane() -> None:
    pos = position(marbles={0: ["h0.1"]}, hands={0: ["2S", "3S", "4S", "5S"]})
    assert moves(pos) == ["2S h0.1-h0.3", "3S h0.1-h0.4"]


def test_home_lane_marble_may_not_pass_another_in_the_lane() -> None:
    # h0.1 + 3 passes h0.3; h0.3 + 3 overshoots.
    pos = position(marbles={0: ["h0.1", "h0.3"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S discard"]


def test_four_moves_backwards() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S t10-t6"]


def test_four_backwards_wraps_from_t0_to_t75() -> None:
    pos = position(turn=1, marbles={1: ["t2"]}, hands={1: ["4S"]})
    assert moves(pos) == ["4S t2-t74"]


@pytest.mark.parametrize(("seat", "start", "lands"), [(0, "t0", "t72"), (2, "t38", "t34")])
def test_four_from_the_start_square_lands_at_progress_72(seat: int, start: str, lands: str) -> None:
    pos = position(turn=seat, marbles={seat: [start]}, hands={seat: ["4S"]})
    assert moves(pos) == [f"4S {start}-{lands}"]


def test_four_from_start_then_forward_five_enters_home() -> None:
    after = apply(position(marbles={0: ["t0"]}, hands={0: ["4S", "2S"]}), "4S t0-t72")
    assert board(after)["0"] == ["b", "b", "b", "t72"]
    again = position(marbles={0: after["marbles"]["0"]}, hands={0: ["5S"]})
    assert moves(again) == ["5S t72-h0.2"]


def test_forward_four_from_progress_72_enters_home_lane() -> None:
    # A split 7 gives a forward 4: t73, t74, t75, h0.1.
    pos = position(marbles={0: ["t72", "t20"]}, hands={0: ["7S"]})
    legal = moves(pos)
    assert "7S t72-h0.1 t20-t23" in legal
    assert "7S t20-t23 t72-h0.1" in legal


def test_four_never_moves_a_marble_in_the_home_lane() -> None:
    pos = position(marbles={0: ["h0.2"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S discard"]


def test_four_backwards_never_enters_the_home_lane() -> None:
    # Seat 0's marble on t1 goes back past t0 onto t73: the track, not a lane.
    pos = position(marbles={0: ["t1"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S t1-t73"]


def test_two_seats_use_seats_0_and_2() -> None:
    pos = position(turn=2, hands={2: ["AS"]}, seats=2)
    assert set(pos["marbles"]) == {"0", "2"}
    assert moves(pos) == ["AS b2-t38"]


def test_two_seats_marble_enters_home_at_t37() -> None:
    pos = position(turn=2, marbles={2: ["t36"]}, hands={2: ["3S"]}, seats=2)
    assert moves(pos) == ["3S t36-h2.2"]


def test_two_seats_play_order_is_0_then_2() -> None:
    pos = position(marbles={0: ["t3"]}, hands={0: ["2S", "5H"], 2: 4}, seats=2)
    assert apply(pos, "2S t3-t5")["turn"] == 2


def test_two_seats_play_order_is_2_then_0() -> None:
    pos = position(turn=2, marbles={2: ["t40"]}, hands={0: 4, 2: ["2S", "5H"]}, seats=2)
    assert apply(pos, "2S t40-t42")["turn"] == 0
