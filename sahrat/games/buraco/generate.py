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
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final

from sahrat.cards import JOKER
from sahrat.games.buraco.melds import HIGH_ACE, Meld, arrange_sequence, arrange_set

#: The wild cards: 2S, 2H, 2D, 2C and the joker.
WILD_CARDS: Final = (1, 14, 27, 40, JOKER)

#: ``SLOT_CARD[suit][slot]``: the natural card of each sequence slot 1..14 (index 0 unused).
SLOT_CARD: Final[tuple[tuple[int, ...], ...]] = tuple(
    (-1, *(suit * 13 + (0 if slot == HIGH_ACE else slot - 1) for slot in range(1, 15)))
    for suit in range(4)
)

#: The ranks a set may have: aces and 3..K.
SET_RANKS: Final = (1, *range(3, 14))


#: How many of three window slots a 3-bit pattern fills.
_PAIRED: Final = (0, 1, 1, 2, 1, 2, 2, 3)


def three_card_melds(counts: Sequence[int], *, sets: bool) -> list[Meld]:
    """Every distinct valid meld of three cards from ``counts`` (sets only with ``sets``).

    The work is done per suit and per rank on what matters there (which
    natural cards are held, which wild cards, and whether the suit's 2 is
    held twice: it may then be natural and wild at once), and memoized,
    since the same patterns come back all the time.
    """
    wilds = 0  # bit i set when the hand holds WILD_CARDS[i]
    for i, card in enumerate(WILD_CARDS):
        if counts[card]:
            wilds |= 1 << i
    found: list[Meld] = []
    for suit in range(4):
        held = counts[suit * 13 : suit * 13 + 13]
        if sum(held) >= 2:
            found.extend(_suit_runs(suit, tuple(map(bool, held)), held[1] >= 2, wilds))
    if sets:
        for rank in SET_RANKS:
            held = counts[rank - 1 : JOKER : 13]
            if sum(held) >= 2:
                found.extend(_rank_sets(rank, tuple(min(n, 2) for n in held), wilds))
    return found


def _wild_cards(wilds: int) -> list[int]:
    return [card for i, card in enumerate(WILD_CARDS) if wilds >> i & 1]


# Small on purpose: every entry keeps a few Melds alive for the cycle collector to walk, and
# with 16,384 entries a search process held 43,000 of them: each full collection took
# 60 ms more, long enough to overrun a 100 ms decision. 2,048 still catch the common hands.
@lru_cache(maxsize=1 << 11)
def _suit_runs(suit: int, held: tuple[bool, ...], two_twos: bool, wilds: int) -> tuple[Meld, ...]:
    """The three-card sequences of one suit: ``held[rank - 1]`` says which naturals are held."""
    wild_cards = _wild_cards(wilds)
    own_two = suit * 13 + 1
    slot_card = SLOT_CARD[suit]
    present = 0  # bit ``slot`` set when the hand holds that slot's natural card
    for slot in range(1, HIGH_ACE + 1):
        if held[slot_card[slot] - suit * 13]:
            present |= 1 << slot
    found: dict[tuple[int, ...], Meld] = {}
    for low in range(1, HIGH_ACE - 1):
        bits = present >> low & 7
        if _PAIRED[bits] < 2:
            continue
        cards = (slot_card[low], slot_card[low + 1], slot_card[low + 2])
        candidates: list[tuple[int, ...]] = [cards] if bits == 7 else []
        for i in range(3):
            if bits == 7 or not bits >> i & 1:
                for wild in wild_cards:
                    if wild == own_two and own_two in cards and not two_twos:
                        continue  # the one 2 of the suit cannot be both natural and wild
                    candidates.append((*cards[:i], wild, *cards[i + 1 :]))
        for candidate in candidates:
            key = tuple(sorted(candidate))
            if key not in found:
                meld = arrange_sequence(candidate)
                if meld is not None:
                    found[key] = meld
    return tuple(found.values())


@lru_cache(maxsize=1 << 12)
def _rank_sets(rank: int, held: tuple[int, ...], wilds: int) -> tuple[Meld, ...]:
    """The three-card sets of one rank: ``held[suit]`` is how many (at most 2) are held."""
    naturals = [s * 13 + rank - 1 for s in range(4) if held[s]]
    groups: list[tuple[int, ...]] = [
        group
        for group in combinations_with_replacement(naturals, 3)
        if all(group.count(card) <= held[card // 13] for card in group)
    ]
    for pair in combinations_with_replacement(naturals, 2):
        if pair[0] != pair[1] or held[pair[0] // 13] >= 2:
            groups.extend((*pair, wild) for wild in _wild_cards(wilds))
    found = []
    for group in groups:
        meld = arrange_set(group)
        if meld is not None:
            found.append(meld)
    return tuple(found)
