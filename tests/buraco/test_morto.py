"""Emptying the hand: the morto, going out, the last card, the stock running out (§4)."""

from __future__ import annotations

import pytest

from sahrat.errors import IllegalMove
from sahrat.games.buraco import BuracoOptions
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.points import points_of
from sahrat.games.buraco.setup import from_table
from sahrat.games.buraco.table import PENDING, STOCK, TAKEN, UNTAKEN

from .helpers import c, codes

TWO = BuracoOptions(seats=2)
FOUR = BuracoOptions(seats=4)
M0 = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"
M1 = "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD"
CANASTA = "5C 6C 7C 8C 9C TC JC"


def sorted_codes(text: str) -> str:
    return codes(sorted(c(text)))


# -- taking the morto ----------------------------------------------------------------------


def test_morto_picked_up_at_once_when_the_hand_empties_by_melding() -> None:
    state = from_table(TWO, hands=["5H 6H 7H", "KS KH"], mortos=[M0, M1], phase="play")
    state.apply_action("meld 5H 6H 7H")
    assert codes(state.hand(0)) == sorted_codes(M0)
    assert state.current_player() == 0 and state.phase_name == "play"
    assert state.morto_status == [TAKEN, UNTAKEN]
    assert state.view(1).morto_sizes == (0, 11)


def test_after_picking_up_the_morto_the_turn_still_ends_with_a_discard() -> None:
    state = from_table(TWO, hands=["5H 6H 7H", "KS KH"], mortos=[M0, M1], phase="play")
    state.apply_action("meld 5H 6H 7H")
    state.apply_action("discard JS")
    assert state.current_player() == 1


def test_morto_picked_up_next_turn_when_the_hand_empties_by_discarding() -> None:
    state = from_table(TWO, hands=["9H", "KS KH"], mortos=[M0, M1], stock="4C 4H", phase="play")
    state.apply_action("discard 9H")
    assert state.hand(0) == []
    assert state.morto_status == [PENDING, UNTAKEN]
    assert state.view(1).morto_status == ("pending", "untaken")
    assert state.current_player() == 1
    state.apply_action("draw")
    state.apply_action("discard KS")
    assert state.current_player() == 0 and state.phase_name == "draw"
    assert codes(state.hand(0)) == sorted_codes(M0)
    assert state.morto_status == [TAKEN, UNTAKEN]


def test_two_players_each_take_their_own_morto() -> None:
    state = from_table(TWO, hands=["KS KH", "5H 6H 7H"], mortos=[M0, M1], to_move=1, phase="play")
    state.apply_action("meld 5H 6H 7H")
    assert codes(state.hand(1)) == sorted_codes(M1)
    assert state.morto_status == [UNTAKEN, TAKEN]
    assert state.mortos[0] == c(M0)


def test_four_players_one_morto_per_side() -> None:
    state = from_table(
        FOUR,
        hands=["5H 6H 7H", "KS", "QH QS 8H", "JS"],
        mortos=[M0, M1],
        phase="play",
    )
    state.apply_action("meld 5H 6H 7H")
    assert codes(state.hand(0)) == sorted_codes(M0)
    assert state.morto_status == [TAKEN, UNTAKEN]


def test_partner_cannot_take_a_second_morto() -> None:
    state = from_table(
        FOUR,
        hands=["KS KH", "KD", "5H 6H 7H", "JS"],
        mortos=[None, None],
        morto_status=["taken", "untaken"],
        to_move=2,
        phase="play",
    )
    with pytest.raises(IllegalMove, match="canasta"):
        state.apply_action("meld 5H 6H 7H")


# -- going out and the last card -----------------------------------------------------------


