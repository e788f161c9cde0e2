"""Landing and passing (jackaroo.md §3 rules 1 and 3)."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position


def test_landing_captures_opponent() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t13"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t10-t13"]
    after = board(apply(pos, "3S t10-t13"))
    assert after["0"] == ["b", "b", "b", "t13"]
    assert after["1"] == ["b", "b", "b", "b"]


def test_landing_captures_partner() -> None:
    pos = position(marbles={0: ["t10"], 2: ["t13", "t50"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t10-t13"]
    assert board(apply(pos, "3S t10-t13"))["2"] == ["b", "b", "b", "t50"]


def test_landing_on_own_colour_is_illegal() -> None:
    pos = position(marbles={0: ["t10", "t13"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t13-t16"]


def test_landing_on_protected_marble_is_illegal() -> None:
    # Seat 1's marble on its own start square t19 is protected (start_guard own).
    pos = position(marbles={0: ["t16"], 1: ["t19"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S discard"]


def test_landing_on_marble_on_another_seats_start_square_captures() -> None:
    # start_guard own: seat 1's marble on seat 2's start square t38 is not protected.
    pos = position(marbles={0: ["t35"], 1: ["t38"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S t35-t38"]
    assert board(apply(pos, "3S t35-t38"))["1"] == ["b", "b", "b", "b"]


def test_passing_an_opponent_captures_nothing() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t12"]}, hands={0: ["6S"]})
    assert moves(pos) == ["6S t10-t16"]
    assert board(apply(pos, "6S t10-t16"))["1"] == ["b", "b", "b", "t12"]


def test_passing_a_partner_captures_nothing() -> None:
    pos = position(marbles={0: ["t10"], 2: ["t12"]}, hands={0: ["6S"]})
    assert moves(pos) == ["6S t10-t16"]
    assert board(apply(pos, "6S t10-t16"))["2"] == ["b", "b", "b", "t12"]


def test_pass_own_true_allows_passing_own_marble() -> None:
    pos = position(marbles={0: ["t10", "t12"]}, hands={0: ["6S"]})
    assert moves(pos) == ["6S t10-t16", "6S t12-t18"]


def test_pass_own_false_forbids_passing_own_marble() -> None:
    pos = position(marbles={0: ["t10", "t12"]}, hands={0: ["6S"]}, pass_own=False)
    assert moves(pos) == ["6S t12-t18"]


def test_pass_own_false_still_allows_passing_other_colours() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t11"], 2: ["t12"]}, hands={0: ["6S"]}, pass_own=False)
    assert moves(pos) == ["6S t10-t16"]


def test_pass_own_false_forbids_passing_own_marble_backwards() -> None:
    pos = position(marbles={0: ["t10", "t8"]}, hands={0: ["4S"]}, pass_own=False)
    assert moves(pos) == ["4S t8-t4"]


def test_protected_marble_blocks_passing_by_an_opponent() -> None:
    pos = position(marbles={0: ["t17"], 1: ["t19"]}, hands={0: ["3S"]})
    assert moves(pos) == ["3S discard"]


def test_protected_marble_blocks_passing_by_its_owner() -> None:
    # pass_own is on, yet t2 may not go back past its own protected marble on t0.
    pos = position(marbles={0: ["t0", "t2"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S t0-t72"]


def test_protected_marble_blocks_its_owner_with_start_guard_any() -> None:
    # Seat 0's own marble on seat 1's start square is protected for seat 0 too.
    pos = position(marbles={0: ["t17", "t19"]}, hands={0: ["3S"]}, start_guard="any")
    assert moves(pos) == ["3S t19-t22"]


def test_protected_marble_blocks_passing_by_the_partner() -> None:
    pos = position(turn=2, marbles={2: ["t17"], 1: ["t19"]}, hands={2: ["3S"]})
    assert moves(pos) == ["3S discard"]


def test_four_backwards_captures_on_landing() -> None:
    pos = position(marbles={0: ["t10"], 3: ["t6"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S t10-t6"]
    assert board(apply(pos, "4S t10-t6"))["3"] == ["b", "b", "b", "b"]


def test_four_backwards_may_not_land_on_protected_marble() -> None:
    pos = position(marbles={0: ["t42"], 2: ["t38"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S discard"]


def test_four_backwards_may_not_pass_protected_marble() -> None:
    pos = position(marbles={0: ["t40"], 2: ["t38"]}, hands={0: ["4S"]})
    assert moves(pos) == ["4S discard"]
