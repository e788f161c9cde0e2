"""Random Jackaroo games per second for each preset, and the cost of clone() and legal_actions().

A *random game* is a whole game from the first deal to the win in which every
seat plays a uniformly random legal move; chance steps come from a seeded
Mersenne Twister. Times are this process's CPU time. Everything runs in this one
process, on the build it loaded (compiled or pure Python); ``--compare-pure``
measures the pure build as well, in a child process.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from sahrat.bench.builds import (
    add_build_arguments,
    build_line,
    compare_header,
    nothing_to_compare,
    per_call_us,
    pure_figures,
    ratio_line,
)
from sahrat.cli.options import add_option_items_argument, option_items, option_text
from sahrat.game import CHANCE
from sahrat.games import GAMES
from sahrat.games.jackaroo import JackarooState, Options
from sahrat.simulation import SimSource, play_out

JACKAROO = GAMES["jackaroo"]
CATALOGUE = JACKAROO.catalogue()
#: The presets, in the catalogue's order, and the one the per-call costs are measured on.
PRESETS: tuple[str, ...] = tuple(CATALOGUE["presets"])
DEFAULT_PRESET: str = CATALOGUE["default_preset"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run (default 2)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per preset; the median is shown (default 3)"
    )
    parser.add_argument("--games", type=int, default=0, help="games per preset instead of a time")
    parser.add_argument(
        "--seats", type=int, choices=JACKAROO.seat_counts, default=JACKAROO.seat_counts[0]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        action="append",
        dest="presets",
        help="one preset to measure (repeatable; default: every preset)",
    )
    add_option_items_argument(parser)
    add_build_arguments(parser)


def options_for(preset: str, seats: int, overrides: dict[str, object]) -> Options:
    """The preset with ``overrides`` (``--option``), from the game's descriptor."""
    options: Options = JACKAROO.options_from_json({**overrides, "preset": preset}, seats)
    return options


def random_game(options: Options, rng: random.Random, source: SimSource) -> int:
    """Play one random game; returns its number of moves."""
    return play_out(JackarooState.new_game(options), rng, source)


def bench_games(options: Options, seconds: float, games: int, seed: int) -> tuple[int, int, float]:
    """(games, moves, elapsed seconds) of random games for ``options``."""
    rng = random.Random(seed)
    source = SimSource(random.Random(seed + 1))
    played = moves = 0
    start = time.process_time()
    while True:
        moves += random_game(options, rng, source)
        played += 1
        elapsed = time.process_time() - start
        if (games and played >= games) or (not games and elapsed >= seconds):
            return played, moves, elapsed


def sample_states(options: Options, count: int, seed: int) -> list[JackarooState]:
    """States met in random games, at every player decision, ``count`` of them."""
    rng = random.Random(seed)
    source = SimSource(random.Random(seed + 1))
    states: list[JackarooState] = []
    while len(states) < count:
        state = JackarooState.new_game(options)
        while not state.is_terminal() and len(states) < count:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(source))
                continue
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def fresh_legal_actions(state: JackarooState) -> object:
    state._legal = None  # measure generation, not the cache
    return state.legal_actions()


