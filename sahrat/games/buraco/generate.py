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


#: The windows of three sequence slots, by their lowest slot: 1..12.
_LOWS: Final = ((1 << (HIGH_ACE - 1)) - 1) & ~1


def three_card_melds(counts: list[int], *, sets: bool) -> list[Meld]:
    """Every distinct valid meld of three cards from ``counts`` (sets only with ``sets``)."""
    return [MELDS[i] for i in three_card_meld_ids(counts, sets=sets)]


#: Every three-card meld met so far, once each: ``MELDS[i]`` and ``MELD_ACTIONS[i]`` (the
#: action that lays it down) share their index, so the generator hands out existing actions.
MELDS: Final[list[Meld]] = []
MELD_ACTIONS: Final[list[BuracoAction]] = []
_MELD_IDS: Final[dict[tuple[int, ...], int]] = {}

#: The sets of one rank, by rank, the wild cards and how many of each suit's card are held
#: (at most 2): a bounded table, filled as it is met.
_SETS: Final[list[tuple[int, ...] | None]] = [None] * (14 << 13)


def three_card_meld_ids(counts: list[int], *, sets: bool) -> list[int]:
    """The indexes in :data:`MELDS` of every distinct valid three-card meld of ``counts``.

    The work is done per window of three sequence slots and per rank on what
    matters there (which natural cards are held, which wild cards, and whether
    the suit's 2 is held twice: it may then be natural and wild at once), and
    looked up in bounded tables indexed by those patterns packed into an int, so
    that the compiled build keeps them in machine words and no memo grows.
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
        for rank in range(13):
            if counts[base + rank]:
                mask |= 1 << rank
        # Slot ``rank`` for each natural card, and slot 14 for the ace again.
        present = mask << 1 | (mask & 1) << HIGH_ACE
        # Bit ``low`` set when the window of slots low..low+2 holds two naturals or more.
        shifted, twice = present >> 1, present >> 2
        windows = (present & shifted | present & twice | shifted & twice) & _LOWS
        if windows:
            found.extend(_suit_runs(suit, present, windows, counts[base + 1] >= 2, wilds))
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
                key = (rank << 5 | wilds) << 8 | pattern
                ids = _SETS[key]
                if ids is None:
                    melds = _rank_sets(rank, pattern, wilds)
                    ids = _SETS[key] = tuple([_intern(meld) for meld in melds])
                found.extend(ids)
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


def _suit_runs(suit: int, present: int, windows: int, two_twos: bool, wilds: int) -> list[int]:
    """The three-card sequences of one suit, as indexes in :data:`MELDS`: bit ``slot`` of
    ``present`` for each natural card held, bit ``low`` of ``windows`` for each window of
    three slots that holds two of them. A wild card beside two naturals is found in two
    windows; it is listed once, where it is first found."""
    head = ((suit << 5 | wilds) << 1 | two_twos) << 7
    found: list[int] = []
    while windows:
        bit = windows & -windows
        windows ^= bit
        low = bit.bit_length() - 1
        key = head | low << 3 | present >> low & 7
        ids = _WINDOWS[key]
        if ids is None:
            ids = _WINDOWS[key] = _window(suit, low, present >> low & 7, two_twos, wilds)
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