def test_cannot_discard_last_card_without_canasta() -> None:
    state = from_table(
        TWO,
        hands=["JH", "KS KH"],
        melds=[["5H 6H 7H 8H 9H TH"], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    with pytest.raises(IllegalMove, match="last card"):
        state.apply_action("discard JH")
    assert state.legal_actions() == (act.add(0, c("JH")),)


def test_going_out_by_melding_the_last_card_into_a_first_canasta() -> None:
    state = from_table(
        TWO,
        hands=["JH", "KS KH"],
        melds=[["5H 6H 7H 8H 9H TH"], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    state.apply_action("add 0 JH")
    result = state.results[-1]
    assert result is not None and result.went_out == 0
    assert result.sides[0].went_out and result.sides[0].canastas_clean == 1
    assert state.phase_name == "shuffle"


def test_cannot_meld_the_last_cards_without_a_canasta() -> None:
    state = from_table(
        TWO, hands=["5C 6C 7C", "KS KH"], morto_status=["taken", "untaken"], phase="play"
    )
    assert act.meld(c("5C 6C 7C")) not in state.legal_actions()
    with pytest.raises(IllegalMove, match="last card"):
        state.apply_action("meld 5C 6C 7C")


def test_cannot_keep_a_single_card_that_could_not_be_discarded() -> None:
    state = from_table(
        TWO, hands=["5C 6C 7C 9D", "KS KH"], morto_status=["taken", "untaken"], phase="play"
    )
    assert act.meld(c("5C 6C 7C")) not in state.legal_actions()
    with pytest.raises(IllegalMove, match="single card"):
        state.apply_action("meld 5C 6C 7C")


def test_may_keep_a_single_card_that_completes_a_canasta() -> None:
    state = from_table(
        TWO,
        hands=["5D 6D 7D JH", "KS KH"],
        melds=[["5H 6H 7H 8H 9H TH"], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    assert act.meld(c("5D 6D 7D")) in state.legal_actions()
    state.apply_action("meld 5D 6D 7D")
    assert state.legal_actions() == (act.add(0, c("JH")),)


def test_may_keep_a_single_card_while_the_morto_waits() -> None:
    state = from_table(TWO, hands=["5C 6C 7C 9D", "KS KH"], phase="play")
    state.apply_action("meld 5C 6C 7C")
    assert state.legal_actions()[-1] == act.discard(c("9D")[0])


def test_going_out_needs_the_morto_taken() -> None:
    state = from_table(
        TWO, hands=["9H", "KS KH"], melds=[[CANASTA], []], mortos=[M0, M1], phase="play"
    )
    state.apply_action("discard 9H")
    assert state.results == []
    assert state.morto_status[0] == PENDING


def test_going_out_by_discarding_with_the_morto_and_a_canasta() -> None:
    state = from_table(
        TWO,
        hands=["9H", "KS KH"],
        melds=[[CANASTA], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    state.apply_action("discard 9H")
    result = state.results[-1]
    assert result is not None and result.went_out == 0
    assert result.sides[0].went_out and not result.sides[1].went_out
    assert result.sides[0].bonus == 200 + 100
    assert result.sides[1].bonus == -100


def test_going_out_by_melding_every_card() -> None:
    state = from_table(
        TWO,
        hands=["5D 6D 7D", "KS KH"],
        melds=[[CANASTA], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    state.apply_action("meld 5D 6D 7D")
    result = state.results[-1]
    assert result is not None and result.went_out == 0 and result.sides[0].hand == 0


def test_partner_may_go_out_while_a_morto_waits_and_it_counts_as_hand() -> None:
    state = from_table(
        FOUR,
        hands=["9H", "KS KH", "QC", "JS JH"],
        melds=[[CANASTA], []],
        mortos=[M0, M1],
        stock="KD 4H QD 3S",
        phase="play",
    )
    state.apply_action("discard 9H")  # seat 0 takes the morto for next turn
    state.apply_action("draw")
    state.apply_action("discard KS")  # seat 1
    state.apply_action("draw")  # seat 2 draws 4H
    state.apply_action("add 0 QC")
    state.apply_action("discard 4H")  # seat 2 goes out
    result = state.results[-1]
    assert result is not None and result.went_out == 0
    side = result.sides[0]
    assert side.took_morto and side.went_out
    assert side.hand == points_of(c(M0))
    assert side.melded == points_of(c(CANASTA + " QC"))


# -- the stock runs out ---------------------------------------------------------------------


def test_stock_running_out_turns_the_first_untaken_morto_into_the_stock() -> None:
    state = from_table(
        TWO, hands=["4H 5H", "KS KH"], mortos=[M0, M1], stock="", rest="pile", phase="draw"
    )
    assert state.morto_status == [STOCK, UNTAKEN]
    assert state.view(0).morto_status == ("stock", "untaken")
    assert state.stock_size == 11 and state.view(0).morto_sizes == (0, 11)
    state.apply_action("draw")
    assert codes(state.hand(0)) == "AS 4H 5H"


def test_stock_running_out_uses_side_ones_morto_when_side_zeros_is_taken() -> None:
    state = from_table(
        TWO,
        hands=["4H 5H", "KS KH"],
        mortos=[None, M1],
        morto_status=["taken", "untaken"],
        stock="",
        rest="pile",
        phase="draw",
    )
    assert state.morto_status == [TAKEN, STOCK]
    assert state.stock[-1] == c("AD")[0]


def test_stock_running_out_without_a_morto_ends_the_hand() -> None:
    state = from_table(
        TWO,
        hands=["4H 5H", "KS KH"],
        mortos=[None, None],
        morto_status=["taken", "taken"],
        stock="",
        rest="pile",
        phase="draw",
    )
    result = state.results[-1]
    assert result is not None and result.went_out == -1
    assert state.phase_name == "shuffle"


def test_stock_runs_out_after_the_last_draw() -> None:
    state = from_table(
        TWO,
        hands=["4H 5H", "KS KH"],
        mortos=[None, None],
        morto_status=["taken", "taken"],
        stock="9C",
        rest="pile",
        phase="draw",
    )
    state.apply_action("draw")
    assert state.results == []
    state.apply_action("discard 9C")
    assert state.results


def test_side_whose_morto_became_the_stock_has_not_taken_it() -> None:
    state = from_table(
        TWO,
        hands=["4H 5H", "KS KH"],
        mortos=[None, None],
        morto_status=["stock", "taken"],
        stock="",
        rest="pile",
        phase="draw",
    )
    result = state.results[-1]
    assert result is not None
    assert not result.sides[0].took_morto and result.sides[0].bonus == -100
    assert result.sides[1].took_morto and result.sides[1].bonus == 0


def test_cannot_go_out_when_the_sides_morto_became_the_stock() -> None:
    state = from_table(
        TWO,
        hands=["5D 6D 7D 9H", "KS KH"],
        melds=[[CANASTA], []],
        mortos=[None, M1],
        morto_status=["stock", "untaken"],
        phase="play",
    )
    assert act.meld(c("5D 6D 7D")) not in state.legal_actions()
    with pytest.raises(IllegalMove):
        state.apply_action("meld 5D 6D 7D")
