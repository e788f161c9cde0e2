"""What each card does (jackaroo.md §2), one marble on t10 unless said otherwise."""

from __future__ import annotations

import pytest

from .rule_helpers import apply, board, moves, position


def hand_of(card: str, ten: str = "move-or-burn") -> list[str]:
    """Seat 0's moves with one marble on t10, three in the base and ``card`` in hand."""
    return moves(position(marbles={0: ["t10"]}, hands={0: [card]}, ten=ten))


def test_ace_brings_out_or_moves_one_or_eleven() -> None:
    assert hand_of("AS") == ["AS b0-t0", "AS t10-t11", "AS t10-t21"]


def test_king_brings_out_or_moves_thirteen() -> None:
    assert hand_of("KS") == ["KS b0-t0", "KS t10-t23"]


def test_queen_moves_twelve() -> None:
    assert hand_of("QS") == ["QS t10-t22"]


def test_ten_moves_ten() -> None:
    assert hand_of("TS", ten="move") == ["TS t10-t20"]


def test_seven_moves_one_marble_seven() -> None:
    assert hand_of("7S") == ["7S t10-t17"]


def test_five_moves_five() -> None:
    assert hand_of("5S") == ["5S t10-t15"]


def test_four_moves_four_backwards() -> None:
    assert hand_of("4S") == ["4S t10-t6"]


@pytest.mark.parametrize(
    ("card", "to"), [("2S", "t12"), ("3H", "t13"), ("6D", "t16"), ("8C", "t18"), ("9S", "t19")]
)
def test_number_cards_move_forward_by_their_value(card: str, to: str) -> None:
    assert hand_of(card) == [f"{card} t10-{to}"]


def test_jack_swaps_with_another_seats_marble() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t30"]}, hands={0: ["JS"]})
    assert moves(pos) == ["JS t10~t30"]


def test_jack_without_another_marble_on_the_track_has_no_move() -> None:
    assert hand_of("JS") == ["JS discard"]


def test_ace_and_king_with_every_marble_in_base_only_bring_out() -> None:
    pos = position(hands={0: ["AS", "KH", "QD"]})
    assert moves(pos) == ["AS b0-t0", "KH b0-t0"]


def test_card_moves_apply_to_every_suit() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["9S", "9H", "9D", "9C"]})
    assert moves(pos) == ["9C t10-t19", "9D t10-t19", "9H t10-t19", "9S t10-t19"]


def test_bring_out_puts_the_marble_on_the_start_square() -> None:
    after = apply(position(turn=3, hands={3: ["KD"]}), "KD b3-t57")
    assert board(after)["3"] == ["b", "b", "b", "t57"]
