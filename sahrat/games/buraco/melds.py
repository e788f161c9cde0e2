"""Buraco melds (``buraco.md`` §2): which cards form a sequence or a set, and how they lie.

A meld is valid when **some** arrangement of its cards is valid, so a meld on
the table is really a multiset; :class:`Meld` keeps the one arrangement we
show (low to high for a sequence, wild card in the slot it stands for) and
whether it is clean. Adding cards re-arranges the whole multiset, which is
how a joker moves to an end when the natural card it stood for arrives:

>>> from sahrat.cards import format_cards, parse_cards
>>> def cards(text: str) -> list[int]:
...     return parse_cards(text.split(), joker=True)
>>> meld = arrange_sequence(cards("5C 6C JK 8C"))
>>> format_cards(meld.cards)
'5C 6C JK 8C'
>>> format_cards(extend(meld, cards("7C")).cards)
'5C 6C 7C 8C JK'

A 2 of the sequence's suit in its own place is natural, anywhere else it is
wild; ``KC AC 2C`` is valid with the 2 standing for the queen:

>>> arrange_sequence(cards("AC 2C 3C")).clean
True
>>> format_cards(arrange_sequence(cards("KC AC 2C")).cards)
'2C KC AC'

Slots: a sequence lies on slots 1..14, slot 1 being a low ace, 2..13 the
ranks 2..K and 14 a high ace; that is why ``A..A`` (14 cards) is possible
and ``K A 2`` (a wrap-around) is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from sahrat.cards import JOKER, RANK, SUIT, format_cards
from sahrat.games.buraco.points import CARD_POINTS

SEQUENCE: Final = "sequence"
SET: Final = "set"

#: A meld of this many cards or more is a canasta.
CANASTA: Final = 7
#: The slot of a high ace; slot 1 is a low ace.
HIGH_ACE: Final = 14
#: A sequence can hold at most one card per slot.
MAX_SEQUENCE: Final = 14


class Meld:
    """A valid meld as it lies on the table (a value: never changed once made).

    ``cards`` is the arrangement shown; ``clean`` says whether some valid
    arrangement of the same cards uses no wild card; ``base`` is the suit of
    a sequence or the rank of a set, which decides what may be added.

    A plain class rather than a dataclass: compiled, a dataclass's ``__init__``,
    ``__eq__`` and ``__hash__`` are generated as Python at import, and melds are made
    in the move generator's loops.
    """

    __slots__ = ("base", "cards", "clean", "kind")

    kind: str
    cards: tuple[int, ...]
    clean: bool
    base: int

    def __init__(self, kind: str, cards: tuple[int, ...], clean: bool, base: int) -> None:
        self.kind = kind
        self.cards = cards
        self.clean = clean
        self.base = base

    @property
    def canasta(self) -> str | None:
        """``"clean"``, ``"dirty"`` or ``None`` when the meld is shorter than a canasta."""
        if len(self.cards) < CANASTA:
            return None
        return "clean" if self.clean else "dirty"

    @property
    def points(self) -> int:
        return sum(CARD_POINTS[card] for card in self.cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return (
            self.cards == other.cards
            and self.kind == other.kind
            and self.clean == other.clean
            and self.base == other.base
        )

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        fields = f"kind={self.kind!r}, cards={self.cards!r}, clean={self.clean!r}"
        return f"Meld({fields}, base={self.base!r})"

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __reduce__(self) -> tuple[type[Meld], tuple[str, tuple[int, ...], bool, int]]:
        # Pickled within a state; compiled, the class has no __dict__ for pickle to read.
        return (Meld, (self.kind, self.cards, self.clean, self.base))


def _natural_card(suit: int, slot: int) -> int:
    """The card that stands naturally on ``slot`` of a sequence of ``suit``."""
    return suit * 13 + (0 if slot == HIGH_ACE else slot - 1)


def arrange_sequence(cards: Iterable[int]) -> Meld | None:
    """The sequence these cards form, or ``None`` when no arrangement is a valid sequence."""
    suit = -1
    mask = 0  # one bit per occupied natural slot, aces and the natural 2 apart
    aces = 0
    jokers = 0
    twos: list[int] = []
    count = 0
    for card in cards:
        count += 1
        rank = RANK[card]
        if rank == 2:
            twos.append(card)
            continue
        if rank == 0:
            jokers += 1
            continue
        card_suit = SUIT[card]
        if card_suit != suit:
            if suit >= 0:
                return None
            suit = card_suit
        if rank == 1:
            aces += 1
        else:
            bit = 1 << rank
            if mask & bit:
                return None
            mask |= bit
    if count < 3 or count > MAX_SEQUENCE or suit < 0 or aces > 2:
        return None
    own_two = suit * 13 + 1
    own = twos.count(own_two)
    stray = jokers + len(twos) - own  # wild wherever they lie
    if stray + max(own - 1, 0) > 1:
        return None
    if aces == 2:
        ace_masks: tuple[int, ...] = ((1 << 1) | (1 << HIGH_ACE),)
    elif aces == 1:
        ace_masks = (1 << 1, 1 << HIGH_ACE)
    else:
        ace_masks = (0,)
    # Try the suit's 2 in its natural place first: only that can make the meld clean.
    two_options = (True, False) if own == 1 and stray == 0 else ((own > 0),)
    for natural_two in two_options:
        wilds = stray + own - natural_two
        base = mask | (4 if natural_two else 0)
        for ace_mask in ace_masks:
            slots = base | ace_mask
            low = (slots & -slots).bit_length() - 1
            high = slots.bit_length() - 1
            gaps = high - low + 1 - (count - wilds)
            if gaps > wilds:
                continue
            wild_slot = 0
            if wilds:
                if gaps:
                    # The one gap is where the wild card stands.
                    wild_slot = low + 1
                    while slots >> wild_slot & 1:
                        wild_slot += 1
                elif high < HIGH_ACE:
                    wild_slot = high = high + 1
                elif low > 1:
                    wild_slot = low = low - 1
                else:
                    continue  # A..A with a fifteenth card
                if jokers:
                    wild = JOKER
                elif stray:
                    wild = next(two for two in twos if two != own_two)
                else:
                    wild = own_two
            arranged = tuple(
                wild if slot == wild_slot else _natural_card(suit, slot)
                for slot in range(low, high + 1)
            )
            return Meld(SEQUENCE, arranged, wilds == 0, suit)
    return None


def arrange_set(cards: Iterable[int]) -> Meld | None:
    """The set these cards form (option ``sets``), or ``None``."""
    rank = 0
    wild = -1
    naturals: list[int] = []
    for card in cards:
        card_rank = RANK[card]
        if card_rank == 2 or card_rank == 0:
            if wild >= 0:
                return None
            wild = card
            continue
        if card_rank != rank:
            if rank:
                return None
            rank = card_rank
        naturals.append(card)
    # 2s and jokers are always wild here, so there are no sets of them.
    if len(naturals) < 2 or len(naturals) + (wild >= 0) < 3:
        return None
    naturals.sort()
    if wild >= 0:
        naturals.append(wild)
    return Meld(SET, tuple(naturals), wild < 0, rank)


def arrange(cards: Sequence[int], *, sets: bool = False) -> Meld | None:
    """The meld ``cards`` form: a sequence, else (with ``sets``) a set, else ``None``.

    No multiset of three or more cards is both a sequence and a set, so the order
    of the tries never changes the answer.
    """
    meld = arrange_sequence(cards)
    if meld is None and sets:
        meld = arrange_set(cards)
    return meld


def extend(meld: Meld, cards: Sequence[int]) -> Meld | None:
    """``meld`` with ``cards`` added and re-arranged, or ``None`` if that is not valid.

    A meld keeps its kind: a set never turns into a sequence.
    """
    if meld.kind == SEQUENCE:
        return arrange_sequence((*meld.cards, *cards))
    return arrange_set((*meld.cards, *cards))


def _candidates(meld: Meld) -> tuple[int, ...]:
    """Every card that could possibly join ``meld``: its suit or rank, and the wild cards."""
    wilds = (1, 14, 27, 40, JOKER)
    if meld.kind == SEQUENCE:
        return tuple(meld.base * 13 + r for r in range(13) if r != 1) + wilds
    return tuple(s * 13 + meld.base - 1 for s in range(4)) + wilds


#: ``addable_cards`` by the meld's cards (a meld's cards say its kind: no three or more cards
#: are both a sequence and a set). Keyed by the plain tuple rather than the Meld, whose
#: dataclass hash and equality run as Python even in the compiled build.
_ADDABLE: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}
ADDABLE_LIMIT: Final = 1 << 15


def addable_cards(meld: Meld) -> tuple[int, ...]:
    """The single cards that may be added to ``meld``, in card order (memoized: melds are
    values)."""
    cards = meld.cards
    found = _ADDABLE.get(cards)
    if found is None:
        if len(_ADDABLE) >= ADDABLE_LIMIT:
            _ADDABLE.clear()
        addable = [card for card in _candidates(meld) if extend(meld, (card,)) is not None]
        addable.sort()
        found = _ADDABLE[cards] = tuple(addable)
    return found


#: Why cards make no meld, each a refusal's code with words in the client
#: (``refusal.<code>`` in web/i18n.js): what a player is told instead of "not a meld".
MELD_FAULTS = (
    "meld_too_short",
    "meld_too_many_wilds",
    "meld_no_sets",
    "meld_mixed_suits",
    "meld_mixed_ranks",
    "meld_repeated",
    "meld_gap",
)


def meld_fault(cards: Sequence[int], sets: bool, kind: str | None = None) -> str:
    """Why ``cards`` (which :func:`arrange` refused) are no meld,
    as one of :data:`MELD_FAULTS`; ``kind`` is the kind of the meld they would make by
    being added to one, None for a new meld (a set only where the table plays ``sets``).

    >>> from sahrat.cards import parse_cards
    >>> def fault(text: str, sets: bool = False) -> str:
    ...     return meld_fault(parse_cards(text.split(), joker=True), sets)
    >>> fault("5H 6H"), fault("5H 6H 7C"), fault("5H 5C 5D"), fault("5H 5C 5D", True)
    ('meld_too_short', 'meld_mixed_suits', 'meld_no_sets', 'meld_mixed_suits')
    >>> fault("5H JK 2C"), fault("5H 5H 6H"), fault("5H 6H 9H"), fault("5H 5C 6D", True)
    ('meld_too_many_wilds', 'meld_repeated', 'meld_gap', 'meld_mixed_suits')
    """
    naturals = [card for card in cards if RANK[card] not in (0, 2)]
    ranks = {RANK[card] for card in naturals}
    suits = {SUIT[card] for card in naturals}
    if len(cards) < 3:
        return "meld_too_short"
    if kind == SET:
        if len(cards) - len(naturals) > 1:
            return "meld_too_many_wilds"
        return "meld_mixed_ranks" if len(ranks) > 1 else "meld_too_short"
    # A 2 of the sequence's own suit may stand in its own place as a natural card.
    own_twos = [c for c in cards if RANK[c] == 2 and len(suits) == 1 and SUIT[c] in suits]
    wilds = len(cards) - len(naturals) - min(len(own_twos), 1)
    if kind is None and len(ranks) == 1 and len(naturals) >= 2 and len(suits) > 1:
        if not sets:
            return "meld_no_sets"
        return "meld_too_many_wilds" if len(cards) - len(naturals) > 1 else "meld_mixed_suits"
    if len(suits) > 1:
        return "meld_mixed_suits"
    if wilds > 1:
        return "meld_too_many_wilds"
    counts = [sum(1 for c in naturals if RANK[c] == rank) for rank in ranks]
    # An ace may be there twice, low and high (A..A); any other rank only once.
    if any(n > (2 if rank == 1 else 1) for rank, n in zip(ranks, counts, strict=True)):
        return "meld_repeated"
    return "meld_gap"
