"""What ``sahrat jackaroo apply`` writes (jackaroo.md §6) and how the game ends (§5)."""

from __future__ import annotations

from .rule_helpers import apply, moves, position


def test_apply_removes_the_played_card_from_the_hand() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S", "3H", "2D"]})
    assert apply(pos, "2D t10-t12")["hands"]["0"] == ["2S", "3H"]


def test_apply_keeps_hidden_hands_as_counts() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"], 1: 3, 2: 4, 3: 5})
    assert apply(pos, "2S t10-t12")["hands"] == {"0": [], "1": 3, "2": 4, "3": 5}


def test_apply_sorts_marble_lists_in_byte_order() -> None:
    pos = position(
        marbles={0: ["t3", "t40", "h0.1", "b"], 1: ["t30", "b", "t18", "b"]}, hands={0: ["2S"]}
    )
    after = apply(pos, "2S t3-t5")
    assert after["marbles"]["0"] == ["b", "h0.1", "t40", "t5"]
    assert after["marbles"]["1"] == ["b", "b", "t18", "t30"]


def test_apply_writes_captured_marbles_as_b() -> None:
    pos = position(marbles={0: ["t10"], 3: ["t12", "h3.1", "t70"]}, hands={0: ["2S"]})
    assert apply(pos, "2S t10-t12")["marbles"]["3"] == ["b", "b", "h3.1", "t70"]


def test_apply_turn_is_the_next_seat() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S", "3S"]})
    assert apply(pos, "2S t10-t12")["turn"] == 1


def test_apply_turn_skips_seats_with_empty_hands() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"], 1: 0, 2: 0, 3: 2})
    assert apply(pos, "2S t10-t12")["turn"] == 3


def test_apply_turn_wraps_from_seat_3_to_seat_0() -> None:
    pos = position(turn=3, marbles={3: ["t60"]}, hands={3: ["2S"], 0: 1})
    assert apply(pos, "2S t60-t62")["turn"] == 0


def test_apply_turn_comes_back_to_the_only_seat_holding_cards() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S", "3S"], 1: 0, 2: 0, 3: 0})
    assert apply(pos, "2S t10-t12")["turn"] == 0


def test_apply_turn_is_null_when_no_hand_holds_cards() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"], 1: 0, 2: 0, 3: 0})
    after = apply(pos, "2S t10-t12")
    assert after["turn"] is None
    assert "winner" not in after


def test_apply_appends_the_played_card_to_discard() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, discard=["KH", "3C"])
    assert apply(pos, "2S t10-t12")["discard"] == ["KH", "3C", "2S"]


def test_apply_without_discard_field_writes_none() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert "discard" not in apply(pos, "2S t10-t12")


def test_apply_writes_options_as_given() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, preset="classic", king="sweep")
    after = apply(pos, "2S t10-t12")
    assert after["options"] == {"preset": "classic", "seats": 4, "king": "sweep"}
    assert after["game"] == "jackaroo"


def test_apply_writes_winner_when_a_team_is_home() -> None:
    pos = position(
        marbles={0: ["t75", "h0.2", "h0.3", "h0.4"], 2: ["h2.1", "h2.2", "h2.3", "h2.4"]},
        hands={0: ["AS"]},
    )
    assert moves(pos) == ["AS t75-h0.1"]
    assert apply(pos, "AS t75-h0.1")["winner"] == [0, 2]


def test_apply_writes_winner_when_the_partner_finishes_the_team() -> None:
    # Seat 0 is home and moves seat 2's last marble in: team 0-2 wins.
    pos = position(
        marbles={0: ["h0.1", "h0.2", "h0.3", "h0.4"], 2: ["t37", "h2.2", "h2.3", "h2.4"]},
        hands={0: ["AS"]},
    )
    assert moves(pos) == ["AS t37-h2.1"]
    assert apply(pos, "AS t37-h2.1")["winner"] == [0, 2]


def test_no_winner_when_only_one_seat_of_a_team_is_home() -> None:
    pos = position(
        marbles={0: ["t75", "h0.2", "h0.3", "h0.4"], 2: ["h2.1", "h2.2", "h2.3"]},
        hands={0: ["AS"]},
    )
    assert "winner" not in apply(pos, "AS t75-h0.1")


def test_two_seats_winner_is_the_seat_with_all_four_home() -> None:
    pos = position(marbles={0: ["t75", "h0.2", "h0.3", "h0.4"]}, hands={0: ["AS"]}, seats=2)
    assert apply(pos, "AS t75-h0.1")["winner"] == [0]


def test_finished_game_lists_no_moves() -> None:
    pos = position(
        marbles={
            0: ["t10"],
            1: ["h1.1", "h1.2", "h1.3", "h1.4"],
            3: ["h3.1", "h3.2", "h3.3", "h3.4"],
        },
        hands={0: ["2S"]},
    )
    assert moves(pos) == []


def test_position_after_winning_lists_no_moves() -> None:
    pos = position(
        marbles={0: ["t75", "h0.2", "h0.3", "h0.4"], 2: ["h2.1", "h2.2", "h2.3", "h2.4"]},
        hands={0: ["AS", "2S"]},
    )
    assert moves(apply(pos, "AS t75-h0.1")) == []
