"""A fast :class:`~sahrat.fairness.RandomSource` for simulations.

Bots, benchmarks and tests play many games whose chance steps need no
proof; they draw them from Python's Mersenne Twister instead of HMAC
streams. Real games always use :class:`~sahrat.fairness.FairSource`.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence


class SimSource:
    """Chance outcomes from a seeded :class:`random.Random` (labels are ignored)."""

    __slots__ = ("rng",)

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def uniform(self, label: str, n: int) -> int:
        return self.rng.randrange(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        self.rng.shuffle(items)
