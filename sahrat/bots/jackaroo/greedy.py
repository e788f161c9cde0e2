"""A greedy Jackaroo bot: one move ahead, scored by how far each side has come.

It is the opponent of ``sahrat play`` and a baseline for stronger bots: it
tries every legal move on a clone, scores the board for its own side against
the other, and keeps the best (ties broken by its own random generator). Like
every bot it chooses only among the engine's legal moves.

>>> import random
>>> from sahrat.games.jackaroo import Options, from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t70", "b", "b", "b"], "1": ["t73", "b", "b", "b"],
...                 "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["3S", "9H"], "1": 4, "2": 4, "3": 4}})
>>> str(GreedyJackarooBot(random.Random(0)).choose(state))   # the capture
'3S t70-t73'
"""

from __future__ import annotations

import random

from sahrat.cards import RANK
from sahrat.games.jackaroo.actions import BURN, DISCARD, Move
from sahrat.games.jackaroo.board import BASE0, HOME0, PROGRESS
from sahrat.games.jackaroo.state import JackarooState

#: A marble's worth by progress: leaving the base matters most, then every step,
#: and a marble in its home lane is worth a lot more than one about to enter it.
OUT = 20.0
HOME = 110.0
#: Cards worth keeping when one must be burnt: bring-out cards and the flexible ones.
KEEP = {1: 9, 13: 8, 7: 7, 11: 6, 4: 5, 5: 4}


def marble_value(colour: int, square: int) -> float:
    if square >= BASE0:
        return 0.0
    if square >= HOME0:
        return HOME + 2.0 * (square - HOME0 - colour * 4)
    return OUT + PROGRESS[colour][square]


def evaluate(state: JackarooState, seat: int) -> float:
    """How good the board is for ``seat``'s side, in marble-steps."""
    rules = state.rules
    if state.winner >= 0:
        mine = state.winner == seat or rules.partner[state.winner] == seat
        return 1e6 if mine else -1e6
    partner = rules.partner[seat]
    total = 0.0
    for colour in rules.order:
        sign = 1.0 if colour in (seat, partner) else -1.0
        for m in range(colour * 4, colour * 4 + 4):
            total += sign * marble_value(colour, state.loc[m])
    return total


class GreedyJackarooBot:
    """Chooses a move for the seat to move; ``rng`` only breaks ties."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, state: JackarooState) -> Move:
        legal: tuple[Move, ...] = state.legal_moves()
        if not legal:
            raise ValueError("no seat is to move")
        seat = state.turn
        if legal[0].kind == DISCARD:
            # Stuck: burn the card we would miss least.
            return min(legal, key=lambda m: (KEEP.get(RANK[m.card], 0), self.rng.random()))
        best: list[Move] = []
        best_score = float("-inf")
        for move in legal:
            if move.kind == BURN:
                score = evaluate(state, seat) + 3.0  # a card out of the next hand
            else:
                after = state.clone()
                after.apply_action(move)
                score = evaluate(after, seat)
            # Spend the valuable cards only when they earn more than a plain one.
            score -= 0.5 * KEEP.get(RANK[move.card], 0) if move.card >= 0 else 0.0
            if score > best_score + 1e-9:
                best, best_score = [move], score
            elif abs(score - best_score) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)
