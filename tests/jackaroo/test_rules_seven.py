"""The 7, single and split (jackaroo.md §2 and §3 rule 6)."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position


def splits(x: int, y: int) -> list[str]:
    """Every split of 7 over t<x> (first) and t<y> (second) on an empty stretch."""
    return [f"7S t{x}-t{x + a} t{y}-t{y + 7 - a}" for a in range(1, 7)]


def test_seven_lists_single_moves_and_splits_in_both_orders() -> None:
    pos = position(marbles={0: ["t10", "t30"]}, hands={0: ["7S"]})
    expected = ["7S t10-t17", "7S t30-t37", *splits(10, 30), *splits(30, 10)]
    assert len(expected) == 14
    assert moves(pos) == sorted(expected)


def test_split_seven_both_orders_are_different_moves() -> None:
    legal = moves(position(marbles={0: ["t10", "t30"]}, hands={0: ["7S"]}))
    assert "7S t10-t13 t30-t34" in legal
    assert "7S t30-t34 t10-t13" in legal


def test_seven_with_one_marble_is_not_split() -> None:
    assert moves(position(marbles={0: ["t10"]}, hands={0: ["7S"]})) == ["7S t10-t17"]


def test_split_seven_each_part_captures_on_landing() -> None:
    pos = position(marbles={0: ["t10", "t30"], 1: ["t12"], 3: ["t35"]}, hands={0: ["7S"]})
    after = board(apply(pos, "7S t10-t12 t30-t35"))
    assert after["0"] == ["b", "b", "t12", "t35"]
    assert after["1"] == ["b", "b", "b", "b"]
    assert after["3"] == ["b", "b", "b", "b"]


def test_split_seven_passing_captures_nothing() -> None:
    pos = position(marbles={0: ["t10", "t30"], 1: ["t11"], 3: ["t31"]}, hands={0: ["7S"]})
    after = board(apply(pos, "7S t10-t13 t30-t34"))
    assert after["1"] == ["b", "b", "b", "t11"]
    assert after["3"] == ["b", "b", "b", "t31"]


def test_split_seven_both_parts_must_be_legal() -> None:
    # Seat 1's protected marble on t19 stops t15 after 3 steps.
    pos = position(marbles={0: ["t15", "t33"], 1: ["t19"]}, hands={0: ["7S"]})
    assert moves(pos) == [
        "7S t15-t16 t33-t39",
        "7S t15-t17 t33-t38",
        "7S t15-t18 t33-t37",
        "7S t33-t37 t15-t18",
        "7S t33-t38 t15-t17",
        "7S t33-t39 t15-t16",
        "7S t33-t40",
    ]


def test_split_seven_second_part_checked_after_first_vacates() -> None:
    # pass_own off: t10 may not pass t12 until t12 has moved away.
    pos = position(marbles={0: ["t10", "t12"]}, hands={0: ["7S"]}, pass_own=False)
    assert moves(pos) == [
        "7S t10-t11 t12-t18",
        "7S t12-t15 t10-t14",
        "7S t12-t16 t10-t13",
        "7S t12-t17 t10-t12",
        "7S t12-t18 t10-t11",
        "7S t12-t19",
    ]


def test_split_seven_second_part_cannot_land_where_first_part_captured() -> None:
    # Either part alone may capture on t13; after the first, t13 is seat 0's own.
    pos = position(marbles={0: ["t8", "t10"], 1: ["t13"]}, hands={0: ["7S"]})
    legal = moves(pos)
    assert "7S t10-t13 t8-t12" in legal
    assert "7S t10-t13 t8-t13" not in legal
    assert "7S t8-t13 t10-t12" in legal


def test_split_seven_first_part_barrier_protects_against_second() -> None:
    # t24 + 1 lands on t25, just behind seat 1's t26, which becomes a barrier front.
    pos = position(
        marbles={0: ["t20", "t24"], 1: ["t26"]}, hands={0: ["7S"]}, preset="classic", pass_own=True
    )
    legal = moves(pos)
    assert "7S t20-t26 t24-t25" in legal
    assert "7S t24-t25 t20-t26" not in legal


def test_split_seven_first_part_leaving_barrier_rear_unprotects_front() -> None:
    # Seat 0's t20 protects seat 1's t21; once it has jumped to t23, t17 may land on t21.
    pos = position(
        marbles={0: ["t17", "t20"], 1: ["t21"]}, hands={0: ["7S"]}, preset="classic", pass_own=True
    )
    legal = moves(pos)
    assert "7S t20-t23 t17-t21" in legal
    assert "7S t17-t21 t20-t23" not in legal
    after = board(apply(pos, "7S t20-t23 t17-t21"))
    assert after["0"] == ["b", "b", "t21", "t23"]
    assert after["1"] == ["b", "b", "b", "b"]


def test_split_seven_second_part_moves_partner_after_finishing() -> None:
    pos = position(
        marbles={0: ["t74", "h0.2", "h0.3", "h0.4"], 2: ["t40"]},
        hands={0: ["7S"]},
    )
    assert moves(pos) == ["7S t74-h0.1 t40-t45"]
    after = apply(pos, "7S t74-h0.1 t40-t45")
    assert board(after)["0"] == ["h0.1", "h0.2", "h0.3", "h0.4"]
    assert board(after)["2"] == ["b", "b", "b", "t45"]
    assert after["turn"] == 1
    assert "winner" not in after


def test_split_seven_may_move_a_marble_inside_the_home_lane() -> None:
    # h0.1 can move 1, 2 or 3; t10 takes the rest.
    pos = position(marbles={0: ["t10", "h0.1"]}, hands={0: ["7S"]})
    assert moves(pos) == [
        "7S h0.1-h0.2 t10-t16",
        "7S h0.1-h0.3 t10-t15",
        "7S h0.1-h0.4 t10-t14",
        "7S t10-t14 h0.1-h0.4",
        "7S t10-t15 h0.1-h0.3",
        "7S t10-t16 h0.1-h0.2",
        "7S t10-t17",
    ]
