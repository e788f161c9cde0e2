"""A cheap Buraco policy for search rollouts: tens of microseconds a move.

It takes a pile of two or more cards when the pile is big, its top card is
wild or goes on one of the side's melds (with a closed pile: the first take
that costs no wild card); it lays down natural cards (additions first), and
discards the card with the fewest neighbours that feeds no opposing meld.
It never takes a pile of one card: after a take the pile holds one, so
every take follows a draw and a rollout always ends.

>>> import random
>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C KD", "AS 3H"],
...                    phase="play")
>>> str(rollout_choice(state, random.Random(0)))
'meld 5C 6C 7C'
"""

from __future__ import annotations

import random

from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import addable_cards
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import DRAW

#: An open pile this big is always taken.
BIG_PILE = 3


def rollout_choice(state: BuracoState, rng: random.Random) -> BuracoAction:
    """A fast, sensible move for the seat to move."""
    legal = state.legal_actions()
    if state.current_player() < 0:
        raise ValueError("no decision here: a chance step or the end of the match")
    seat = state.to_move
    side = seat & 1
    if state.phase == DRAW:
        pile = state.pile
        if len(legal) == 1 or len(pile) < 2:
            return act.draw()
        if state.options.closed:
            takes = [
                a for a in legal if a.kind != act.DRAW and not any(IS_WILD[c] for c in a.cards)
            ]
            return rng.choice(takes) if takes else act.draw()
        top = pile[-1]
        if (
            len(pile) >= BIG_PILE
            or IS_WILD[top]
            or any(top in addable_cards(meld) for meld in state.melds[side])
        ):
            return act.take()
        return act.draw()
    discards: list[BuracoAction] = []
    melds: list[BuracoAction] = []
    for action in legal:
        kind = action.kind
        if kind == act.DISCARD:
            discards.append(action)
        elif not any(IS_WILD[card] for card in action.cards):
            if kind == act.ADD:
                return action
            melds.append(action)
    if melds:
        return rng.choice(melds)
    if not discards:
        return rng.choice(legal)  # the last card may not be discarded: meld what is left
    hand = state.hands[seat]
    theirs = state.melds[1 - side]
    best = discards[0]
    best_cost = float("inf")
    for action in discards:
        card = action.cards[0]
        if IS_WILD[card]:
            cost = 100.0 + CARD_POINTS[card]
        else:
            cost = rng.random() - CARD_POINTS[card] / 10
            rank = card % 13  # the card before and after in the suit, kings and aces apart
            if (rank > 0 and hand[card - 1]) or (rank < 12 and hand[card + 1]):
                cost += 10.0
            if any(card in addable_cards(meld) for meld in theirs):
                cost += 50.0
        if cost < best_cost:
            best, best_cost = action, cost
    return best
