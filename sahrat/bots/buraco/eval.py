"""A static evaluation of a Buraco match for one seat's side, in [-1, 1].

A search's leaves need a number that is cheap (a few tens of microseconds)
and ordered like the chance of winning the match. We estimate each side's
total at the end of the hand in progress — the totals so far plus what its
melds are worth, with part of a canasta's bonus for a meld on its way, less
part of the points held in its hands and of the morto penalty — and squash
the lead: the same lead counts for more when the target is close. It reads
every hand, as a search's determinized states allow; the bot's own choices
never call it.

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> state = from_table(BuracoOptions(seats=2), hands=["5C", "KS KH QD"],
...                    melds=[["8H 9H TH JH QH KH AH"], []], morto_status=("taken", "untaken"))
>>> evaluate(state, 0) > 0 > evaluate(state, 1)
True
"""

from __future__ import annotations

import math
from operator import mul

from sahrat.games.buraco.melds import CANASTA, Meld
from sahrat.games.buraco.points import CARD_POINTS
from sahrat.games.buraco.scoring import CLEAN_CANASTA, DIRTY_CANASTA, MORTO_NOT_TAKEN
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import DRAW, PLAY, STOCK, UNTAKEN

#: The share of a canasta's bonus a meld of this many cards is already worth:
#: the longer it is, the likelier the side completes it before the hand ends.
CANASTA_PROGRESS = (0.0, 0.0, 0.0, 0.06, 0.1, 0.16, 0.25)
#: Cards in hand are often melded before the end: count part of their points.
HAND_POINTS_SHARE = 0.5
#: A lead of this many points, plus a share of what is left to the target, evaluates
#: to tanh(1) ≈ 0.76. These constants were fitted to the winners of self-play matches.
LEAD_SCALE = 400.0
REMAINING_SHARE = 0.3
#: Only a finished match is a certain win or loss.
CERTAIN = 0.98


def meld_worth(meld: Meld) -> float:
    """A meld's points with its canasta bonus, or the expected share of it."""
    cards = meld.cards
    worth = float(sum(CARD_POINTS[card] for card in cards))
    bonus = CLEAN_CANASTA if meld.clean else DIRTY_CANASTA
    if len(cards) >= CANASTA:
        return worth + bonus
    return worth + CANASTA_PROGRESS[len(cards)] * bonus


def hand_estimate(state: BuracoState, side: int) -> float:
    """What ``side`` may expect to score in the hand being played."""
    estimate = sum(meld_worth(meld) for meld in state.melds[side])
    smallest = 11
    for seat in range(side, state.players, 2):
        estimate -= HAND_POINTS_SHARE * sum(map(mul, state.hands[seat], CARD_POINTS))
        smallest = min(smallest, state.sizes[seat])
    status = state.morto_status[side]
    if status == STOCK:
        estimate += MORTO_NOT_TAKEN
    elif status == UNTAKEN:
        # A side with a small hand is about to pick its morto up.
        estimate += MORTO_NOT_TAKEN * smallest / (smallest + 6)
    return estimate


def evaluate(state: BuracoState, seat: int) -> float:
    """How good ``state`` is for ``seat``'s side: +1 won, -1 lost, else a squashed lead."""
    side = seat & 1
    if state.is_terminal():
        return 1.0 if state.winner == side else -1.0
    mine = float(state.totals[side])
    theirs = float(state.totals[1 - side])
    if state.phase == DRAW or state.phase == PLAY:
        mine += hand_estimate(state, side)
        theirs += hand_estimate(state, 1 - side)
    remaining = max(state.options.target - max(mine, theirs), 0.0)
    return CERTAIN * math.tanh((mine - theirs) / (LEAD_SCALE + REMAINING_SHARE * remaining))
