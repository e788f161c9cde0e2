"""Autopilot decisions of many tables at once: the time from asking to the answer.

A server plays the search's move for every seat whose clock runs out, in a pool of
search processes (:class:`~sahrat.bots.worker.SearchPool`). This benchmark is a
server full of such seats: ``--tables`` tables each ask for a decision, await
it, wait ``--gap-ms`` and ask again, ``--decisions`` times, with positions from
random games of both games. Every answer's time from the request is measured
on the wall clock, as a player waits it, and compared with the budget (+ 5 ms):
a request that finds every process busy searches only for what is left of its
budget, so the budget holds however many tables ask at once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

from sahrat.bench.builds import build_line
from sahrat.bots.arena import BUDGET_SLACK_MS, percentile
from sahrat.bots.autopilot import DEFAULT_BUDGET_MS
from sahrat.bots.worker import SearchPool
from sahrat.game import CHANCE, GameState
from sahrat.games import GAMES
from sahrat.simulation import SimSource

#: The positions the tables ask about: from random games, seat to move, a real choice.
POSITIONS = 64


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=8, help="tables asking at once (default 8)")
    parser.add_argument("--decisions", type=int, default=10, help="decisions per table")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--gap-ms", type=float, default=0.0, help="a table's wait between asks")
    parser.add_argument("--workers", type=int, default=0, help="search processes (0: per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one object")


def positions(count: int, seed: int) -> list[tuple[str, GameState]]:
    """Positions with a choice to make, alternately Jackaroo's and Buraco's (4 seats)."""
    rng = random.Random(seed)
    source = SimSource(random.Random(seed + 1))
    found: list[tuple[str, GameState]] = []
    names = ("jackaroo", "buraco")
    while len(found) < count:
        name = names[len(found) % 2]
        game = GAMES[name]
        state = game.new_game(game.options_from_json(None, 4))
        wanted = rng.randrange(10, 120)
        for _ in range(2000):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(source))
                continue
            legal = state.legal_actions()
            if wanted <= 0 and len(legal) > 1:
                found.append((name, state.clone()))
                break
            state.apply_action(legal[int(rng.random() * len(legal))])
            wanted -= 1
    return found


async def load(args: argparse.Namespace, pool: SearchPool) -> list[float]:
    """Every decision's milliseconds from the request to the answer."""
    asked = positions(POSITIONS, args.seed)
    times: list[float] = []

    async def table(number: int) -> None:
        for i in range(args.decisions):
            name, state = asked[(number * args.decisions + i) % len(asked)]
            start = time.perf_counter()
            action = await pool.autopilot(name, state, args.budget_ms, seed=number * 1000 + i)
            times.append((time.perf_counter() - start) * 1000)
            state.clone().apply_action(action)  # a legal answer, or this raises
            await asyncio.sleep(args.gap_ms / 1000)

    await asyncio.gather(*(table(n) for n in range(args.tables)))
    return times


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with SearchPool(args.workers or None) as pool:
        # One decision per process first: the pool's start-up is not a table's wait.
        warm = argparse.Namespace(**{**vars(args), "tables": pool.workers, "decisions": 1})
        asyncio.run(load(warm, pool))
        start = time.perf_counter()
        times = asyncio.run(load(args, pool))
        elapsed = time.perf_counter() - start
    p99 = percentile(times, 99)
    return {
        "build": build_line(),
        "workers": pool.workers,
        "tables": args.tables,
        "budget_ms": args.budget_ms,
        "gap_ms": args.gap_ms,
        "decisions": len(times),
        "decisions_per_s": len(times) / elapsed,
        "p50_ms": percentile(times, 50),
        "p99_ms": p99,
        "max_ms": max(times),
        "within_budget": p99 <= args.budget_ms + BUDGET_SLACK_MS,
    }


def run(args: argparse.Namespace) -> int:
    figures = measure(args)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(figures["build"])
    verdict = "within" if figures["within_budget"] else "OVER"
    print(
        f"autopilot: {figures['tables']} tables asking at once (gap {figures['gap_ms']:g} ms),"
        f" {figures['workers']} search processes, budget {figures['budget_ms']:g} ms"
    )
    print(
        f"{figures['decisions']} decisions ({figures['decisions_per_s']:.1f}/s):"
        f" p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms,"
        f" max {figures['max_ms']:.1f} ms; p99 {verdict} budget + {BUDGET_SLACK_MS:g} ms"
    )
    return 0
