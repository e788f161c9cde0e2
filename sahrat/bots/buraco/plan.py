"""Emptying the hand in one turn: finding the moves, and judging whether to go out.

Emptying the hand picks up the side's morto when it is still to be taken,
and goes out when it is not. :func:`emptying_plan` looks for a way to do it
this turn with a greedy walk on a copy of the table (natural cards before
wild cards, additions before new melds), ending with the last card melded or
discarded; :func:`wants_to_go_out` says whether the side should.

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C 9D", "KS"],
...                    melds=[["3H 4H 5H"], []], phase="play")
>>> steps, end = emptying_plan(state, 0)
>>> [str(step) for step in steps], end.morto_status[0] != state.morto_status[0]
(['meld 5C 6C 7C', 'discard 9D'], True)
"""

from __future__ import annotations

from sahrat.bots.buraco.table import Outlook
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import CANASTA
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.scoring import (
    CLEAN_CANASTA,
    DIRTY_CANASTA,
    GOING_OUT,
    MORTO_NOT_TAKEN,
)
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import PENDING, TAKEN

#: From this end threat on, go out even when behind in the hand.
GO_OUT_AT = 0.5
#: The points a card in a hand the seat cannot see is assumed to be worth.
UNSEEN_CARD_POINTS = 8.0
#: A turn melds at most a hand's worth of cards; the walk never goes longer.
PLAN_STEPS = 40
#: On a hand this small a failed walk is tried again after each other first move
#: (at most this many of them).
BRANCH_HAND = 8
BRANCHES = 16


def _priority(action: BuracoAction, state: BuracoState) -> float:
    """Which move the walk makes first: natural before wild, additions before melds."""
    cards = action.cards
    points = sum(CARD_POINTS[card] for card in cards) / 100
    wild = any(IS_WILD[card] for card in cards)
    if action.kind == act.ADD:
        meld = state.melds[state.to_move & 1][action.number]
        if not wild:
            return 5 + points
        if meld.clean and len(meld.cards) >= CANASTA:
            return 1 + points  # dirties a clean canasta: the last resort
        return 3 + points
    return (2 if wild else 4) + points


def emptying_plan(state: BuracoState, seat: int) -> tuple[list[BuracoAction], BuracoState] | None:
    """Moves that empty ``seat``'s hand this turn and the table after them, or ``None``.

    The copy of the table holds cards the seat cannot see, but the walk only
    plays the seat's own cards and stops as soon as the morto is picked up or
    the hand ends, so nothing hidden decides a move. When the greedy walk
    fails on a small hand, each other first move is tried before it.
    """
    plan = _greedy_walk(state, seat)
    if plan is not None or state.sizes[seat] > BRANCH_HAND:
        return plan
    firsts = [a for a in state.legal_actions() if a.kind == act.MELD or a.kind == act.ADD]
    for first in sorted(firsts, key=lambda a: -_priority(a, state))[1:BRANCHES]:
        sim = state.clone()
        sim.apply_action(first)
        if _emptied(state, sim, seat):
            return [first], sim
        plan = _greedy_walk(sim, seat)
        if plan is not None:
            return [first, *plan[0]], plan[1]
    return None


def _emptied(before: BuracoState, after: BuracoState, seat: int) -> bool:
    """Did the hand empty between the two tables (the morto picked up, or the hand over)?"""
    side = seat & 1
    if after.morto_status[side] != before.morto_status[side]:
        return True
    return len(after.results) != len(before.results)


def _greedy_walk(state: BuracoState, seat: int) -> tuple[list[BuracoAction], BuracoState] | None:
    sim = state.clone()
    steps: list[BuracoAction] = []
    for _ in range(PLAN_STEPS):
        legal = sim.legal_actions()
        best: tuple[float, BuracoAction] | None = None
        for action in legal:
            if action.kind == act.MELD or action.kind == act.ADD:
                priority = _priority(action, sim)
                if best is None or priority > best[0]:
                    best = (priority, action)
        if best is None:
            if sim.sizes[seat] == 1:
                for action in legal:
                    if action.kind == act.DISCARD:
                        steps.append(action)
                        sim.apply_action(action)
                        return steps, sim
            return None
        steps.append(best[1])
        sim.apply_action(best[1])
        if _emptied(state, sim, seat):
            return steps, sim
    return None


def visible_hand_score(state: BuracoState, side: int) -> float:
    """A side's score for the hand if it ended now, hidden hands at a flat rate per card."""
    score = 0.0
    for meld in state.melds[side]:
        score += meld.points
        if len(meld.cards) >= CANASTA:
            score += CLEAN_CANASTA if meld.clean else DIRTY_CANASTA
    for seat in range(side, state.players, 2):
        score -= UNSEEN_CARD_POINTS * state.sizes[seat]
    status = state.morto_status[side]
    if status == PENDING:
        score -= UNSEEN_CARD_POINTS * len(state.mortos[side])
    elif status != TAKEN:
        score += MORTO_NOT_TAKEN
    return score


def wants_to_go_out(state: BuracoState, end: BuracoState, outlook: Outlook) -> bool:
    """Go out (the table ending as ``end``) when that wins the hand or the match, or when
    the other side is about to go out anyway."""
    if outlook.threat >= GO_OUT_AT:
        return True
    side = outlook.side
    ours = visible_hand_score(end, side) + GOING_OUT
    theirs = visible_hand_score(end, 1 - side)
    mine = state.totals[side] + ours
    if mine >= state.options.target and mine > state.totals[1 - side] + theirs:
        return True
    return ours > theirs
