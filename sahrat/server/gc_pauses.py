"""The garbage collector in a long-running server: pauses timed, the start-up heap frozen.

CPython's cyclic collector stops the event loop while it runs, and a full
collection walks every tracked object of the process: imports, SQLAlchemy's
tables, the rules engines' tables, and every live table's state. With
hundreds of tables these pauses, not CPU, made the tail of a move's latency.

- :class:`PauseMonitor` times every collection (``gc.callbacks``) and, on
  ``SIGUSR1``, writes one line to stderr with the collections since the last
  such line: how many of each generation, how many took ``SLOW_MS`` or more,
  the longest and the total, and the CPU time they took (on a busy machine a
  pause is longer than its CPU time: the process waited for a core meanwhile).
  The load benchmark reads it around its window.
- :func:`freeze_after_startup` wraps the ASGI application so that once the
  server has started (imports done, live tables restored) it collects once and
  moves every object left to the permanent generation (``gc.freeze``), which
  later collections never walk again. Objects are still freed by reference
  counting; only cycles among the frozen ones would stay, and start-up makes
  few.
- With ``freeze_every`` it then freezes again every so many seconds (a
  constant-time splice of the generations' lists), so a young collection walks
  only what survived since the last freeze. CPython 3.11 counts a freed old
  object against the young generation's allocations, so with many tables
  replacing their state a young collection comes seldom but walks every state
  made since the last freeze: 30 s of them at 3,000 tables took 210 ms; 5 s
  of them, at most a sixth of that.
- What was frozen is collected only by a full collection: everything unfrozen,
  collected and frozen again, a pause that grows with the heap (0.9-1.3 s at
  2,000 tables, 1.2-1.6 s at 3,000, in the load benchmark). On a clock (every
  10 minutes, as it was) it freed nothing at all in those runs: the server
  makes little cyclic garbage, and most of it dies young. So it runs when the
  process's peak memory has grown by ``full_growth`` (a half) since the last
  one instead:
  garbage nobody collects can only cost memory, and this bounds what it can
  cost, as CPython's own rule for its oldest generation does. A server whose
  memory is flat never pauses for it; a growing one pauses a few times, at
  sizes that grow geometrically.
- :func:`tune` sets the thresholds: a young generation of
  :data:`YOUNG` allocations instead of 700, so the young collections that
  promote short-lived objects (a move's messages, a view's dictionaries) to the
  older generations come less often and find fewer survivors, and so the full
  collections they lead to come less often too.

>>> monitor = PauseMonitor()
>>> monitor("start", {"generation": 0})
>>> monitor("stop", {"generation": 0, "collected": 3})
>>> monitor.collections, monitor.freed
([1, 0, 0], 3)
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import signal
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: A pause this long or longer is counted apart.
SLOW_MS = 50.0
#: Allocations (less deallocations) between young collections; CPython's default is 700.
YOUNG = 20_000
#: Seconds between freezes of what survived.
FREEZE_EVERY = 5.0
#: A full collection when the peak memory has grown by this fraction since the last one.
FULL_GROWTH = 0.5

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class PauseMonitor:
    """Times every collection; :meth:`summary` since the last :meth:`reset`."""

    def __init__(self) -> None:
        self._started = self._cpu = 0.0
        self.reset()

    def reset(self) -> None:
        self.collections = [0, 0, 0]
        self.slow = 0
        self.longest = 0.0
        self.total = 0.0
        self.longest_cpu = 0.0
        self.total_cpu = 0.0
        self.freed = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started, self._cpu = time.perf_counter(), time.thread_time()
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._cpu
        self.total_cpu += cpu
        self.longest_cpu = max(self.longest_cpu, cpu)
        self.collections[info["generation"]] += 1
        self.freed += info["collected"]
        self.total += pause
        self.longest = max(self.longest, pause)
        if pause * 1000 >= SLOW_MS:
            self.slow += 1

    def summary(self) -> str:
        # Only what costs nothing to read: the load benchmark asks for this line inside its
        # window, and counting the tracked or frozen objects walks them (gc.get_objects,
        # gc.get_freeze_count), a stall of 150 ms and more at 2,000 tables.
        young, middle, full = self.collections
        return (
            f"{young + middle + full} collections (generations 0/1/2: {young}/{middle}/{full}), "
            f"{self.slow} of {SLOW_MS:g} ms or more, longest {self.longest * 1000:.1f} ms, "
            f"total {self.total * 1000:.0f} ms (CPU: longest {self.longest_cpu * 1000:.1f} ms, "
            f"total {self.total_cpu * 1000:.0f} ms), {self.freed} objects freed"
        )

    def report(self, *_: object) -> None:
        """One line to stderr, then count afresh (a signal handler: no locks taken)."""
        os.write(2, f"gc: {self.summary()}\n".encode())
        self.reset()


def install_monitor() -> PauseMonitor:
    """Time every collection from now on; ``SIGUSR1`` reports them."""
    monitor = PauseMonitor()
    gc.callbacks.append(monitor)
    signal.signal(signal.SIGUSR1, monitor.report)
    os.write(2, b"gc: collections are timed on SIGUSR1\n")
    return monitor


def tune(young: int = YOUNG) -> None:
    _, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, full)


def peak_memory() -> int:
    """The process's largest resident size so far (kB on Linux, bytes on macOS: only
    its growth is read)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def full_collection() -> int:
    """Everything collected once (what was frozen too), and what is left frozen; how
    many objects it freed."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed


async def freeze_periodically(
    freeze_every: float, full_growth: float, memory: Callable[[], int] = peak_memory
) -> None:
    """Every ``freeze_every`` seconds, freeze what survived; instead, a full collection
    when ``memory()`` has grown by ``full_growth`` since the last one (see the module)."""
    baseline = memory()
    while True:
        await asyncio.sleep(freeze_every)
        if memory() < baseline * (1 + full_growth):
            gc.freeze()
            continue
        started = time.perf_counter()
        freed = full_collection()
        pause = (time.perf_counter() - started) * 1000
        os.write(2, f"gc: full collection, {freed} objects freed in {pause:.0f} ms\n".encode())
        baseline = memory()


def freeze_after_startup(
    app: ASGIApp, freeze_every: float = 0.0, full_growth: float = FULL_GROWTH
) -> ASGIApp:
    """``app``, which freezes the heap when its lifespan start-up has completed and,
    with ``freeze_every``, again every ``freeze_every`` seconds (see the module)."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        task: asyncio.Task[None] | None = None

        async def sending(message: MutableMapping[str, Any]) -> None:
            nonlocal task
            if message["type"] == "lifespan.startup.complete":
                full_collection()
                os.write(2, f"gc: {gc.get_freeze_count()} objects frozen at start-up\n".encode())
                if freeze_every > 0:
                    task = asyncio.create_task(freeze_periodically(freeze_every, full_growth))
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            if task is not None:
                task.cancel()

    return wrapped
