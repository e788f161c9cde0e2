"""What a card is worth to the seat to move: reading the table, keeping, discarding, taking.

Everything here reads only what that seat may see (its own hand, the melds,
the discard pile, the sizes of the other hands and the stock), so the
heuristic bot never peeks at hidden cards.

A card's *keep value* says how much the hand would lose without it: its
neighbours in a suit (a run in the making), its rank mates when sets are
allowed, a place on one of the side's own melds; a wild card is worth far
more than any natural card. Its *feeding risk* says what discarding it would
give the next opponent: a card that extends one of their melds invites them
to take the pile. The lowest keep value plus risk is the card to discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sahrat.cards import JOKER, RANK, SUIT
from sahrat.games.buraco.generate import SLOT_CARD
from sahrat.games.buraco.melds import CANASTA, HIGH_ACE, SEQUENCE, Meld, addable_cards
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.state import TAKEN, UNTAKEN, BuracoState

#: Keep value of a wild card on top of its points: never worth discarding while
#: a natural card is left, and a joker (50 points) is kept before a 2 (10).
WILD_KEEP = 500.0
#: A natural card that can go on one of the side's melds right away.
ADDABLE_KEEP = 60.0
#: A card one slot away in the same suit, and one two slots away (a gap).
NEXT_KEEP = 12.0
GAP_KEEP = 6.0
#: A natural card one card away from going on one of the side's sequences.
NEAR_MELD_KEEP = 10.0
#: With sets allowed, each other card of the same rank held.
RANK_MATE_KEEP = 9.0
#: A second copy of a card shares its neighbours with the first.
DUPLICATE_SHARE = 0.25
#: Discarding a card that extends an opponent's meld; per pile card under it
#: when the pile is closed (that card is their ticket to the whole pile).
FEED_RISK = 120.0
FEED_RISK_PER_PILE_CARD = 8.0
#: Discarding a card one card away from an opponent's sequence (a wild card bridges it).
NEAR_FEED_RISK = 20.0
NEAR_FEED_RISK_PER_PILE_CARD = 4.0
#: Per way a discard could still make a meld with cards the seat cannot see.
LIVE_RISK = 5.0
LIVE_RISK_PER_PILE_CARD = 0.0
#: A card an opponent discarded lately is a safe discard.
THEIR_DISCARD_SAFE = 15.0
#: Each copy of the same card already in the pile: they passed on it before.
SEEN_IN_PILE = 3.0

#: What a pile card is worth taken: a wild card, one that goes on a meld, one that
#: makes a new meld, one next to a card held; a card that does none costs room.
WILD_GAIN = 35.0
ADD_GAIN = 25.0
MELD_GAIN = 18.0
NEAR_GAIN = 5.0
NEAR_MELD_GAIN = 8.0
DEAD_COST = 3.0
DEAD_COST_PER_HELD = 0.0

#: How close the other side is to going out, by the size of its smallest hand.
_THREAT_BY_SIZE = {1: 1.0, 2: 0.9, 3: 0.7, 4: 0.5, 5: 0.3}
#: Threat from a side that may go out but holds a bigger hand.
_THREAT_FAR = 0.15


def _neighbours(card: int) -> tuple[tuple[int, float], ...]:
    """The natural cards of the same suit one or two slots away, with their weights."""
    if card == JOKER or RANK[card] == 2:
        return ()
    suit = SUIT[card]
    slots = (1, HIGH_ACE) if RANK[card] == 1 else (RANK[card],)
    found: dict[int, float] = {}
    for slot in slots:
        for step, weight in ((1, NEXT_KEEP), (2, GAP_KEEP)):
            for other_slot in (slot - step, slot + step):
                if 1 <= other_slot <= HIGH_ACE:
                    other = SLOT_CARD[suit][other_slot]
                    if other != card:
                        found[other] = max(found.get(other, 0.0), weight)
    return tuple(found.items())


#: ``NEIGHBOURS[card]``: ``(other card, weight)`` pairs, built once.
NEIGHBOURS: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    _neighbours(card) for card in range(JOKER + 1)
)
#: ``RANK_MATES[card]``: the four cards of its rank (empty for wild cards).
RANK_MATES: tuple[tuple[int, ...], ...] = tuple(
    () if IS_WILD[card] else tuple(suit * 13 + RANK[card] - 1 for suit in range(4))
    for card in range(JOKER + 1)
)


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the seat to move knows and needs for one decision, read once."""

    seat: int
    side: int
    sets: bool
    closed: bool
    counts: Sequence[int]
    size: int
    own: Sequence[Meld]
    theirs: Sequence[Meld]
    #: Natural cards that go on one of the side's melds.
    own_adds: frozenset[int]
    #: Natural cards one card away from going on one of the side's sequences.
    own_near: frozenset[int]
    #: Natural cards that go on one of the other side's melds, and those one card
    #: further out (a wild card in between puts them on at once).
    their_adds: frozenset[int]
    their_near: frozenset[int]
    #: Cards an opponent discarded onto the pile lying now: they had no use for them.
    their_discards: frozenset[int]
    #: ``unseen[card]``: copies of a natural card this seat cannot see (in other
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
    """The outlook of ``seat`` on ``state``, from what that seat may see."""
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
    # The pile lies in the order it was discarded: the card k from the top came
    # from the seat k places before this one (since the last take).
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
        pile=state.pile,
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
                        for other, weight in NEIGHBOURS[card]
                        if weight == NEXT_KEEP and other not in on_meld
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


