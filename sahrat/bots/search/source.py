"""Chance outcomes for the worlds a search imagines: determinizations and the deals
its rollouts run into.

As :class:`~sahrat.simulation.SimSource` (a seeded Mersenne Twister, labels ignored),
but drawing every number with :meth:`random.Random.random`: a search shuffles the
hidden cards once per iteration, and ``random.shuffle``'s exact integer draws cost
several times more than this module's loop once it is compiled. A float's 53 bits
make the bias of ``int(random() * n)`` negligible for the few dozen cards shuffled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence


class SearchSource:
    """A :class:`~sahrat.fairness.RandomSource` for a search, drawing from ``rng``."""

    __slots__ = ("_random",)

    def __init__(self, rng: random.Random) -> None:
        self._random: Callable[[], float] = rng.random

    def uniform(self, label: str, n: int) -> int:
        return int(self._random() * n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        """Fisher-Yates, from the last item down."""
        draw = self._random
        i = len(items) - 1
        while i > 0:
            j = int(draw() * (i + 1))
            items[i], items[j] = items[j], items[i]
            i -= 1
