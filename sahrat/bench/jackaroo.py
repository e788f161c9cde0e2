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


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure, for the presets asked for and the per-call costs."""
    overrides = option_items(args.option)
    options_for(DEFAULT_PRESET, args.seats, overrides)  # bad options: an error before any figure
    presets: dict[str, dict[str, float]] = {}
    for name in args.presets or list(PRESETS):
        options = options_for(name, args.seats, overrides)
        runs = [
            bench_games(options, args.seconds, args.games, args.seed + 1000 * i)
            for i in range(max(1, args.repeat))
        ]
        rates = sorted(played / elapsed for played, _, elapsed in runs)
        played = sum(r[0] for r in runs)
        presets[name] = {
            "games": played,
            "games_per_s": rates[len(rates) // 2],
            "min": rates[0],
            "max": rates[-1],
            "moves_per_s": sum(r[1] for r in runs) / sum(r[2] for r in runs),
            "moves_per_game": sum(r[1] for r in runs) / played,
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


def child_argv(args: argparse.Namespace) -> list[str]:
    """This run's arguments, for the pure build's child process."""
    argv = ["--seconds", str(args.seconds), "--repeat", str(args.repeat)]
    argv += ["--games", str(args.games), "--seats", str(args.seats), "--seed", str(args.seed)]
    for name in args.presets or ():
        argv += ["--preset", name]
    for item in args.option:
        argv += ["--option", item]
    return argv


def run(args: argparse.Namespace) -> int:
    if args.compare_pure and nothing_to_compare():
        return 1
    figures = measure(args)
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
        pure = pure_figures("jackaroo", child_argv(args))
        print(compare_header())
        for name, row in figures["presets"].items():
            pure_rate = pure["presets"][name]["games_per_s"]
            print(ratio_line(f"{name} games/s", row["games_per_s"], pure_rate, "games/s"))
        for key, what in (("clone_us", "clone()"), ("legal_actions_us", "legal_actions()")):
            print(ratio_line(what, figures[key], pure[key], "us"))
    return 0
