"""Controlling the partner's marbles once all four of yours are home (jackaroo.md §2)."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position

HOME0 = ["h0.1", "h0.2", "h0.3", "h0.4"]


def test_all_home_cards_move_partner_marbles() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40"]}, hands={0: ["2S"]})
    assert moves(pos) == ["2S t40-t42"]


def test_all_home_ace_brings_out_partner_marble() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40"]}, hands={0: ["AS"]})
    assert moves(pos) == ["AS b2-t38", "AS t40-t41", "AS t40-t51"]
    assert board(apply(pos, "AS b2-t38"))["2"] == ["b", "b", "t38", "t40"]


def test_all_home_king_brings_out_partner_marble() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40"]}, hands={0: ["KS"]}, king="plain")
    assert moves(pos) == ["KS b2-t38", "KS t40-t53"]


def test_all_home_no_bring_out_with_partner_marble_on_partners_start() -> None:
    pos = position(marbles={0: HOME0, 2: ["t38"]}, hands={0: ["AS"]})
    assert moves(pos) == ["AS t38-t39", "AS t38-t49"]


def test_all_home_four_moves_partner_marble_backwards() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S t40-t36"]


def test_all_home_partner_marble_follows_partners_path() -> None:
    # Seat 2's t36 is at progress 74: t37, h2.1, h2.2.
    pos = position(marbles={0: HOME0, 2: ["t36"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t36-h2.2"]


def test_all_home_partner_marble_may_not_land_on_partner_colour() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40", "t42"]}, hands={0: ["2S"]})
    assert moves(pos) == ["2S t42-t44"]


def test_all_home_jack_swaps_partner_marble() -> None:
    pos = position(marbles={0: HOME0, 1: ["t10"], 2: ["t40"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t40~t10"]


def test_controlling_seat_moves_partners_protected_marble_with_five() -> None:
    pos = position(marbles={0: HOME0, 2: ["t38"]}, hands={0: ["5S"]}, five="own")
    assert moves(pos) == ["5S t38-t43"]


def test_three_home_does_not_control_partner() -> None:
    # h0.2 + 2 is taken, h0.3 + 2 overshoots: the partner's t40 is not seat 0's to move.
    pos = position(marbles={0: ["h0.2", "h0.3", "h0.4"], 2: ["t40"]}, hands={0: ["2S"]})
    assert moves(pos) == ["2S discard"]


def test_partner_all_home_does_not_give_control_to_the_seat() -> None:
    # Seat 2 being home changes nothing for seat 0: it moves its own marbles.
    pos = position(marbles={0: ["t10"], 2: ["h2.1", "h2.2", "h2.3", "h2.4"]}, hands={0: ["2S"]})
    assert moves(pos) == ["2S t10-t12"]


def test_all_home_seven_splits_over_partner_marbles() -> None:
    pos = position(marbles={0: HOME0, 2: ["t40", "t50"]}, hands={0: ["7S"]})
    legal = moves(pos)
    assert "7S t40-t47" in legal
    assert "7S t40-t43 t50-t54" in legal
    assert "7S t50-t54 t40-t43" in legal
    assert len(legal) == 14
