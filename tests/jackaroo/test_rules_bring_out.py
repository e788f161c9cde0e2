"""Bringing a marble out with an A or a K (jackaroo.md §2 "Bring out")."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position


def test_bring_out_illegal_with_own_marble_on_start_square() -> None:
    pos = position(marbles={0: ["t0"]}, hands={0: ["AS"]})
    assert moves(pos) == ["AS t0-t1", "AS t0-t11"]


def test_bring_out_illegal_with_own_marble_on_start_square_for_king() -> None:
    pos = position(turn=1, marbles={1: ["t19"]}, hands={1: ["KS"]})
    assert moves(pos) == ["KS t19-t32"]


def test_bring_out_captures_opponent_on_start_square() -> None:
    pos = position(marbles={1: ["t0"]}, hands={0: ["AS"]})
    assert moves(pos) == ["AS b0-t0"]
    after = board(apply(pos, "AS b0-t0"))
    assert after["0"] == ["b", "b", "b", "t0"]
    assert after["1"] == ["b", "b", "b", "b"]


def test_bring_out_captures_partner_on_start_square() -> None:
    pos = position(marbles={2: ["t0", "t40"]}, hands={0: ["KS"]})
    assert "KS b0-t0" in moves(pos)
    after = board(apply(pos, "KS b0-t0"))
    assert after["0"] == ["b", "b", "b", "t0"]
    assert after["2"] == ["b", "b", "b", "t40"]


def test_bring_out_captures_marble_protected_by_start_guard_any() -> None:
    # With start_guard any the seat 3 marble on t0 is protected, yet reclaimed.
    pos = position(marbles={3: ["t0"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0"]
    assert board(apply(pos, "KS b0-t0"))["3"] == ["b", "b", "b", "b"]


def test_bring_out_captures_barrier_protected_marble() -> None:
    # t75 and t0 are adjacent: the marble on t0 is the front of a barrier.
    pos = position(marbles={1: ["t75", "t0"]}, hands={0: ["AS"]}, preset="classic")
    assert moves(pos) == ["AS b0-t0"]
    assert board(apply(pos, "AS b0-t0"))["1"] == ["b", "b", "b", "t75"]


def test_partner_controlling_seat_brings_out_onto_partners_start() -> None:
    pos = position(marbles={0: ["h0.1", "h0.2", "h0.3", "h0.4"]}, hands={0: ["AS"]})
    assert moves(pos) == ["AS b2-t38"]
