"""Meld shapes, wild cards and canastas (buraco.md §1–2)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sahrat.cards import JOKER, RANK, SUIT
from sahrat.games.buraco.generate import three_card_melds
from sahrat.games.buraco.melds import (
    SEQUENCE,
    SET,
    Meld,
    addable_cards,
    arrange,
    arrange_sequence,
    arrange_set,
    extend,
)

from .helpers import c, codes


def seq(text: str) -> Meld | None:
    return arrange_sequence(c(text))


def shown(meld: Meld | None) -> str | None:
    return None if meld is None else codes(meld.cards)


# -- sequences --------------------------------------------------------------------------


def test_sequence_needs_three_cards_of_one_suit() -> None:
    assert seq("5C 6C 7C") is not None
    assert seq("5C 6C") is None
    assert seq("5C 6C 7D") is None


def test_sequence_needs_consecutive_ranks() -> None:
    assert seq("5C 6C 8C") is None
    assert seq("5C 5C 6C") is None


def test_sequence_order_of_the_cards_given_does_not_matter() -> None:
    assert shown(seq("7C 5C 6C")) == "5C 6C 7C"


def test_sequence_ace_high_and_low() -> None:
    assert shown(seq("QC KC AC")) == "QC KC AC"
    assert shown(seq("AC 2C 3C")) == "AC 2C 3C"
    assert shown(seq("3D AD 2D")) == "AD 2D 3D"


def test_sequence_has_no_wrap_around() -> None:
    assert seq("KC AC 2C 3C") is None
    assert seq("QS KS AS 2S 3S") is None


def test_sequence_may_run_from_ace_to_ace() -> None:
    meld = seq("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert meld is not None and meld.clean
    assert shown(meld) == "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_ace_to_ace_with_a_wild_in_a_gap() -> None:
    meld = seq("AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH AH")
    assert shown(meld) == "AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH AH"
    assert meld is not None and not meld.clean


def test_no_fifteenth_card_beyond_ace_to_ace() -> None:
    assert seq("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JK") is None


def test_two_aces_need_the_whole_run() -> None:
    assert seq("AC AC 2C") is None
    assert seq("QC KC AC AC") is None


# -- wild cards in sequences ---------------------------------------------------------------


def test_sequence_at_most_one_wild() -> None:
    assert seq("5C JK 7C") is not None
    assert seq("5C JK JK 8C") is None
    assert seq("5C 2H 7C JK") is None
    assert seq("5C 6C 2H 2D") is None


def test_joker_stands_in_a_gap() -> None:
    meld = seq("5C JK 7C")
    assert shown(meld) == "5C JK 7C"
    assert meld is not None and not meld.clean


def test_wild_at_an_end_stands_above_unless_the_run_ends_in_a_high_ace() -> None:
    assert shown(seq("5C 6C JK")) == "5C 6C JK"
    assert shown(seq("KC AC JK")) == "JK KC AC"


def test_natural_two_in_its_place_is_not_wild() -> None:
    meld = seq("AC 2C 3C")
    assert meld is not None and meld.clean
    assert shown(seq("2C 3C 4C")) == "2C 3C 4C"


def test_two_of_another_suit_is_wild() -> None:
    meld = seq("AC 2H 3C")
    assert meld is not None and not meld.clean
    assert shown(meld) == "AC 2H 3C"


def test_two_of_the_suit_out_of_place_is_wild() -> None:
    meld = seq("2C 5C 6C")
    assert meld is not None and not meld.clean
    assert shown(meld) == "5C 6C 2C"


def test_king_ace_two_has_the_two_wild_for_the_queen() -> None:
    meld = seq("KC AC 2C")
    assert shown(meld) == "2C KC AC"
    assert meld is not None and not meld.clean


def test_two_twos_of_the_suit_one_natural_one_wild() -> None:
    meld = seq("2C 2C 3C")
    assert meld is not None and not meld.clean
    assert shown(meld) == "2C 3C 2C"
    assert shown(seq("AC 2C 2C 4C")) == "AC 2C 2C 4C"


def test_natural_two_and_another_wild() -> None:
    assert shown(seq("AC 2C JK")) == "AC 2C JK"
    assert shown(seq("2C 3C 4C 2H")) == "2C 3C 4C 2H"


def test_two_twos_of_the_suit_and_a_joker_are_too_many_wilds() -> None:
    assert seq("2C 2C 3C JK") is None


def test_no_sequence_of_wild_cards_only() -> None:
    assert seq("2C 2H JK") is None
    assert seq("JK JK JK") is None


# -- adding to a sequence ---------------------------------------------------------------


def test_joker_moves_to_end_when_natural_card_added() -> None:
    meld = seq("5C 6C JK 8C")
    assert meld is not None
    grown = extend(meld, c("7C"))
    assert shown(grown) == "5C 6C 7C 8C JK"


def test_adding_a_card_to_a_gap_without_a_wild_is_refused() -> None:
    meld = seq("5C 6C 7C")
    assert meld is not None
    assert extend(meld, c("9C")) is None
    assert shown(extend(meld, c("9C 8C"))) == "5C 6C 7C 8C 9C"


def test_second_wild_cannot_be_added() -> None:
    meld = seq("5C JK 7C")
    assert meld is not None
    assert extend(meld, c("2H")) is None


def test_dirty_meld_turns_clean_when_the_two_reaches_its_place() -> None:
    meld = seq("2C 4C 5C")
    assert meld is not None and not meld.clean
    grown = extend(meld, c("3C"))
    assert grown is not None and grown.clean
    assert shown(grown) == "2C 3C 4C 5C"


def test_adding_keeps_every_card_on_the_table() -> None:
    meld = seq("5C 6C JK 8C")
    assert meld is not None
    grown = extend(meld, c("7C 9C"))
    assert grown is not None
    assert Counter(grown.cards) == Counter(c("5C 6C JK 8C 7C 9C"))


def test_addable_cards_of_a_sequence() -> None:
    meld = seq("5C 6C 7C")
    assert meld is not None
    assert codes(sorted(addable_cards(meld))) == "2S 2H 2D 2C 4C 8C JK"


# -- sets ---------------------------------------------------------------------------------


def test_sets_only_with_the_sets_option() -> None:
    assert arrange(c("QS QH QD")) is None
    meld = arrange(c("QS QH QD"), sets=True)
    assert meld is not None and meld.kind == SET


def test_set_of_one_rank_any_suits() -> None:
    assert shown(arrange_set(c("QD QS QS"))) == "QS QS QD"
    assert arrange_set(c("QD QS KS")) is None


def test_sets_of_aces_and_three_to_king() -> None:
    assert arrange_set(c("AS AH AD")) is not None
    assert arrange_set(c("3S 3H 3D")) is not None
    assert arrange_set(c("KS KH KC")) is not None


def test_no_sets_of_twos_or_jokers() -> None:
    assert arrange_set(c("2S 2H 2D")) is None
    assert arrange_set(c("JK JK JK")) is None
    assert arrange(c("2S 2H 2D"), sets=True) is None


def test_set_at_most_one_wild() -> None:
    meld = arrange_set(c("9S 9H JK"))
    assert meld is not None and not meld.clean
    assert shown(meld) == "9S 9H JK"
    assert arrange_set(c("9S 9H JK 2C")) is None
    assert arrange_set(c("9S JK 2C")) is None


def test_a_set_stays_a_set_when_cards_are_added() -> None:
    meld = arrange_set(c("AC AC JK"))
    assert meld is not None
    # Together these would make the sequence AC 2C … QC JK AC; a meld keeps its kind.
    assert extend(meld, c("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")) is None
    grown = extend(meld, c("AS"))
    assert grown is not None and grown.kind == SET


# -- canastas --------------------------------------------------------------------------------


def test_canasta_needs_seven_cards() -> None:
    assert seq("5C 6C 7C 8C 9C TC") is not None
    meld = seq("5C 6C 7C 8C 9C TC")
    assert meld is not None and meld.canasta is None
    meld = seq("5C 6C 7C 8C 9C TC JC")
    assert meld is not None and meld.canasta == "clean"


def test_canasta_with_a_wild_is_dirty() -> None:
    meld = seq("5C 6C 7C JK 9C TC JC")
    assert meld is not None and meld.canasta == "dirty"


def test_canasta_is_clean_when_some_arrangement_has_no_wild() -> None:
    meld = seq("AC 2C 3C 4C 5C 6C 7C")
    assert meld is not None and meld.canasta == "clean"


def test_canasta_with_a_two_out_of_place_is_dirty() -> None:
    meld = seq("9C TC JC QC KC AC 2C")
    assert meld is not None and meld.canasta == "dirty"
    assert shown(meld) == "2C 9C TC JC QC KC AC"


def test_set_canasta_clean_and_dirty() -> None:
    clean = arrange_set(c("7S 7S 7H 7H 7D 7D 7C"))
    dirty = arrange_set(c("7S 7S 7H 7H 7D 7D 2C"))
    assert clean is not None and clean.canasta == "clean"
    assert dirty is not None and dirty.canasta == "dirty"


def test_meld_points_are_the_cards_points() -> None:
    meld = seq("AC 2C 3C JK")
    assert meld is not None and meld.points == 15 + 10 + 5 + 50


# -- three-card melds listed from a hand ----------------------------------------------------------


def test_three_card_melds_list_every_distinct_meld() -> None:
    counts = [0] * (JOKER + 1)
    for x in c("AC 2C 3C 2H"):
        counts[x] += 1
    listed = sorted(codes(m.cards) for m in three_card_melds(counts, sets=False))
    assert listed == sorted(["AC 2C 3C", "AC 2H 3C", "2C 3C 2H", "AC 2C 2H"])


# -- against a brute-force definition --------------------------------------------------------------


def _slot_card(suit: int, slot: int) -> int:
    return suit * 13 + (0 if slot == 14 else slot - 1)


def _is_wild(x: int) -> bool:
    return x == JOKER or RANK[x] == 2


def brute_sequence(cards: list[int]) -> tuple[bool, bool]:
    """(valid, clean) by trying every suit, every start slot and every wild slot."""
    n = len(cards)
    have = Counter(cards)
    valid = clean = False
    if n < 3:
        return False, False
    for suit in range(4):
        for low in range(1, 16 - n):
            naturals = [_slot_card(suit, slot) for slot in range(low, low + n)]
            if Counter(naturals) == have:
                valid = clean = True
            for i in range(n):
                need = Counter(naturals[:i] + naturals[i + 1 :])
                rest = have - need
                if need <= have and sum(rest.values()) == 1 and _is_wild(next(iter(rest))):
                    valid = True
    return valid, clean


def brute_set(cards: list[int]) -> tuple[bool, bool]:
    naturals = [x for x in cards if not _is_wild(x)]
    wilds = len(cards) - len(naturals)
    ranks = {RANK[x] for x in naturals}
    valid = len(cards) >= 3 and wilds <= 1 and len(ranks) == 1 and len(naturals) >= 2
    return valid, valid and wilds == 0


def lies_in_slots(meld: Meld) -> bool:
    """Is the arrangement a run of slots with naturals in place and one wild at most?"""
    suit = next(SUIT[x] for x in meld.cards if not _is_wild(x))
    for low in range(1, 16 - len(meld.cards)):
        off = [
            x
            for slot, x in zip(range(low, low + len(meld.cards)), meld.cards, strict=True)
            if x != _slot_card(suit, slot)
        ]
        if len(off) <= 1 and all(_is_wild(x) for x in off):
            return True
    return False


POOL = c("AC 2C 3C 4C 5C 9C TC JC QC KC AH 2H 3H QH KH 2S 2D JK")


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=0, max_size=14))
def test_sequence_validation_agrees_with_brute_force(cards: list[int]) -> None:
    meld = arrange_sequence(cards)
    valid, clean = brute_sequence(cards)
    assert (meld is not None) == valid
    if meld is not None:
        assert meld.kind == SEQUENCE
        assert meld.clean == clean
        assert Counter(meld.cards) == Counter(cards)
        assert lies_in_slots(meld)


SET_POOL = c("QS QH QD QC AS AH 3D 2C 2H JK KS")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SET_POOL), min_size=0, max_size=9))
def test_set_validation_agrees_with_brute_force(cards: list[int]) -> None:
    meld = arrange_set(cards)
    valid, clean = brute_set(cards)
    assert (meld is not None) == valid
    if meld is not None:
        assert meld.clean == clean
        assert Counter(meld.cards) == Counter(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=3, max_size=8), st.sampled_from(POOL))
def test_addable_cards_agree_with_extend(cards: list[int], extra: int) -> None:
    meld = arrange_sequence(cards)
    if meld is None:
        return
    assert (extra in addable_cards(meld)) == (extend(meld, [extra]) is not None)


@pytest.mark.parametrize("text", ["5C 6C 7C", "QS QH QD", "AC 2C 3C", "9S 9H JK"])
def test_no_meld_is_both_a_sequence_and_a_set(text: str) -> None:
    assert arrange_sequence(c(text)) is None or arrange_set(c(text)) is None


HAND_POOL = c("AC 2C 3C 4C 5C QC KC AH 2H 3H QH QS QD 2S JK")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(HAND_POOL), min_size=0, max_size=16), st.booleans())
def test_three_card_melds_are_every_valid_three_cards_of_the_hand(
    hand: list[int], sets: bool
) -> None:
    counts = [0] * (JOKER + 1)
    for x in hand:
        counts[x] = min(counts[x] + 1, 4 if x == JOKER else 2)  # as many as the deck holds
    hand = [x for x in range(JOKER + 1) for _ in range(counts[x])]
    listed = [tuple(sorted(m.cards)) for m in three_card_melds(counts, sets=sets)]
    assert len(listed) == len(set(listed))
    expected = {
        group for group in combinations(sorted(hand), 3) if arrange(group, sets=sets) is not None
    }
    assert set(listed) == expected
