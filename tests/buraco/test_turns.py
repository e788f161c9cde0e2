"""A turn: draw or take the pile, meld and add, discard (buraco.md §4)."""

from __future__ import annotations

import pytest

from sahrat.errors import GameOver, IllegalMove, MalformedInput
from sahrat.games.buraco import BuracoOptions
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.setup import from_table

from .helpers import c, card, codes, snapshot

TWO = BuracoOptions(seats=2)
FOUR = BuracoOptions(seats=4)
CLOSED = BuracoOptions(seats=2, closed=True)


def test_draw_takes_the_top_card_of_the_stock() -> None:
    state = from_table(TWO, hands=["5C 6C", "KS KH"], stock="9D 4S", discard_pile="3H")
    state.apply_action("draw")
    assert codes(state.hand(0)) == "9D 5C 6C"
    assert state.stock[-1] == card("4S")
    assert state.phase_name == "play"


def test_take_takes_the_whole_discard_pile() -> None:
    state = from_table(TWO, hands=["5C 6C", "KS KH"], discard_pile="3H 7C 8D")
    stock = state.stock_size
    state.apply_action("take")
    assert codes(state.hand(0)) == "3H 8D 5C 6C 7C"
    assert state.pile == []
    assert state.stock_size == stock
    assert state.phase_name == "play"


def test_take_needs_a_pile() -> None:
    state = from_table(TWO, hands=["5C 6C", "KS KH"])
    assert state.legal_actions() == (act.draw(),)
    with pytest.raises(IllegalMove):
        state.apply_action("take")


def test_draw_phase_lists_draw_and_take() -> None:
    state = from_table(TWO, hands=["5C 6C", "KS KH"], discard_pile="3H")
    assert [str(a) for a in state.legal_actions()] == ["draw", "take"]


def test_cannot_meld_or_discard_before_drawing() -> None:
    state = from_table(TWO, hands=["5C 6C 7C 8C", "KS KH"], discard_pile="3H")
    for text in ("meld 5C 6C 7C", "discard 8C"):
        with pytest.raises(IllegalMove):
            state.apply_action(text)


def test_cannot_draw_twice() -> None:
    state = from_table(TWO, hands=["5C 6C", "KS KH"], discard_pile="3H")
    state.apply_action("draw")
    for text in ("draw", "take"):
        with pytest.raises(IllegalMove):
            state.apply_action(text)


def test_discard_ends_the_turn() -> None:
    state = from_table(TWO, hands=["5C 6C 9D", "KS KH"], phase="play")
    state.apply_action("discard 9D")
    assert state.pile[-1] == card("9D")
    assert state.current_player() == 1
    assert state.phase_name == "draw"


def test_four_players_play_in_seat_order() -> None:
    state = from_table(FOUR, hands=["5C 6C 9D", "KS", "QS", "JS"], to_move=3, phase="play")
    state.apply_action("discard JS")
    assert state.current_player() == 0


def test_meld_lays_down_cards_from_the_hand() -> None:
    state = from_table(TWO, hands=["5C 6C 7C 9D", "KS KH"], phase="play")
    state.apply_action("meld 7C 5C 6C")
    assert [codes(m.cards) for m in state.melds[0]] == ["5C 6C 7C"]
    assert codes(state.hand(0)) == "9D"
    assert state.current_player() == 0 and state.phase_name == "play"


def test_any_number_of_melds_and_additions_in_a_turn() -> None:
    state = from_table(TWO, hands=["5C 6C 7C 8C QH KH AH 9D", "KS KH"], phase="play")
    state.apply_action("meld 5C 6C 7C")
    state.apply_action("meld QH KH AH")
    state.apply_action("add 0 8C")
    assert [codes(m.cards) for m in state.melds[0]] == ["5C 6C 7C 8C", "QH KH AH"]
    assert codes(state.hand(0)) == "9D"


def test_meld_needs_the_cards_in_hand() -> None:
    state = from_table(TWO, hands=["5C 6C 9D 4D", "KS KH"], phase="play")
    with pytest.raises(IllegalMove):
        state.apply_action("meld 5C 6C 7C")
    with pytest.raises(IllegalMove):
        state.apply_action("discard 7C")


