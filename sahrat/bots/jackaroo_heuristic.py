"""The heuristic Jackaroo bot: one move ahead, with card-aware danger and hand planning.

Each legal move is played on a copy of the board and scored as a club player
would weigh it (:mod:`sahrat.bots.jackaroo_eval`):

* the marble values of both sides (bringing out, progress, the home lane,
  captures — a partner's marble counts as one's own);
* the danger the move leaves behind: every marble of our side that an
  opponent may hit before our next turn, weighted by the chance the opponent
  holds a card that does it (cards we have not seen);
* what the cards left in the hand can still do on the new board (bring a
  marble out, enter the home lane exactly, the 4 from the start square), so
  that an A or a small card needed to finish is not wasted.

>>> import random
>>> from sahrat.games.jackaroo import from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t70", "b", "b", "b"], "1": ["t73", "b", "b", "b"],
...                 "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["3S", "9H"], "1": 4, "2": 4, "3": 4}})
>>> str(JackarooHeuristicBot(0).choose(state))   # the capture
'3S t70-t73'
"""

from __future__ import annotations

import random

from sahrat.bots.jackaroo_eval import (
    DEFAULT,
    CardOdds,
    Weights,
    board_score,
    evaluate,
    exposure,
    team_of,
)
from sahrat.bots.jackaroo_plan import card_keep_value, hand_potential
from sahrat.cards import RANK
from sahrat.games.jackaroo.actions import BURN, DISCARD, DISCARD_ALL, MOVE, SPLIT, SWAP, Move
from sahrat.games.jackaroo.board import BASE0, HOME0, TRACK
from sahrat.games.jackaroo.state import JackarooState

WIN = 1e9
#: Cards a seat is dealt in a new round (near enough for both deals).
NEXT_DEAL = 4


class JackarooHeuristicBot:
    """A fast rule-of-thumb player; ``seed`` only breaks ties between equal moves."""

    name = "heuristic"

    def __init__(
        self, seed: int | random.Random | None = None, *, weights: Weights = DEFAULT
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.weights = weights

    def choose(self, state: JackarooState) -> Move:
        legal: tuple[Move, ...] = state.legal_moves()
        if not legal:
            raise ValueError("no seat is to move")
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind in (DISCARD, DISCARD_ALL):
            return burn_choice(state)
        scores = score_moves(state, legal, self.weights)
        best = max(scores)
        ties = [m for m, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)


def score_moves(
    state: JackarooState, legal: tuple[Move, ...], weights: Weights = DEFAULT
) -> list[float]:
    """A score per move, in marble-steps, for the seat to move."""
    rules = state.rules
    values, rate = weights.values, weights.hit_rate
    seat = state.turn
    mine = team_of(rules, seat)
    theirs = tuple(s for s in rules.order if s not in mine)
    partner = rules.partner[seat]
    odds = CardOdds.for_seat(state, seat)
    hand = state.hands[seat]
    loc, occ = state.loc, state.occ
    # The hands the opponents hold before our next turn: one less for the next seat
    # after a burn; a fresh deal on top when this is our last card.
    last = len(hand) == 1
    variants: dict[bool, CardOdds] = {}
    scores: list[float] = []
    for move in legal:
        card, kind, a, b, c, d = move
        loc2 = loc[:]
        occ2 = occ[:]
        bonus = 0.0
        if kind == MOVE:
            rules.move_marble(loc2, occ2, a, b, RANK[card])
        elif kind == SPLIT:
            rules.move_marble(loc2, occ2, a, b, 7)
            rules.move_marble(loc2, occ2, c, d, 7)
        elif kind == SWAP:
            rules.swap(loc2, occ2, a, b)
        elif kind == BURN:
            bonus = weights.burn_worth
        burn = kind == BURN
        move_odds = variants.get(burn)
        if move_odds is None:
            sizes = odds.sizes[:]
            if burn:
                sizes[rules.next_seat[seat]] -= 1
            if last:
                sizes = [n + NEXT_DEAL for n in sizes]
            move_odds = variants[burn] = CardOdds(odds.unseen, sizes)
        if (b >= HOME0 or d >= HOME0) and rules.winner(loc2) >= 0:
            scores.append(WIN if rules.winner(loc2) in mine else -WIN)
            continue
        mask2 = 0
        for q in loc2:
            if q < BASE0:
                mask2 |= 1 << q
        score = board_score(values, loc2, mine, theirs) + bonus
        score -= weights.danger * exposure(
            values, rate, rules, loc2, occ2, mask2, mine, theirs, move_odds
        )
        if partner >= 0:
            score += weights.chance_to_hit * exposure(
                values, rate, rules, loc2, occ2, mask2, theirs, (partner,), odds
            )
        rest = list(hand)
        if kind == DISCARD_ALL:
            rest.clear()
        else:
            rest.remove(card)
        colour = rules.controlled(loc2, seat)
        score += hand_potential(weights, loc2, occ2, colour, rest)
        scores.append(score)
    return scores


def burn_choice(state: JackarooState) -> Move:
    """The card to burn when nothing moves: the one the hand will miss least."""
    legal: tuple[Move, ...] = state.legal_moves()
    if not legal:
        raise ValueError("no seat is to move")
    if legal[0].kind == DISCARD_ALL:
        return legal[0]
    seat = state.turn
    colour = state.rules.controlled(state.loc, seat)
    return min(
        legal,
        key=lambda m: (card_keep_value(DEFAULT, state.loc, state.occ, colour, m.card), m.card),
    )


def rollout_choice(state: JackarooState, rng: random.Random) -> Move:
    """A cheap, noisy policy for search rollouts: a capture of an opponent, entering the
    home lane or bringing a marble out when there is one, else any move."""
    legal: tuple[Move, ...] = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.turn
    partner = state.rules.partner[seat]
    occ = state.occ
    good: list[Move] = []
    for move in legal:
        kind = move[1]
        if kind != MOVE:
            continue
        a, b = move[2], move[3]
        if b >= TRACK:
            if a < HOME0:
                good.append(move)  # enters the home lane
        elif a >= BASE0:
            good.append(move)  # brings a marble out
        else:
            victim = occ[b]
            if victim >= 0 and victim >> 2 != seat and victim >> 2 != partner:
                good.append(move)
    return rng.choice(good) if good else rng.choice(legal)


__all__ = [
    "JackarooHeuristicBot",
    "Weights",
    "burn_choice",
    "evaluate",
    "rollout_choice",
    "score_moves",
]
