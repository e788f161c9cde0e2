"""What the seat to move may know of a Buraco table, read once per decision.

Everything here comes from what that seat may see — its own hand, the
melds, the discard pile, the sizes of the other hands and of the stock — so
the heuristic bot never peeks at hidden cards. One fact is read from the
pile's order: it lies as it was discarded since the last take, so the card
``k`` places from the top came from the seat ``k`` places before the one to
move, and a card an opponent let go is one they had no use for.

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> from sahrat.cards import format_cards
>>> state = from_table(BuracoOptions(seats=2), hands=["5C 9D", "KS"],
...                    melds=[["6C 7C 8C"], []], discard_pile="4H QD", phase="play")
>>> outlook = read_table(state, 0)
>>> format_cards(sorted(outlook.own_adds)), format_cards(sorted(outlook.own_near))
('5C 9C', '4C TC')
>>> format_cards(outlook.their_discards)
'QD'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sahrat.cards import JOKER, RANK, SUIT
from sahrat.games.buraco.generate import SLOT_CARD
from sahrat.games.buraco.melds import CANASTA, HIGH_ACE, SEQUENCE, Meld, addable_cards
from sahrat.games.buraco.points import IS_WILD
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import TAKEN, UNTAKEN

#: How close the other side is to going out, by the size of its smallest hand.
_THREAT_BY_SIZE = {1: 1.0, 2: 0.9, 3: 0.7, 4: 0.5, 5: 0.3}
#: Threat from a side that may go out but holds a bigger hand.
_THREAT_FAR = 0.15


def _neighbours(card: int) -> tuple[tuple[int, int], ...]:
    """The natural cards of the same suit one or two slots away, with that distance."""
    if card == JOKER or RANK[card] == 2:
        return ()
    suit = SUIT[card]
    slots = (1, HIGH_ACE) if RANK[card] == 1 else (RANK[card],)
    found: dict[int, int] = {}
    for slot in slots:
        for step in (2, 1):
            for other_slot in (slot - step, slot + step):
                if 1 <= other_slot <= HIGH_ACE:
                    other = SLOT_CARD[suit][other_slot]
                    if other != card:
                        found[other] = step
    return tuple(found.items())


#: ``NEIGHBOURS[card]``: ``(other card, distance)`` pairs in the card's suit.
NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    _neighbours(card) for card in range(JOKER + 1)
)
#: ``RANK_MATES[card]``: the four cards of its rank (empty for wild cards).
RANK_MATES: tuple[tuple[int, ...], ...] = tuple(
    () if IS_WILD[card] else tuple(suit * 13 + RANK[card] - 1 for suit in range(4))
    for card in range(JOKER + 1)
)


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the seat to move knows and needs for one decision."""

    seat: int
    side: int
    sets: bool
    closed: bool
    #: ``counts[card]``: how many of ``card`` the seat holds.
    counts: Sequence[int]
    size: int
    own: Sequence[Meld]
    theirs: Sequence[Meld]
    #: Natural cards that go on one of the side's melds, and those one card
    #: further out from a sequence (they go on once the card between arrives).
    own_adds: frozenset[int]
    own_near: frozenset[int]
    #: The same for the other side's melds (a wild card bridges the gap at once).
    their_adds: frozenset[int]
    their_near: frozenset[int]
    #: Cards an opponent discarded onto the pile lying now.
    their_discards: frozenset[int]
    #: ``unseen[card]``: copies of a natural card the seat cannot see (in other
    #: hands, the stock or a morto).
    unseen: Sequence[int]
    has_canasta: bool
    morto: int
    pile: Sequence[int]
    #: 0..1: how soon the hand may end (the other side going out, the stock running out).
    threat: float

    @property
    def point_weight(self) -> float:
        """How much a card's points weigh against keeping it: more as the end nears."""
        return 0.1 + 0.9 * self.threat

    @property
    def wilds_held(self) -> int:
        counts = self.counts
        return counts[1] + counts[14] + counts[27] + counts[40] + counts[JOKER]


def read_table(state: BuracoState, seat: int) -> Outlook:
    """The outlook of ``seat`` on ``state``."""
    side = seat & 1
    own = state.melds[side]
    theirs = state.melds[1 - side]
    own_adds, own_near = _reach(own)
    their_adds, their_near = _reach(theirs)
    unseen = [2 - held for held in state.hands[seat]]
    for side_melds in state.melds:
        for meld in side_melds:
            for card in meld.cards:
                unseen[card] -= 1
    pile = state.pile
    for card in pile:
        unseen[card] -= 1
    players = state.players
    their_discards = frozenset(
        pile[-k] for k in range(1, len(pile) + 1) if (seat - k) % players & 1 != side
    )
    return Outlook(
        seat=seat,
        side=side,
        sets=state.options.sets,
        closed=state.options.closed,
        counts=state.hands[seat],
        size=state.sizes[seat],
        own=own,
        theirs=theirs,
        own_adds=own_adds,
        own_near=own_near,
        their_adds=their_adds,
        their_near=their_near,
        their_discards=their_discards,
        unseen=unseen,
        has_canasta=any(len(meld.cards) >= CANASTA for meld in own),
        morto=state.morto_status[side],
        pile=pile,
        threat=end_threat(state, 1 - side),
    )


def _reach(melds: Sequence[Meld]) -> tuple[frozenset[int], frozenset[int]]:
    """The natural cards that go on ``melds``, and those one card further out."""
    adds: set[int] = set()
    near: set[int] = set()
    for meld in melds:
        on_meld = set(meld.cards)
        for card in addable_cards(meld):
            if not IS_WILD[card]:
                adds.add(card)
                if meld.kind == SEQUENCE:
                    near.update(
                        other
                        for other, distance in NEIGHBOURS[card]
                        if distance == 1 and other not in on_meld
                    )
    return frozenset(adds), frozenset(near - adds)


def end_threat(state: BuracoState, side: int) -> float:
    """0..1: how soon ``side`` may go out, or the stock run dry, ending the hand."""
    threat = 0.0
    if state.morto_status[side] == TAKEN and any(
        len(meld.cards) >= CANASTA for meld in state.melds[side]
    ):
        smallest = min(state.sizes[seat] for seat in state.seats_of(side))
        threat = _THREAT_BY_SIZE.get(smallest, _THREAT_FAR)
    if UNTAKEN not in state.morto_status:
        # No morto left to become the stock: the hand ends when the stock does.
        turns_left = len(state.stock) / state.players
        threat = max(threat, min(1.0, max(0.0, 1.5 - turns_left / 2)))
    return threat
