"""Bot against bot, many games, in a process pool: what ``sahrat arena`` runs.

Each game is one task, fully decided by the arena's seed and the game's
index (its chance steps come from a :class:`~sahrat.simulation.LabelledSource`
seeded with both, every bot has a seed of its own), so the same seed gives
the same result however the games are spread over processes. Team A sits
at seats 0 (and 2) in even games and at the other seats in odd ones, and
the first dealer turns round the table every two games, so neither team
keeps a seat or the first move. The two games of a pair are also dealt the
same cards (a :class:`~sahrat.simulation.LabelledSource`): each team plays
the hands the other held, as in duplicate bridge, and the luck of the deal
weighs far less on the result.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sahrat.bots.ismcts import Budget, IsmctsBot
from sahrat.bots.kits import KITS, GameKit
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco import actions as buraco_actions
from sahrat.games.jackaroo import Chance, JackarooState, Options
from sahrat.games.jackaroo.actions import DEALER
from sahrat.simulation import LabelledSource

#: A game still running after this many decisions counts as a draw (random bots can dawdle).
MAX_DECISIONS = 20_000
BOT_KINDS = ("random", "greedy", "heuristic", "ismcts:<budget>")


class RandomBot:
    """Uniformly random among the listed legal actions."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


def check_spec(spec: str) -> str:
    """``spec`` if it names a bot, else ValueError with the choices."""
    if spec in ("random", "greedy", "heuristic"):
        return spec
    if spec.startswith("ismcts:"):
        Budget.parse(spec.partition(":")[2])
        return spec
    raise ValueError(f"unknown bot {spec!r}: one of {', '.join(BOT_KINDS)}")


def make_bot(game: str, spec: str, seed: int) -> Any:
    kit: GameKit = KITS[game]
    rng = random.Random(seed)
    if spec == "random":
        return RandomBot(rng)
    if spec == "heuristic":
        return kit.heuristic(rng)
    if spec == "greedy":
        if game == "jackaroo":
            from sahrat.bots.jackaroo_greedy import GreedyJackarooBot

            bot: Any = GreedyJackarooBot(rng)
        else:
            from sahrat.bots.buraco_greedy import GreedyBuracoBot

            bot = GreedyBuracoBot(rng)
        bot.name = "greedy"
        return bot
    return IsmctsBot(kit, Budget.parse(spec.partition(":")[2]), rng)


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    game: str
    seats: int
    team_a: str
    team_b: str
    games: int
    seed: int
    jackaroo_preset: str = "sahrat"
    buraco_target: int = 1000


@dataclass(slots=True)
class GameResult:
    index: int
    #: "A", "B" or "draw".
    winner: str
    decisions: int
    #: Decision times in milliseconds, per team.
    times: dict[str, list[float]] = field(default_factory=dict)
    #: Buraco: per hand, each team's points.
    hand_points: list[tuple[int, int]] = field(default_factory=list)


def seats_of_team_a(config: ArenaConfig, index: int) -> tuple[int, ...]:
    """Team A's seats in game ``index``: seat 0's side in even games, the other in odd."""
    seats: tuple[int, ...]
    if config.game == "jackaroo":
        seats = (0, 1, 2, 3) if config.seats == 4 else (0, 2)
    else:
        seats = tuple(range(config.seats))
    if len(seats) == 4:
        return seats[index % 2 :: 2]
    return (seats[index % 2],)


def new_state(config: ArenaConfig, index: int) -> Any:
    """The game's start, with the first dealer turning every two games."""
    if config.game == "jackaroo":
        jackaroo = JackarooState.new_game(Options.preset(config.jackaroo_preset, config.seats))
        jackaroo.apply_action(Chance(DEALER, (index // 2) % config.seats))
        return jackaroo
    buraco = BuracoState(BuracoOptions(players=config.seats, target=config.buraco_target))
    buraco.apply_action(buraco_actions.pick_dealer((index // 2) % config.seats))
    return buraco


def chance_source(config: ArenaConfig, index: int) -> LabelledSource:
    """The chance steps of game ``index``: the same for both games of a pair."""
    return LabelledSource(config.seed * 1_000_003 + index // 2)


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the arena; runs in a worker process."""
    base = config.seed * 1_000_003 + index
    team_a = seats_of_team_a(config, index)
    state = new_state(config, index)
    seats = range(4) if config.game == "jackaroo" else range(config.seats)
    bots = {
        seat: make_bot(config.game, config.team_a if seat in team_a else config.team_b,
                       base * 8 + seat)
        for seat in seats
    }  # fmt: skip
    source = chance_source(config, index)
    result = GameResult(index, "draw", 0, {"A": [], "B": []})
    while result.decisions < MAX_DECISIONS:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        start = time.perf_counter()
        action = bots[player].choose(state)
        result.times["A" if player in team_a else "B"].append((time.perf_counter() - start) * 1000)
        state.apply_action(action)
        result.decisions += 1
    if state.is_terminal():
        won = state.returns()[team_a[0]] > 0
        result.winner = "A" if won else "B"
    if config.game == "buraco":
        side_a = state.side_of(team_a[0])
        result.hand_points = [
            (r.sides[side_a].total, r.sides[1 - side_a].total) for r in state.results
        ]
    return result


def _play_indexed(args: tuple[ArenaConfig, int]) -> GameResult:
    return play_game(*args)


def run_games(config: ArenaConfig, workers: int) -> Iterator[GameResult]:
    """Every game's result, as they finish (in a pool of ``workers`` processes)."""
    tasks = [(config, i) for i in range(config.games)]
    if workers <= 1:
        yield from map(_play_indexed, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_play_indexed, tasks, chunksize=1)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summarize(config: ArenaConfig, results: list[GameResult]) -> dict[str, Any]:
    """The arena's figures, as one JSON-ready object."""
    results = sorted(results, key=lambda r: r.index)
    games = len(results)
    a = sum(r.winner == "A" for r in results)
    b = sum(r.winner == "B" for r in results)
    draws = games - a - b
    low, high = wilson(a + draws / 2, games)
    out: dict[str, Any] = {
        "game": config.game,
        "seats": config.seats,
        "team_a": config.team_a,
        "team_b": config.team_b,
        "seed": config.seed,
        "games": games,
        "team_a_wins": a,
        "team_b_wins": b,
        "draws": draws,
        "team_a_rate": (a + draws / 2) / games if games else 0.0,
        "wilson_a": [round(low, 4), round(high, 4)],
        "mean_decisions": sum(r.decisions for r in results) / games if games else 0.0,
        "decision_ms": {},
    }
    if config.game == "jackaroo":
        out["jackaroo_preset"] = config.jackaroo_preset
    else:
        out["buraco_target"] = config.buraco_target
        hands = [p for r in results for p in r.hand_points]
        out["hands"] = len(hands)
        out["mean_points_per_hand"] = {
            "A": sum(p[0] for p in hands) / len(hands) if hands else 0.0,
            "B": sum(p[1] for p in hands) / len(hands) if hands else 0.0,
        }
    for team, spec in (("A", config.team_a), ("B", config.team_b)):
        times = [t for r in results for t in r.times.get(team, [])]
        out["decision_ms"][f"{team}:{spec}"] = {
            "decisions": len(times),
            "p50": round(percentile(times, 50), 3),
            "p99": round(percentile(times, 99), 3),
        }
    return out
