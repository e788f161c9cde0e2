"""Burning: the T's ``burn`` and a stuck hand (jackaroo.md §4 ``ten``, ``stuck_hand``, §5)."""

from __future__ import annotations

from .rule_helpers import apply, moves, position


def test_ten_burn_listed_with_move_or_burn() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"]})
    assert moves(pos) == ["TS burn", "TS t10-t20"]


def test_ten_burn_not_listed_with_ten_move() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"]}, ten="move")
    assert moves(pos) == ["TS t10-t20"]


def test_ten_burn_not_listed_when_next_seats_hand_is_empty() -> None:
    # The next seat in play order is seat 1, even though seat 2 still holds cards.
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"], 1: 0})
    assert moves(pos) == ["TS t10-t20"]


def test_ten_burn_is_a_move_when_no_marble_can_move() -> None:
    pos = position(hands={0: ["TS", "2S"]})
    assert moves(pos) == ["TS burn"]


def test_ten_burn_targets_seat_2_on_a_two_seat_table() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"], 2: 0}, seats=2)
    assert moves(pos) == ["TS t10-t20"]


def test_apply_burn_takes_first_card_of_next_seats_hand() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS", "2S"], 1: ["3H", "9C"]}, discard=["4D"])
    after = apply(pos, "TS burn")
    assert after["hands"] == {"0": ["2S"], "1": ["9C"], "2": 4, "3": 4}
    assert after["discard"] == ["4D", "TS", "3H"]
    assert after["marbles"]["0"] == ["b", "b", "b", "t10"]
    assert after["turn"] == 1


def test_apply_burn_without_discard_field_writes_none() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS", "2S"], 1: ["3H", "9C"]})
    after = apply(pos, "TS burn")
    assert after["hands"]["1"] == ["9C"]
    assert "discard" not in after


def test_apply_burn_of_next_seats_last_card_skips_it() -> None:
    pos = position(hands={0: ["TS", "2S"], 1: ["3H"]})
    after = apply(pos, "TS burn")
    assert after["hands"]["1"] == []
    assert after["turn"] == 2


def test_stuck_burn_one_lists_a_discard_per_card() -> None:
    pos = position(hands={0: ["2S", "9H", "QD"]})
    assert moves(pos) == ["2S discard", "9H discard", "QD discard"]


def test_stuck_burn_one_lists_each_card_once_per_card() -> None:
    pos = position(marbles={0: ["t72"]}, hands={0: ["9S", "9H"]})
    assert moves(pos) == ["9H discard", "9S discard"]


def test_no_discard_when_some_card_moves() -> None:
    pos = position(marbles={0: ["t72"]}, hands={0: ["8S", "2S"]})
    assert moves(pos) == ["2S t72-t74"]


def test_apply_discard_removes_only_that_card() -> None:
    pos = position(hands={0: ["2S", "9H", "QD"]}, discard=[])
    after = apply(pos, "9H discard")
    assert after["hands"]["0"] == ["2S", "QD"]
    assert after["discard"] == ["9H"]
    assert after["turn"] == 1


def test_stuck_burn_all_with_all_marbles_in_base_discards_whole_hand() -> None:
    pos = position(hands={0: ["2S", "9H", "QD"]}, preset="classic")
    assert moves(pos) == ["discard-all"]


def test_apply_discard_all_empties_the_hand() -> None:
    pos = position(hands={0: ["2S", "9H", "QD"]}, preset="classic", discard=["5C"])
    after = apply(pos, "discard-all")
    assert after["hands"]["0"] == []
    assert sorted(after["discard"]) == ["2S", "5C", "9H", "QD"]
    assert after["discard"][0] == "5C"
    assert after["turn"] == 1


def test_stuck_burn_all_with_a_marble_out_discards_per_card() -> None:
    pos = position(marbles={0: ["t72"]}, hands={0: ["8S", "9H"]}, preset="classic")
    assert moves(pos) == ["8S discard", "9H discard"]


def test_stuck_burn_all_with_a_marble_home_discards_per_card() -> None:
    pos = position(marbles={0: ["h0.4"]}, hands={0: ["2S", "3S"]}, preset="classic")
    assert moves(pos) == ["2S discard", "3S discard"]


def test_stuck_burn_all_looks_at_controlled_marbles() -> None:
    # Seat 0 is home and controls seat 2, whose marbles are all in the base.
    pos = position(
        marbles={0: ["h0.1", "h0.2", "h0.3", "h0.4"]}, hands={0: ["2S", "3S"]}, preset="classic"
    )
    assert moves(pos) == ["discard-all"]


def test_burn_all_not_offered_when_a_ten_can_burn() -> None:
    pos = position(hands={0: ["TS", "2S"]}, preset="classic", ten="move-or-burn")
    assert moves(pos) == ["TS burn"]