def keep_value(card: int, counts: Sequence[int], outlook: Outlook) -> float:
    """How much the hand ``counts`` (holding ``card``) would lose without one ``card``."""
    points = CARD_POINTS[card]
    if IS_WILD[card]:
        return WILD_KEEP + points
    value = 0.0
    for other, weight in NEIGHBOURS[card]:
        if counts[other]:
            value += weight
    if counts[card] >= 2:
        value *= DUPLICATE_SHARE
    if outlook.sets:
        mates = sum(counts[mate] for mate in RANK_MATES[card]) - 1
        value += RANK_MATE_KEEP * mates
    if card in outlook.own_adds:
        value += ADDABLE_KEEP
    elif card in outlook.own_near:
        value += NEAR_MELD_KEEP
    return value - points * outlook.point_weight


def feeding_risk(card: int, outlook: Outlook) -> float:
    """What discarding ``card`` would hand the next opponent."""
    risk = 0.0
    if card in outlook.their_adds:
        risk += FEED_RISK
        if outlook.closed:
            risk += FEED_RISK_PER_PILE_CARD * len(outlook.pile)
    elif not IS_WILD[card]:
        if card in outlook.their_near:
            risk += NEAR_FEED_RISK
            if outlook.closed:
                risk += NEAR_FEED_RISK_PER_PILE_CARD * len(outlook.pile)
        live = LIVE_RISK
        if outlook.closed:
            # A closed pile goes only to whoever can meld its top card: the bigger
            # it is, the more a card they might meld gives away.
            live += LIVE_RISK_PER_PILE_CARD * len(outlook.pile)
        risk += live * live_windows(card, outlook)
    if card in outlook.their_discards:
        risk -= THEIR_DISCARD_SAFE
    return risk - SEEN_IN_PILE * outlook.pile.count(card)


def live_windows(card: int, outlook: Outlook) -> float:
    """How many ways a natural ``card`` could still make a meld with unseen cards.

    Each run of three slots through the card counts the unseen copies of its
    two other cards (a run whose cards are all in sight is dead); with sets,
    so do pairs of its unseen rank mates.
    """
    unseen = outlook.unseen
    suit_slots = SLOT_CARD[SUIT[card]]
    slots = (1, HIGH_ACE) if RANK[card] == 1 else (RANK[card],)
    live = 0.0
    for slot in slots:
        for low in (slot - 2, slot - 1, slot):
            if low >= 1 and low + 2 <= HIGH_ACE:
                others = [suit_slots[s] for s in (low, low + 1, low + 2) if s != slot]
                live += max(unseen[others[0]], 0) * max(unseen[others[1]], 0) / 4
    if outlook.sets:
        mates = sum(max(unseen[mate], 0) for mate in RANK_MATES[card]) - max(unseen[card], 0)
        live += mates * (mates - 1) / 16
    return live


def discard_cost(card: int, outlook: Outlook) -> float:
    """Lower is a better discard."""
    return keep_value(card, outlook.counts, outlook) + feeding_risk(card, outlook)


def pile_gain(pile: Sequence[int], outlook: Outlook) -> float:
    """What taking ``pile`` into the hand is worth, card by card, against drawing one."""
    counts = list(outlook.counts)
    for card in pile:
        counts[card] += 1
    gain = 0.0
    # A card that fits nowhere costs more in a hand that is big already.
    dead_cost = DEAD_COST + DEAD_COST_PER_HELD * outlook.size
    for card in pile:
        if IS_WILD[card]:
            gain += WILD_GAIN
        elif card in outlook.own_adds:
            gain += ADD_GAIN
        elif makes_natural_meld(card, counts, outlook.sets):
            gain += MELD_GAIN
        elif card in outlook.own_near:
            gain += NEAR_MELD_GAIN
        else:
            near = sum(
                1 for other, weight in NEIGHBOURS[card] if weight == NEXT_KEEP and counts[other]
            )
            gain += NEAR_GAIN * near - dead_cost - CARD_POINTS[card] * outlook.point_weight
    return gain


def makes_natural_meld(card: int, counts: Sequence[int], sets: bool) -> bool:
    """Is ``card`` part of three natural cards in ``counts`` that form a meld?"""
    if IS_WILD[card]:
        return False
    suit = SUIT[card]
    slot_card = SLOT_CARD[suit]
    slots = (1, HIGH_ACE) if RANK[card] == 1 else (RANK[card],)
    for slot in slots:
        for low in (slot - 2, slot - 1, slot):
            if (
                low >= 1
                and low + 2 <= HIGH_ACE
                and all(
                    counts[slot_card[s]] and (s == slot or slot_card[s] != card)
                    for s in (low, low + 1, low + 2)
                )
            ):
                return True
    if sets:
        return sum(counts[mate] for mate in RANK_MATES[card]) >= 3
    return False
