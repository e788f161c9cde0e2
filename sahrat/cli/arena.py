"""``sahrat arena``: two bot teams play many games; wins with a confidence interval."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from sahrat.bots.arena import (
    BUDGET_SLACK_MS,
    ArenaConfig,
    GameResult,
    check_spec,
    run_games,
    summarize,
)
from sahrat.cli.options import add_option_arguments, options_of
from sahrat.errors import MalformedInput
from sahrat.games import GAMES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("arena", help="bot against bot, many games")
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    add_option_arguments(parser)
    parser.add_argument(
        "--team-a",
        required=True,
        metavar="SPEC",
        help="random, greedy, heuristic, ismcts:100ms or ismcts:2000it",
    )
    parser.add_argument("--team-b", required=True, metavar="SPEC")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--progress-every",
        type=int,
        default=10,
        metavar="N",
        help="when stderr is not a terminal, the figures so far every N games (0: never)",
    )
    parser.set_defaults(handler=run)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    try:
        team_a, team_b = check_spec(args.team_a), check_spec(args.team_b)
    except ValueError as error:
        raise MalformedInput(str(error), args.team_a) from None
    if args.games < 1:
        raise MalformedInput("--games must be at least 1", args.games)
    game = GAMES[args.game]
    options = options_of(game, args)
    config = ArenaConfig(
        game=args.game, seats=options.seats, team_a=team_a, team_b=team_b, games=args.games,
        seed=args.seed, options=options.to_json(),
    )  # fmt: skip
    progress = Progress(config, enabled=sys.stderr.isatty(), every=args.progress_every)
    results: list[GameResult] = []
    for result in run_games(config, max(1, args.workers)):
        results.append(result)
        progress.update(results)
    progress.close()
    summary = summarize(config, results)
    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary)
    return 0


class Progress:
    """Progress on stderr: a one-line bar on a terminal, else a line of the figures so far
    every ``every`` games (a long run's output file then holds its partial result)."""

    def __init__(self, config: ArenaConfig, enabled: bool, every: int = 0) -> None:
        self.config = config
        self.total = config.games
        self.enabled = enabled
        self.every = every
        self.start = time.monotonic()

    def update(self, results: list[GameResult]) -> None:
        done = len(results)
        if not self.enabled:
            if self.every and done % self.every == 0 and done < self.total:
                self.report(results)
            return
        a = sum(r.winner == "A" for r in results)
        width = 30
        filled = width * done // self.total
        elapsed = time.monotonic() - self.start
        eta = elapsed / done * (self.total - done) if done else 0.0
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(
            f"\r[{bar}] {done}/{self.total}  A {a / done:5.1%}  {elapsed:5.0f}s  eta {eta:4.0f}s"
        )
        sys.stderr.flush()

    def report(self, results: list[GameResult]) -> None:
        s = summarize(self.config, results)
        low, high = s["wilson_a"]
        line = (f"after {s['games']}/{self.total} games ({time.monotonic() - self.start:.0f} s):"
                f" A {s['team_a_rate']:.1%} (95% Wilson {low:.1%} - {high:.1%})")  # fmt: skip
        if "lead_per_hand" in s:
            lead = s["lead_per_hand"]
            low_lead, high_lead = lead["interval"]
            line += (f", A's lead per hand {lead['A_minus_B']:+.1f}"
                     f" ({low_lead:+.1f} to {high_lead:+.1f})")  # fmt: skip
        for bot, figures in s["decision_ms"].items():
            line += f"; {bot} p99 {figures['p99']:.1f} ms"
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def print_summary(s: dict[str, Any]) -> None:
    options = json.dumps(s["options"], separators=(",", ":"))
    print(f"{s['game']} {options}, {s['seats']} seats, {s['games']} games, seed {s['seed']}"
          f" (engines {s['build']})")  # fmt: skip
    low, high = s["wilson_a"]
    games = s["games"]
    print(f"team A {s['team_a']}: {s['team_a_wins']} wins  ({s['team_a_rate']:.1%}, "
          f"95% Wilson interval {low:.1%} - {high:.1%})")  # fmt: skip
    print(f"team B {s['team_b']}: {s['team_b_wins']} wins")
    print(f"draws: {s['draws']}   games: {games}")
    print(f"mean game length: {s['mean_decisions']:.1f} decisions")
    if "mean_points_per_hand" in s:
        points = s["mean_points_per_hand"]
        print(f"hands: {s['hands']}, mean points per hand: A {points['A']:.1f}, "
              f"B {points['B']:.1f}")  # fmt: skip
        lead = s["lead_per_hand"]
        low, high = lead["interval"]
        print(f"A's lead per hand: {lead['A_minus_B']:+.1f} points "
              f"(95% interval {low:+.1f} to {high:+.1f}, pairs of games dealt alike)")  # fmt: skip
    print(f"{'decision time':<28} {'p50':>9} {'p99':>9} {'max':>9}")
    for bot, figures in s["decision_ms"].items():
        line = (f"{bot:<28} {figures['p50']:>6.2f} ms {figures['p99']:>6.2f} ms"
                f" {figures['max']:>6.2f} ms")  # fmt: skip
        if "budget" in figures:
            verdict = "within" if figures["within_budget"] else "OVER"
            line += f"  p99 {verdict} budget + {BUDGET_SLACK_MS:g} ms"
        if "iterations_p50" in figures:
            line += f", {figures['iterations_p50']:.0f} iterations per search (median)"
        print(line)