def test_meld_needs_a_valid_meld() -> None:
    state = from_table(TWO, hands=["5C 6C 8C 9D 4D", "KS KH"], phase="play")
    with pytest.raises(IllegalMove):
        state.apply_action("meld 5C 6C 8C")
    with pytest.raises(IllegalMove):
        state.apply_action("meld 5C 6C")


def test_sets_need_the_sets_option() -> None:
    hands = ["QS QH QD 9D 4D", "KS KH"]
    with pytest.raises(IllegalMove):
        from_table(TWO, hands=hands, phase="play").apply_action("meld QS QH QD")
    state = from_table(BuracoOptions(seats=2, sets=True), hands=hands, phase="play")
    assert act.meld(c("QS QH QD")) in state.legal_actions()
    state.apply_action("meld QS QH QD")
    assert state.melds[0][0].kind == "set"


def test_meld_bigger_than_listed_is_accepted() -> None:
    state = from_table(TWO, hands=["5C 6C 7C 8C 9C TC JC 4D 4H", "KS KH"], phase="play")
    listed = [a for a in state.legal_actions() if a.kind == act.MELD]
    assert all(len(a.cards) == 3 for a in listed)
    state.apply_action("meld 5C 6C 7C 8C 9C TC JC")
    assert state.melds[0][0].canasta == "clean"


def test_add_to_a_meld_of_your_side() -> None:
    state = from_table(TWO, hands=["8C 9D 4D", "KS KH"], melds=[["5C 6C 7C"], []], phase="play")
    assert act.add(0, c("8C")) in state.legal_actions()
    state.apply_action("add 0 8C")
    assert codes(state.melds[0][0].cards) == "5C 6C 7C 8C"


def test_add_only_to_your_own_sides_melds() -> None:
    state = from_table(TWO, hands=["8C 9D 4D", "KS KH"], melds=[[], ["5C 6C 7C"]], phase="play")
    assert not [a for a in state.legal_actions() if a.kind == act.ADD]
    with pytest.raises(IllegalMove):
        state.apply_action("add 0 8C")


def test_partners_share_their_sides_melds() -> None:
    state = from_table(
        FOUR,
        hands=["4D", "KS", "8C 9D 4H", "JS"],
        melds=[["5C 6C 7C"], ["QH KH AH"]],
        to_move=2,
        phase="play",
    )
    state.apply_action("add 0 8C")
    assert codes(state.melds[0][0].cards) == "5C 6C 7C 8C"
    with pytest.raises(IllegalMove):
        state.apply_action("add 1 9D")


def test_add_that_breaks_the_meld_is_illegal() -> None:
    state = from_table(TWO, hands=["9C JK 2H 4D", "KS KH"], melds=[["5C JK 7C"], []], phase="play")
    for text in ("add 0 9C", "add 0 2H", "add 1 9C", "add 0 JK"):
        with pytest.raises(IllegalMove):
            state.apply_action(text)


def test_joker_moves_to_the_end_when_the_natural_card_is_added() -> None:
    state = from_table(TWO, hands=["7C 9D 4D", "KS KH"], melds=[["5C 6C JK 8C"], []], phase="play")
    state.apply_action("add 0 7C")
    assert codes(state.melds[0][0].cards) == "5C 6C 7C 8C JK"


def test_wild_cards_never_go_back_to_a_hand() -> None:
    state = from_table(TWO, hands=["7C 9D 4D", "KS KH"], melds=[["5C 6C JK 8C"], []], phase="play")
    state.apply_action("add 0 7C")
    assert codes(state.hand(0)) == "4D 9D"
    assert state.melds[0][0].cards.count(card("JK")) == 1


def test_add_several_cards_at_once() -> None:
    state = from_table(TWO, hands=["8C 9C 4D 4H", "KS KH"], melds=[["5C 6C 7C"], []], phase="play")
    state.apply_action("add 0 9C 8C")
    assert codes(state.melds[0][0].cards) == "5C 6C 7C 8C 9C"


