"""The 5 (jackaroo.md §2 and §3 rule 7; ``five`` option)."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position


def test_five_any_moves_opponent_marble() -> None:
    pos = position(marbles={1: ["t30"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t30-t35"]
    after = board(apply(pos, "5S t30-t35"))
    assert after["0"] == ["b", "b", "b", "b"]
    assert after["1"] == ["b", "b", "b", "t35"]


def test_five_any_moves_partner_marble() -> None:
    pos = position(marbles={2: ["t50"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t50-t55"]


def test_five_any_lists_own_and_every_other_seats_marbles() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t30"], 2: ["t50"], 3: ["t60"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t10-t15", "5S t30-t35", "5S t50-t55", "5S t60-t65"]


def test_five_any_moves_marble_into_its_owners_home_lane() -> None:
    # Seat 1's t16 is at progress 73: t17, t18, h1.1, h1.2, h1.3.
    pos = position(marbles={1: ["t16"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t16-h1.3"]
    assert board(apply(pos, "5S t16-h1.3"))["1"] == ["b", "b", "b", "h1.3"]


def test_five_any_moved_marble_at_its_owners_entry_cannot_overshoot() -> None:
    pos = position(marbles={3: ["t56"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S discard"]


def test_five_any_cannot_move_marble_on_its_start_square() -> None:
    pos = position(marbles={1: ["t19"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S discard"]


def test_five_any_cannot_move_barrier_protected_marble_of_another_seat() -> None:
    # Seat 3's t31 is the front of t30-t31; seat 1's t30 is free to go.
    pos = position(marbles={1: ["t30"], 3: ["t31"]}, hands={0: ["5S"]}, preset="complex")
    assert moves(pos) == ["5S t30-t35"]


def test_five_any_own_protected_marble_moves_as_usual() -> None:
    pos = position(marbles={0: ["t0"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t0-t5"]


def test_five_any_moved_marble_captures_the_movers_own_marble() -> None:
    pos = position(marbles={0: ["t35"], 1: ["t30"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t30-t35", "5S t35-t40"]
    after = board(apply(pos, "5S t30-t35"))
    assert after["0"] == ["b", "b", "b", "b"]
    assert after["1"] == ["b", "b", "b", "t35"]


def test_five_any_moved_marble_may_not_land_on_its_own_colour() -> None:
    pos = position(marbles={1: ["t30", "t35"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S t35-t40"]


def test_five_any_moved_marble_obeys_pass_own_for_its_colour() -> None:
    # pass_own off: seat 1's t30 may not pass seat 1's t32, but t32 may pass seat 0's t33.
    pos = position(marbles={0: ["t33"], 1: ["t30", "t32"]}, hands={0: ["5S"]}, pass_own=False)
    assert moves(pos) == ["5S t32-t37", "5S t33-t38"]


def test_five_any_does_not_move_marbles_in_home_lanes_of_others() -> None:
    pos = position(marbles={1: ["h1.1"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S discard"]


def test_five_own_moves_only_controlled_marbles() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t30"], 2: ["t50"]}, hands={0: ["5S"]}, five="own")
    assert moves(pos) == ["5S t10-t15"]


def test_five_own_without_own_marble_out_has_no_move() -> None:
    pos = position(marbles={1: ["t30"]}, hands={0: ["5S"]}, five="own")
    assert moves(pos) == ["5S discard"]


def test_five_any_cannot_move_partners_protected_marble() -> None:
    pos = position(marbles={2: ["t38"]}, hands={0: ["5S"]})
    assert moves(pos) == ["5S discard"]
