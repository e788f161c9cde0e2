"""What a card is worth to the seat to move: to keep, to discard, to take from the pile.

A card's *keep value* says how much the hand would lose without it: its
neighbours in a suit (a run in the making), its rank mates when sets are
allowed, a place on or next to one of the side's melds; a wild card is worth
far more than any natural card. Its *feeding risk* says what discarding it
would give the next opponent: a card that extends one of their melds invites
them to take the pile; a card whose runs are all in sight is dead and safe,
and so is one an opponent let go. The lowest keep value plus risk is the
card to discard.

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> from sahrat.bots.buraco.table import read_table
>>> from sahrat.cards import parse_card
>>> state = from_table(BuracoOptions(seats=2), hands=["5C 6C KD 4S", "9H"],
...                    melds=[[], ["5S 6S 7S"]], phase="play")
>>> outlook = read_table(state, 0)
>>> min(("5C", "6C", "KD", "4S"), key=lambda code: discard_cost(parse_card(code), outlook))
'KD'
"""

from __future__ import annotations

from collections.abc import Sequence

from sahrat.bots.buraco.table import NEIGHBOURS, RANK_MATES, Outlook
from sahrat.cards import RANK, SUIT
from sahrat.games.buraco.generate import SLOT_CARD
from sahrat.games.buraco.melds import HIGH_ACE
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD

#: Keep value of a wild card on top of its points: never worth discarding while
#: a natural card is left, and a joker (50 points) is kept before a 2 (10).
WILD_KEEP = 500.0
#: A natural card that goes on one of the side's melds right away, and one that
#: will once the card between arrives.
ADDABLE_KEEP = 60.0
NEAR_MELD_KEEP = 10.0
#: A card held one slot away in the same suit, and one two slots away (a gap).
NEXT_KEEP = 12.0
GAP_KEEP = 6.0
#: With sets allowed, each other card of the same rank held.
RANK_MATE_KEEP = 9.0
#: A second copy of a card shares its neighbours with the first.
DUPLICATE_SHARE = 0.25

#: Discarding a card that extends an opponent's meld; per pile card under it
#: when the pile is closed (that card is their ticket to the whole pile).
FEED_RISK = 120.0
FEED_RISK_PER_PILE_CARD = 8.0
#: Discarding a card one card away from an opponent's sequence.
NEAR_FEED_RISK = 20.0
NEAR_FEED_RISK_PER_PILE_CARD = 4.0
#: Per way a discard could still make a meld with cards the seat cannot see; more
#: with a closed pile, which goes to whoever can meld its top card.
LIVE_RISK = 5.0
LIVE_RISK_CLOSED = 15.0
#: A card an opponent discarded lately is a safe discard.
THEIR_DISCARD_SAFE = 15.0
#: Each copy of the same card already in the pile.
SEEN_IN_PILE = 3.0

#: What a pile card is worth taken: a wild card, one that goes on a meld, one that
#: makes a new meld, one next to a meld or to a card held; one that does none of
#: these costs room.
WILD_GAIN = 35.0
ADD_GAIN = 25.0
MELD_GAIN = 18.0
NEAR_MELD_GAIN = 8.0
NEXT_GAIN = 5.0
DEAD_COST = 3.0

_KEEP_BY_DISTANCE = (0.0, NEXT_KEEP, GAP_KEEP)


def keep_value(card: int, counts: Sequence[int], outlook: Outlook) -> float:
    """How much the hand ``counts`` (holding ``card``) would lose without one ``card``."""
    points = CARD_POINTS[card]
    if IS_WILD[card]:
        return WILD_KEEP + points
    value = 0.0
    for other, distance in NEIGHBOURS[card]:
        if counts[other]:
            value += _KEEP_BY_DISTANCE[distance]
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
    closed_pile = len(outlook.pile) if outlook.closed else 0
    if card in outlook.their_adds:
        risk += FEED_RISK + FEED_RISK_PER_PILE_CARD * closed_pile
    elif not IS_WILD[card]:
        if card in outlook.their_near:
            risk += NEAR_FEED_RISK + NEAR_FEED_RISK_PER_PILE_CARD * closed_pile
        risk += (LIVE_RISK_CLOSED if outlook.closed else LIVE_RISK) * live_windows(card, outlook)
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
                first, second = (suit_slots[s] for s in (low, low + 1, low + 2) if s != slot)
                live += max(unseen[first], 0) * max(unseen[second], 0) / 4
    if outlook.sets:
        mates = sum(max(unseen[mate], 0) for mate in RANK_MATES[card]) - max(unseen[card], 0)
        live += mates * (mates - 1) / 16
    return live


def discard_cost(card: int, outlook: Outlook) -> float:
    """Lower is a better discard."""
    return keep_value(card, outlook.counts, outlook) + feeding_risk(card, outlook)


def pile_gain(pile: Sequence[int], outlook: Outlook) -> float:
    """What taking ``pile`` into the hand is worth, card by card."""
    counts = list(outlook.counts)
    for card in pile:
        counts[card] += 1
    gain = 0.0
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
            next_to = sum(
                1 for other, distance in NEIGHBOURS[card] if distance == 1 and counts[other]
            )
            gain += NEXT_GAIN * next_to - DEAD_COST - CARD_POINTS[card] * outlook.point_weight
    return gain


def makes_natural_meld(card: int, counts: Sequence[int], sets: bool) -> bool:
    """Is ``card`` one of three natural cards in ``counts`` that form a meld?"""
    if IS_WILD[card]:
        return False
    slot_card = SLOT_CARD[SUIT[card]]
    slots = (1, HIGH_ACE) if RANK[card] == 1 else (RANK[card],)
    for slot in slots:
        for low in (slot - 2, slot - 1, slot):
            if (
                low >= 1
                and low + 2 <= HIGH_ACE
                and all(counts[slot_card[s]] for s in (low, low + 1, low + 2))
            ):
                return True
    if sets:
        return sum(counts[mate] for mate in RANK_MATES[card]) >= 3
    return False