def test_closed_pile_cannot_be_taken_alone() -> None:
    state = from_table(CLOSED, hands=["7H 8H 4D", "KS KH"], discard_pile="3S 9H")
    with pytest.raises(IllegalMove):
        state.apply_action("take")
    assert act.take() not in state.legal_actions()


def test_closed_take_and_meld_the_top_card_is_one_action() -> None:
    state = from_table(CLOSED, hands=["7H 8H 4D", "KS KH"], discard_pile="3S 9H")
    assert act.take_meld(c("7H 8H")) in state.legal_actions()
    state.apply_action("take meld 7H 8H")
    assert [codes(m.cards) for m in state.melds[0]] == ["7H 8H 9H"]
    assert codes(state.hand(0)) == "3S 4D"
    assert state.pile == []
    assert state.phase_name == "play"


def test_closed_take_and_add_the_top_card_to_a_meld() -> None:
    state = from_table(
        CLOSED, hands=["8C 4D", "KS KH"], melds=[["5C 6C 7C"], []], discard_pile="3S 9C"
    )
    legal = state.legal_actions()
    assert act.take_add(0) not in legal  # 9C alone leaves a gap
    assert act.take_add(0, c("8C")) in legal
    state.apply_action("take add 0 8C")
    assert codes(state.melds[0][0].cards) == "5C 6C 7C 8C 9C"
    assert codes(state.hand(0)) == "3S 4D"


def test_closed_take_add_top_card_alone() -> None:
    state = from_table(
        CLOSED, hands=["8C 4D", "KS KH"], melds=[["5C 6C 7C"], []], discard_pile="3S 4C"
    )
    assert act.take_add(0) in state.legal_actions()
    state.apply_action("take add 0")
    assert codes(state.melds[0][0].cards) == "4C 5C 6C 7C"


def test_closed_take_melds_with_cards_held_before_taking() -> None:
    state = from_table(CLOSED, hands=["7H 4D", "KS KH"], discard_pile="8H 9H")
    assert [str(a) for a in state.legal_actions()] == ["draw"]
    with pytest.raises(IllegalMove):
        state.apply_action("take meld 7H 8H")


def test_closed_take_that_does_not_meld_the_top_card_is_illegal() -> None:
    state = from_table(CLOSED, hands=["7H 8H 4D", "KS KH"], discard_pile="3S 9S")
    with pytest.raises(IllegalMove):
        state.apply_action("take meld 7H 8H")


def test_open_pile_has_no_combined_take() -> None:
    state = from_table(TWO, hands=["7H 8H 4D", "KS KH"], discard_pile="3S 9H")
    with pytest.raises(IllegalMove):
        state.apply_action("take meld 7H 8H")


def test_illegal_move_leaves_the_state_unchanged() -> None:
    state = from_table(TWO, hands=["5C 6C 8C 9D", "KS KH"], melds=[["QH KH AH"], []], phase="play")
    before = snapshot(state)
    legal = state.legal_actions()
    for text in ("draw", "meld 5C 6C 8C", "add 0 5C", "add 3 5C", "discard 7D", "meld 5C 6C"):
        with pytest.raises(IllegalMove):
            state.apply_action(text)
        assert snapshot(state) == before
    with pytest.raises(MalformedInput):
        state.apply_action("meld 5C 6C XX")
    with pytest.raises(MalformedInput):
        state.apply_action(act.BuracoAction(act.DISCARD, -1, (1, 2)))
    assert snapshot(state) == before
    assert state.legal_actions() == legal


def test_no_action_once_the_match_is_over() -> None:
    state = from_table(
        BuracoOptions(seats=2, target=1000),
        hands=["9D", "KS KH"],
        melds=[["5C 6C 7C 8C 9C TC JC"], []],
        morto_status=["taken", "untaken"],
        totals=(900, 0),
        phase="play",
    )
    state.apply_action("discard 9D")
    assert state.is_terminal()
    assert state.legal_actions() == ()
    with pytest.raises(GameOver):
        state.apply_action("draw")
