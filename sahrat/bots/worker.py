"""Search in worker processes, so that a server's event loop never waits on a bot.

Search is CPU-bound pure Python: in a thread it would hold the GIL and stall
every table, so it runs in a process pool and the caller awaits the result.
States are pickled to the worker with the game's name; nothing but the chosen
action comes back.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sahrat.bots.autopilot import DEFAULT_BUDGET_MS, autopilot_action
from sahrat.games import GAMES


def _autopilot(game: str, state: Any, budget_ms: float, seed: int | None) -> Any:
    return autopilot_action(GAMES[game].bots, state, budget_ms, random.Random(seed))


class SearchPool:
    """A pool of search processes. Use as a context manager or call :meth:`close`."""

    def __init__(self, workers: int = 1) -> None:
        # Workers come from a fork server: forking the caller itself would copy a server's
        # threads' locks (the database thread's, say) in whatever state they were in.
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("forkserver")
        )

    async def autopilot(
        self, game: str, state: Any, budget_ms: float = DEFAULT_BUDGET_MS, seed: int | None = None
    ) -> Any:
        """Await the autopilot's action for a timed-out turn."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _autopilot, game, state, budget_ms, seed)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