def measure(
    args: argparse.Namespace, after_run: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Every figure, for the presets asked for and the per-call costs; ``after_run(i)`` is
    called once the ``i``-th run of every preset is done."""
    overrides = option_items(args.option)
    options_for(DEFAULT_PRESET, args.seats, overrides)  # bad options: an error before any figure
    names = args.presets or list(PRESETS)
    options = {name: options_for(name, args.seats, overrides) for name in names}
    runs: dict[str, list[tuple[int, int, float]]] = {name: [] for name in names}
    for i in range(max(1, args.repeat)):
        for name in names:
            runs[name].append(
                bench_games(options[name], args.seconds, args.games, args.seed + 1000 * i)
            )
        if after_run is not None:
            after_run(i)
    presets: dict[str, dict[str, Any]] = {}
    for name in names:
        rates = [played / elapsed for played, _, elapsed in runs[name]]
        ordered = sorted(rates)
        played = sum(r[0] for r in runs[name])
        presets[name] = {
            "games": played,
            "games_per_s": ordered[len(ordered) // 2],
            "min": ordered[0],
            "max": ordered[-1],
            "rates": rates,  # in the order run
            "moves_per_s": sum(r[1] for r in runs[name]) / sum(r[2] for r in runs[name]),
            "moves_per_game": sum(r[1] for r in runs[name]) / played,
        }
    states = sample_states(options_for(DEFAULT_PRESET, args.seats, overrides), 5000, args.seed)
    return {
        "build": build_line(),
        "presets": presets,
        "states": len(states),
        "clone_us": per_call_us(states, JackarooState.clone),
        "legal_actions_us": per_call_us(states, fresh_legal_actions),
        "mean_legal": sum(len(s.legal_actions()) for s in states) / len(states),
    }


def child_argv(args: argparse.Namespace, run: int) -> list[str]:
    """The arguments of the pure build's child process for this run's ``run``-th run: one
    run, with the seed the ``run``-th run of this process had."""
    argv = ["--seconds", str(args.seconds), "--repeat", "1", "--games", str(args.games)]
    argv += ["--seats", str(args.seats), "--seed", str(args.seed + 1000 * run)]
    for name in args.presets or ():
        argv += ["--preset", name]
    for item in args.option:
        argv += ["--option", item]
    return argv


def run(args: argparse.Namespace) -> int:
    if args.compare_pure and nothing_to_compare():
        return 1
    # With --compare-pure the two builds take turns, a run of this one and then a run of
    # the pure one, and each ratio is the median of the pairs': this machine's speed can
    # change by a fifth within a minute, and all the runs of one build and then all of the
    # other put such a change into the ratio.
    pure_runs: list[dict[str, Any]] = []

    def pure_run(i: int) -> None:
        pure_runs.append(pure_figures("jackaroo", child_argv(args, i)))

    figures = measure(args, pure_run if args.compare_pure and not args.json else None)
    if args.json:
        print(json.dumps(figures))
        return 0
    overrides = option_items(args.option)
    extra = "".join(f", {name}={option_text(value)}" for name, value in overrides.items())
    print(figures["build"])
    print(
        f"random {args.seats}-seat Jackaroo games{extra}, one process, median of {args.repeat} runs"
    )
    header = ("preset", "games", "games/s", "(min-max)", "moves/s", "moves/game")
    print("{:<9} {:>6} {:>9} {:>13} {:>9} {:>11}".format(*header))
    for name, row in figures["presets"].items():
        spread = f"({row['min']:.0f}-{row['max']:.0f})"
        print(
            f"{name:<9} {row['games']:>6} {row['games_per_s']:>9.1f} {spread:>13}"
            f" {row['moves_per_s']:>9.0f} {row['moves_per_game']:>11.1f}"
        )
    print(
        f"clone():          {figures['clone_us']:6.2f} us"
        f"  ({DEFAULT_PRESET}, {figures['states']} states from random games)"
    )
    print(
        f"legal_actions():  {figures['legal_actions_us']:6.2f} us"
        f"  (mean {figures['mean_legal']:.1f} moves per position)"
    )
    if args.compare_pure:
        print(compare_header())
        for name, row in figures["presets"].items():
            pure_rates = [p["presets"][name]["games_per_s"] for p in pure_runs]
            pairs = sorted(c / p for c, p in zip(row["rates"], pure_rates, strict=True))
            pure_rate = sorted(pure_rates)[len(pure_rates) // 2]
            ratio = pairs[len(pairs) // 2]
            what = f"{name} games/s"
            print(ratio_line(what, row["games_per_s"], pure_rate, "games/s", ratio))
        # The per-call costs are measured on the same states (the first run's seed).
        first = pure_runs[0]
        for key, what in (("clone_us", "clone()"), ("legal_actions_us", "legal_actions()")):
            print(ratio_line(what, figures[key], first[key], "us"))
        print(
            f"games/s: the median of each build's {len(pure_runs)} runs, and of the ratios of"
            " the runs taken in turns (compiled, pure, compiled, ...)"
        )
    return 0
