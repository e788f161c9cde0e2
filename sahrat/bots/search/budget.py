"""How long a search may think, and the clock that keeps a decision within it."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may think: milliseconds, iterations, or both (whichever ends first)."""

    ms: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.ms is None and self.iterations is None:
            raise ValueError("a budget needs milliseconds or iterations")
        if (self.ms is not None and self.ms <= 0) or (
            self.iterations is not None and self.iterations <= 0
        ):
            raise ValueError("a budget must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``100ms``, ``0.5s`` or ``2000it``."""
        try:
            if text.endswith("ms"):
                return cls(ms=float(text[:-2]))
            if text.endswith("it"):
                return cls(iterations=int(text[:-2]))
            if text.endswith("s"):
                return cls(ms=1000 * float(text[:-1]))
        except ValueError:
            pass
        raise ValueError(f"not a budget: {text!r} (use 100ms, 0.5s or 2000it)")

    def __str__(self) -> str:
        if self.iterations is not None and self.ms is None:
            return f"{self.iterations}it"
        return f"{self.ms:g}ms"


#: Seconds kept free before the deadline whatever the steps: what is left to do after
#: the search (and a process's wait for a busy core) fits in them.
MARGIN_S = 0.002


class OutOfTime(Exception):
    """An iteration reached the deadline before its end: its result is dropped."""


class Clock:
    """A decision's time budget, kept rather than overrun, and used to its end.

    A step (one iteration) starts only when twice the average step, and at least
    :data:`MARGIN_S`, still fit before the deadline: stopping at the deadline would
    overrun it by a step every time, and a decision's time is what the player
    waits. Steps vary (a rollout may run into a new deal), so a step still running
    at the deadline is stopped there (:meth:`check`) and its result dropped: that
    costs less than leaving the time of the longest step unused, which ruling by
    it would.
    """

    __slots__ = ("_deadline", "_first", "_last", "_start", "_ticks")

    def __init__(self, ms: float | None) -> None:
        self._start = time.perf_counter()
        self._deadline = None if ms is None else self._start + ms / 1000
        self._first = self._last = self._start
        self._ticks = 0

    def tick(self) -> None:
        """One step has ended."""
        now = time.perf_counter()
        if self._ticks == 0:
            self._first = now
        self._last = now
        self._ticks += 1

    def has_room(self) -> bool:
        if self._deadline is None:
            return True
        if self._ticks > 1:
            step = (self._last - self._first) / (self._ticks - 1)
        else:
            step = self._last - self._start
        return time.perf_counter() + max(2 * step, MARGIN_S) <= self._deadline

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise OutOfTime
