"""Search in worker processes, so that a server's event loop never waits on a bot.

Search is CPU-bound pure Python: in a thread it would hold the GIL and stall
every table, so it runs in a process pool and the caller awaits the result.
States are pickled to the worker with the game's name; nothing but the chosen
action comes back.

The budget counts from the request, not from when a process takes it up: a
request that waited in the queue (more timed-out seats than processes) searches
for what is left of its budget, or plays the heuristic's move when little is, so
that every decision ends within its budget however busy the pool is. The pool has
one process per core by default: more would only share the cores.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sahrat.bots.autopilot import DEFAULT_BUDGET_MS, autopilot_action
from sahrat.games import GAMES

#: Milliseconds kept for the answer's way back to the caller (pickling, the pipe, the
#: event loop's turn): measured at 2 to 4 ms on a busy machine.
RETURN_MS = 5.0


def _autopilot(game: str, state: Any, budget_ms: float, seed: int | None, asked: float) -> Any:
    # time.time(), unlike perf_counter(), is one clock for every process.
    left = budget_ms - RETURN_MS - (time.time() - asked) * 1000
    return autopilot_action(GAMES[game].bots, state, left, random.Random(seed))


def _warm_up() -> None:
    """Load the games and their bots before the first request, not during it."""
    for game in GAMES.values():
        assert game.bots is not None


class SearchPool:
    """A pool of search processes. Use as a context manager or call :meth:`close`."""

    def __init__(self, workers: int | None = None) -> None:
        # Workers come from a fork server: forking the caller itself would copy a server's
        # threads' locks (the database thread's, say) in whatever state they were in.
        self.workers = workers or os.cpu_count() or 1
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_warm_up,
        )

    async def autopilot(
        self, game: str, state: Any, budget_ms: float = DEFAULT_BUDGET_MS, seed: int | None = None
    ) -> Any:
        """Await the autopilot's action for a timed-out turn."""
        loop = asyncio.get_running_loop()
        asked = time.time()
        return await loop.run_in_executor(
            self._pool, _autopilot, game, state, budget_ms, seed, asked
        )

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
