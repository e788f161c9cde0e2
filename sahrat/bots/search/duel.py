"""The root searched as a duel: the heuristic's choice against its next best moves.

Each rival is played in *the same* determinization with the same random
numbers every round, so that the difference between two moves is measured
without the luck of the deal (common random numbers: it takes several times
fewer rollouts to see the same difference). The heuristic's choice stands
unless a rival beats it by more than the noise of the measurement, and
rivals that fall clearly behind stop being played.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from sahrat.bots.search.tree import Node

#: A rival replaces the heuristic's choice when it is ahead by more than this many
#: standard errors of the paired difference, and stops being played once it is
#: behind the leader by more than :data:`DROP_Z` of them (after :data:`DROP_AFTER`
#: rounds, so that a few lucky rounds decide nothing). The best of three rivals is
#: the one tested, so even rivals pass a low bar often: at 1.0, one of three does up to
#: two times in five; at 1.5, up to one in five. With the compiled bots' two to three
#: times more rounds, 1.5 still lets through smaller real leads than 1.0 did with fewer.
OVERRIDE_Z = 1.5
DROP_Z = 2.5
DROP_AFTER = 12


class Duel:
    """The root's rivals and what the rounds have measured; the heuristic's choice first."""

    __slots__ = ("active", "diffs", "nodes", "rivals", "rounds")

    def __init__(self, rivals: list[Any]) -> None:
        self.rivals = rivals
        self.active = list(rivals)
        self.nodes: dict[Hashable, Node] = {action: Node() for action in rivals}
        #: Per rival: rounds played with the default, sum and sum of squares of the
        #: difference of their values (rival minus default).
        self.diffs: dict[Hashable, list[float]] = {action: [0, 0.0, 0.0] for action in rivals}
        self.rounds = 0

    def record(self, playing: list[Any], values: list[float]) -> None:
        self.rounds += 1
        if not playing or playing[0] != self.rivals[0]:
            return
        base = values[0]
        for action, value in zip(playing[1:], values[1:], strict=True):
            stats = self.diffs[action]
            d = value - base
            stats[0] += 1
            stats[1] += d
            stats[2] += d * d
        if self.rounds >= DROP_AFTER and len(self.active) > 2:
            leader = max(self.active, key=self.mean)
            self.active = [
                action
                for action in self.active
                if action == self.rivals[0]
                or self.mean(leader) - self.mean(action) <= DROP_Z * self.error(action, leader)
            ]

    def mean(self, action: Any) -> float:
        """Mean advantage of ``action`` over the default (0 for the default itself)."""
        n, total, _ = self.diffs[action]
        return total / n if n else 0.0

    def error(self, action: Any, other: Any = None) -> float:
        """Standard error of ``action``'s advantage (of the gap to ``other``, roughly)."""
        spread = self._variance(action) + (self._variance(other) if other is not None else 0.0)
        n = self.diffs[action][0]
        return math.sqrt(spread / n) if n else math.inf

    def _variance(self, action: Any) -> float:
        n, total, squares = self.diffs[action]
        if n < 2:
            return 1.0 if action != self.rivals[0] else 0.0
        return max(squares - total * total / n, 0.0) / (n - 1)

    @property
    def choice(self) -> Any:
        """The rival furthest ahead of the default if it is clearly ahead, else the default."""
        default = self.rivals[0]
        best = max(self.rivals[1:], key=self.mean, default=default)
        if best != default and self.mean(best) > OVERRIDE_Z * self.error(best):
            return best
        return default
