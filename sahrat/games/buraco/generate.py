"""Listing the new melds a hand can lay down, without trying every subset.

A hand is a count per card (``counts[card]``, jokers at index 52). Every
valid three-card meld has at least two natural cards within three adjacent
slots (a sequence) or of one rank (a set), so walking the windows of three
slots per suit, and the ranks, finds them all in time linear in the hand.

Longer melds are not listed: each of them can be laid down as three cards
and grown one card at a time (any contiguous part of a valid sequence is
valid), and the state accepts any valid meld when it is played directly.

>>> from sahrat.cards import JOKER, parse_cards
>>> counts = [0] * (JOKER + 1)
>>> for card in parse_cards("5C 6C 7C JK".split(), joker=True):
...     counts[card] += 1
>>> sorted(str(meld) for meld in three_card_melds(counts, sets=False))[:3]
['5C 6C 7C', '5C 6C JK', '5C JK 7C']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from sahrat.cards import JOKER
from sahrat.games.buraco.melds import HIGH_ACE, Meld, arrange_sequence, arrange_set

#: The wild cards: 2S, 2H, 2D, 2C and the joker.
WILD_CARDS = (1, 14, 27, 40, JOKER)

#: ``SLOT_CARD[suit][slot]``: the natural card of each sequence slot 1..14 (index 0 unused).
SLOT_CARD: tuple[tuple[int, ...], ...] = tuple(
    (-1, *(suit * 13 + (0 if slot == HIGH_ACE else slot - 1) for slot in range(1, 15)))
    for suit in range(4)
)

#: The ranks a set may have: aces and 3..K.
SET_RANKS = (1, *range(3, 14))


#: How many of three window slots a 3-bit pattern fills.
_PAIRED = (0, 1, 1, 2, 1, 2, 2, 3)


def _available(counts: Sequence[int], cards: tuple[int, ...]) -> bool:
    return all(counts[card] >= cards.count(card) for card in cards)


def three_card_melds(counts: Sequence[int], *, sets: bool) -> list[Meld]:
    """Every distinct valid meld of three cards from ``counts`` (sets only with ``sets``)."""
    wilds = [card for card in WILD_CARDS if counts[card]]
    found: dict[tuple[int, ...], Meld] = {}
    for suit_cards in SLOT_CARD:
        present = 0  # bit ``slot`` set when the hand holds that slot's natural card
        for slot in range(1, HIGH_ACE + 1):
            if counts[suit_cards[slot]]:
                present |= 1 << slot
        if present & (present - 1) == 0:
            continue  # fewer than two natural cards of this suit
        for low in range(1, HIGH_ACE - 1):
            bits = present >> low & 7
            if _PAIRED[bits] < 2:
                continue
            window = (low, low + 1, low + 2)
            cards = tuple(suit_cards[slot] for slot in window)
            candidates = [cards] if bits == 7 else []
            for i in range(3):
                if bits == 7 or not bits >> i & 1:
                    for wild in wilds:
                        candidates.append((*cards[:i], wild, *cards[i + 1 :]))
            for candidate in candidates:
                key = tuple(sorted(candidate))
                if key in found or not _available(counts, candidate):
                    continue
                meld = arrange_sequence(candidate)
                if meld is not None:
                    found[key] = meld
    if sets:
        for rank in SET_RANKS:
            naturals_of_rank = [s * 13 + rank - 1 for s in range(4) if counts[s * 13 + rank - 1]]
            if sum(counts[card] for card in naturals_of_rank) < 2:
                continue  # a set needs two natural cards
            groups: list[tuple[int, ...]] = list(combinations_with_replacement(naturals_of_rank, 3))
            for pair in combinations_with_replacement(naturals_of_rank, 2):
                groups.extend((*pair, wild) for wild in wilds)
            for group in groups:
                if _available(counts, group):
                    meld = arrange_set(group)
                    if meld is not None:
                        found[tuple(sorted(group))] = meld
    return list(found.values())
