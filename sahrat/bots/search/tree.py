"""The search tree's nodes and the UCB1 rule that walks it."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable

#: UCB1's exploration constant, for rewards in [-1, 1].
EXPLORATION = 0.7
#: Weight of the heuristic's opinion at the root, fading as ``1 / (visits + 1)``
#: (progressive bias: it orders the first visits, then the statistics take over).
PRIOR_WEIGHT = 1.0


class Node:
    """Statistics of one action sequence, from the view of the seat that chose its last action."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.reward = 0.0
        #: How many times this node's action was legal when its parent was visited.
        self.available = 0


def ucb_pick(
    children: dict[Hashable, Node], legal: Iterable[Hashable], priors: dict[Hashable, float] | None
) -> Hashable:
    """The action of ``legal`` with the best UCB1 score (``priors`` add a fading bias)."""
    best_action: Hashable = None
    best = -math.inf
    for action in legal:
        child = children[action]
        score = child.reward / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if priors:
            score += PRIOR_WEIGHT * priors.get(action, 0.0) / (child.visits + 1)
        if score > best:
            best, best_action = score, action
    return best_action
