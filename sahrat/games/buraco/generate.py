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

from itertools import combinations_with_replacement
from typing import Final

from sahrat.cards import JOKER
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
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


def three_card_melds(counts: list[int], *, sets: bool) -> list[Meld]:
    """Every distinct valid meld of three cards from ``counts`` (sets only with ``sets``)."""
    return [MELDS[i] for i in three_card_meld_ids(counts, sets=sets)]


#: Every three-card meld met so far, once each: ``MELDS[i]`` and ``MELD_ACTIONS[i]`` (the
#: action that lays it down) share their index, so the generator hands out existing actions.
MELDS: Final[list[Meld]] = []
MELD_ACTIONS: Final[list[BuracoAction]] = []
_MELD_IDS: Final[dict[tuple[int, ...], int]] = {}

#: Memo of the melds of one suit's or one rank's pattern, as tuples of meld indexes: plain
#: tuples of ints, which the cycle collector stops walking (tuples of Melds cost every full
#: collection time, enough to overrun a 100 ms decision when there were 43,000 of them).
_FOUND: Final[dict[int, tuple[int, ...]]] = {}
#: The memo is emptied when it reaches this size: small enough to stay in the processor's
#: caches, and refilled cheaply from the table of windows.
FOUND_LIMIT: Final = 1 << 14


def three_card_meld_ids(counts: list[int], *, sets: bool) -> list[int]:
    """The indexes in :data:`MELDS` of every distinct valid three-card meld of ``counts``.

    The work is done per suit and per rank on what matters there (which
    natural cards are held, which wild cards, and whether the suit's 2 is
    held twice: it may then be natural and wild at once), and memoized,
    since the same patterns come back all the time. The patterns are ints
    rather than tuples so that the compiled build keeps them in machine words.
    """
    wilds = 0  # bit i set when the hand holds WILD_CARDS[i]
    if counts[1]:
        wilds = 1
    if counts[14]:
        wilds |= 2
    if counts[27]:
        wilds |= 4
    if counts[40]:
        wilds |= 8
    if counts[JOKER]:
        wilds |= 16
    found: list[int] = []
    for suit in range(4):
        base = suit * 13
        mask = 0  # bit ``rank - 1`` set when that natural card is held
        held = 0
        for rank in range(13):
            n = counts[base + rank]
            if n:
                mask |= 1 << rank
                held += n
        if held >= 2:
            two_twos = 1 if counts[base + 1] >= 2 else 0
            key = (((suit << 1 | two_twos) << 5 | wilds) << 13) | mask
            ids = _FOUND.get(key)
            if ids is None:
                ids = _remember(key, _suit_runs(suit, mask, two_twos, wilds))
            found.extend(ids)
    if sets:
        for rank in SET_RANKS:
            pattern = 0  # two bits per suit: how many (at most 2) are held
            held = 0
            for suit in range(4):
                n = counts[suit * 13 + rank - 1]
                if n:
                    n = min(n, 2)
                    pattern |= n << (2 * suit)
                    held += n
            if held >= 2:
                key = -(((rank << 5 | wilds) << 8) | pattern) - 1
                ids = _FOUND.get(key)
                if ids is None:
                    ids = _remember(key, [_intern(m) for m in _rank_sets(rank, pattern, wilds)])
                found.extend(ids)
    return found


def _remember(key: int, ids: list[int]) -> tuple[int, ...]:
    if len(_FOUND) >= FOUND_LIMIT:
        _FOUND.clear()
    found = _FOUND[key] = tuple(ids)
    return found


def _intern(meld: Meld) -> int:
    """The index of ``meld`` in :data:`MELDS`, added there when new."""
    i = _MELD_IDS.get(meld.cards)
    if i is None:
        i = _MELD_IDS[meld.cards] = len(MELDS)
        MELDS.append(meld)
        MELD_ACTIONS.append(act.meld(meld.cards))
    return i


def _wild_cards(wilds: int) -> list[int]:
    return [card for i, card in enumerate(WILD_CARDS) if wilds >> i & 1]


def _suit_runs(suit: int, mask: int, two_twos: int, wilds: int) -> list[int]:
    """The three-card sequences of one suit, as indexes in :data:`MELDS`: bit ``rank - 1``
    of ``mask`` for each natural card held. A wild card beside two naturals is found in
    two windows; it is listed once, where it is first found."""
    slot_card = SLOT_CARD[suit]
    present = 0  # bit ``slot`` set when the hand holds that slot's natural card
    for slot in range(1, HIGH_ACE + 1):
        if mask >> (slot_card[slot] - suit * 13) & 1:
            present |= 1 << slot
    found: list[int] = []
    for low in range(1, HIGH_ACE - 1):
        bits = present >> low & 7
        if _PAIRED[bits] < 2:
            continue
        key = (((suit << 4 | low) << 3 | bits) << 5 | wilds) << 1 | two_twos
        ids = _WINDOWS[key]
        if ids is None:
            ids = _WINDOWS[key] = _window(suit, low, bits, two_twos == 1, wilds)
        for i in ids:
            if i not in found:
                found.append(i)
    return found


#: The sequences of one window of three slots, by suit, slot, which of its slots are held,
#: the wild cards and the second 2 of the suit: a bounded table, filled as it is met.
_WINDOWS: Final[list[tuple[int, ...] | None]] = [None] * (1 << 15)


def _window(suit: int, low: int, bits: int, two_twos: bool, wilds: int) -> tuple[int, ...]:
    own_two = suit * 13 + 1
    slot_card = SLOT_CARD[suit]
    cards = (slot_card[low], slot_card[low + 1], slot_card[low + 2])
    candidates: list[tuple[int, ...]] = [cards] if bits == 7 else []
    for i in range(3):
        if bits == 7 or not bits >> i & 1:
            for wild in _wild_cards(wilds):
                if wild == own_two and own_two in cards and not two_twos:
                    continue  # the one 2 of the suit cannot be both natural and wild
                candidates.append((*cards[:i], wild, *cards[i + 1 :]))
    found: list[int] = []
    for candidate in candidates:
        meld = arrange_sequence(candidate)
        if meld is not None:
            i = _intern(meld)
            if i not in found:
                found.append(i)
    return tuple(found)


def _rank_sets(rank: int, pattern: int, wilds: int) -> list[Meld]:
    """The three-card sets of one rank: bits ``2 * suit`` of ``pattern`` say how many (at
    most 2) of that suit's card are held."""
    held = [pattern >> (2 * s) & 3 for s in range(4)]
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
    return found
