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
  constant-time splice of the generations' lists), so an automatic full
  collection walks only what survived since the last freeze, not every
  table's state; and every ``full_every`` seconds it unfreezes, collects
  everything once (the one long pause, scheduled) and freezes again, which
  frees the cycles that died while frozen: memory they hold waits at most
  that long.
- :func:`tune` sets the thresholds: a young generation of
  :data:`YOUNG` allocations instead of 700, so the young collections that
  promote short-lived objects (a move's messages, a view's dictionaries) to the
  older generations come less often and find fewer survivors, and so the full
  collections they lead to come less often too.

>>> monitor = PauseMonitor()
>>> monitor("start", {"generation": 0})
>>> monitor("stop", {"generation": 0})
>>> monitor.collections
[1, 0, 0]
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: A pause this long or longer is counted apart.
SLOW_MS = 50.0
#: Allocations (less deallocations) between young collections; CPython's default is 700.
YOUNG = 20_000
#: Seconds between freezes of what survived, and between scheduled full collections.
FREEZE_EVERY = 30.0
FULL_EVERY = 600.0

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

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started, self._cpu = time.perf_counter(), time.thread_time()
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._cpu
        self.total_cpu += cpu
        self.longest_cpu = max(self.longest_cpu, cpu)
        self.collections[info["generation"]] += 1
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
            f"total {self.total_cpu * 1000:.0f} ms)"
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


def full_collection() -> None:
    """Everything collected once (what was frozen too), and what is left frozen."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


async def _freeze_periodically(freeze_every: float, full_every: float) -> None:
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            full_collection()
            last_full = time.monotonic()
        else:
            gc.freeze()


def freeze_after_startup(
    app: ASGIApp, freeze_every: float = 0.0, full_every: float = FULL_EVERY
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
                    task = asyncio.create_task(_freeze_periodically(freeze_every, full_every))
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            if task is not None:
                task.cancel()

    return wrapped
