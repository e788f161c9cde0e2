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


class LabelledSource:
    """Chance outcomes that depend on their label and a seed only, not on their order.

    Two games with one seed are dealt the same cards, shuffle for shuffle, however
    differently they are played; the arena uses this to play every deal twice, with
    the teams' seats exchanged, so that the luck of the cards cancels out.
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _rng(self, label: str) -> random.Random:
        # String seeds are hashed with SHA-512: the same in every process.
        return random.Random(f"{self.seed}/{label}")

    def uniform(self, label: str, n: int) -> int:
        return self._rng(label).randrange(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        self._rng(label).shuffle(items)
