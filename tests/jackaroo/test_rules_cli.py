"""The command line on bad input (jackaroo.md §6): exit status 2, one line on stderr."""

from __future__ import annotations

import json

import pytest

from .rule_helpers import cli, moves, position


def assert_rejected(status: int, out: str, err: str) -> None:
    assert status == 2
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1
    assert err.strip()


@pytest.mark.parametrize("command", ["moves", "apply"])
def test_malformed_json_is_rejected(command: str) -> None:
    extra = ["2S t10-t12"] if command == "apply" else []
    assert_rejected(*cli(command, '{"turn": 0, "marbles": ', *extra))


@pytest.mark.parametrize("square", ["t76", "x3", "h0.5", "h4.1", "t-1"])
def test_unknown_square_is_rejected(square: str) -> None:
    pos = position(marbles={0: [square]}, hands={0: ["2S"]})
    assert_rejected(*cli("moves", json.dumps(pos)))


def test_two_marbles_on_one_square_are_rejected() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t10"]}, hands={0: ["2S"]})
    assert_rejected(*cli("moves", json.dumps(pos)))


def test_two_own_marbles_on_one_square_are_rejected() -> None:
    pos = position(marbles={0: ["h0.1", "h0.1"]}, hands={0: ["2S"]})
    assert_rejected(*cli("moves", json.dumps(pos)))


def test_illegal_move_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert_rejected(*cli("apply", json.dumps(pos), "2S t10-t13"))


def test_move_of_a_card_not_in_hand_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert_rejected(*cli("apply", json.dumps(pos), "2H t10-t12"))


def test_discard_when_a_move_exists_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert_rejected(*cli("apply", json.dumps(pos), "2S discard"))


def test_text_that_is_no_move_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert_rejected(*cli("apply", json.dumps(pos), "2S t10"))


def test_burn_needs_the_next_seats_hand_listed() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"], 1: 4})
    assert "TS burn" in moves(pos)
    assert_rejected(*cli("apply", json.dumps(pos), "TS burn"))


def test_unknown_option_value_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, king="mega")
    assert_rejected(*cli("moves", json.dumps(pos)))


def test_unknown_preset_is_rejected() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, preset="house")
    assert_rejected(*cli("moves", json.dumps(pos)))


def test_moves_prints_one_move_a_line_in_byte_order() -> None:
    # t9 + 1 would land on seat 0's own t10.
    pos = position(marbles={0: ["t9", "t10"]}, hands={0: ["9S", "AS", "2H"]})
    status, out, err = cli("moves", json.dumps(pos))
    assert (status, err) == (0, "")
    assert out == "".join(
        f"{m}\n"
        for m in [
            "2H t10-t12",
            "2H t9-t11",
            "9S t10-t19",
            "9S t9-t18",
            "AS b0-t0",
            "AS t10-t11",
            "AS t10-t21",
            "AS t9-t20",
        ]
    )


def test_spec_example_position_moves() -> None:
    pos = {
        "game": "jackaroo",
        "options": {"preset": "sahrat", "seats": 4},
        "turn": 0,
        "marbles": {
            "0": ["b", "b", "t3", "h0.1"],
            "1": ["b", "b", "b", "b"],
            "2": ["t40", "b", "b", "b"],
            "3": ["t57", "t20", "b", "b"],
        },
        "hands": {"0": ["AS", "7H", "TD", "KC"], "1": 4, "2": 4, "3": 4},
    }
    expected = [
        "AS b0-t0",
        "AS t3-t4",
        "AS t3-t14",
        "AS h0.1-h0.2",
        "7H t3-t10",
        "7H t3-t9 h0.1-h0.2",
        "7H t3-t8 h0.1-h0.3",
        "7H t3-t7 h0.1-h0.4",
        "7H h0.1-h0.2 t3-t9",
        "7H h0.1-h0.3 t3-t8",
        "7H h0.1-h0.4 t3-t7",
        "TD burn",
        "TD t3-t13",
        "KC b0-t0",
        "KC t3-t16",
    ]
    assert moves(pos) == sorted(expected)


def test_spec_notation_examples_are_legal_moves() -> None:
    pos = position(
        marbles={0: ["t1", "t5", "t20", "t74"], 1: ["t40"]},
        hands={0: ["QH", "3S", "4D", "7C", "JH"]},
    )
    legal = moves(pos)
    for move in ["QH t5-t17", "3S t74-h0.2", "4D t1-t73", "7C t5-t8 t20-t24", "JH t5~t40"]:
        assert move in legal


def test_move_in_a_finished_game_is_rejected() -> None:
    pos = position(
        marbles={
            0: ["t10"],
            1: ["h1.1", "h1.2", "h1.3", "h1.4"],
            3: ["h3.1", "h3.2", "h3.3", "h3.4"],
        },
        hands={0: ["2S"]},
    )
    assert_rejected(*cli("apply", json.dumps(pos), "2S t10-t12"))


def test_position_with_nobody_to_move_lists_no_moves() -> None:
    pos = position(turn=None, marbles={0: ["t10"]}, hands={0: 0, 1: 0, 2: 0, 3: 0})
    assert moves(pos) == []
