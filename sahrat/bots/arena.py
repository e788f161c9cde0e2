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
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sahrat import compiled
from sahrat.bots.random_bot import RandomBot
from sahrat.bots.search import Budget, IsmctsBot
from sahrat.game import CHANCE, TERMINAL, Bot, Game, GameState
from sahrat.games import GAMES
from sahrat.simulation import LabelledSource

#: A game still running after this many decisions counts as a draw (random bots can dawdle).
MAX_DECISIONS = 20_000
BOT_KINDS = ("random", "greedy", "heuristic", "ismcts:<budget>")


def check_spec(spec: str) -> str:
    """``spec`` if it names a bot, else ValueError with the choices."""
    if spec in ("random", "greedy", "heuristic"):
        return spec
    if spec.startswith("ismcts:"):
        Budget.parse(spec.partition(":")[2])
        return spec
    raise ValueError(f"unknown bot {spec!r}: one of {', '.join(BOT_KINDS)}")


def make_bot(game: Game[Any], spec: str, seed: int) -> Bot:
    kit = game.bots
    rng = random.Random(seed)
    if spec == "random":
        return RandomBot(rng)
    if spec == "heuristic":
        return kit.heuristic(rng)
    if spec == "greedy":
        return kit.greedy(rng)
    return IsmctsBot(kit, Budget.parse(spec.partition(":")[2]), rng)


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    game: str
    seats: int
    team_a: str
    team_b: str
    games: int
    seed: int
    #: The table's options as JSON (the seat count is ``seats``).
    options: Mapping[str, object] = field(default_factory=dict)

    @property
    def rules(self) -> Game[Any]:
        return GAMES[self.game]


@dataclass(slots=True)
class GameResult:
    index: int
    #: "A", "B" or "draw".
    winner: str
    decisions: int
    #: Decision times in milliseconds, per team.
    times: dict[str, list[float]] = field(default_factory=dict)
    #: Search iterations of each decision that searched (more than one choice), per team.
    iterations: dict[str, list[int]] = field(default_factory=dict)
    #: Where the game keeps points: each team's, and the hands they were scored over.
    points: tuple[int, int] | None = None
    hands: int = 0


def seats_of_team_a(config: ArenaConfig, index: int) -> tuple[int, ...]:
    """Team A's seats in game ``index``: the first seat's side in even games, the other in odd."""
    rules = config.rules
    seating = rules.seating(rules.options_from_json(config.options, config.seats))
    return seating.partners(seating.seats[index % 2])


def new_state(config: ArenaConfig, index: int) -> GameState:
    """The game's start, with the first dealer turning every two games."""
    rules = config.rules
    state = rules.new_game(rules.options_from_json(config.options, config.seats))
    # The first chance step draws the dealer: its outcomes are listed, one per seat.
    dealers = state.legal_actions()
    state.apply_action(dealers[(index // 2) % len(dealers)])
    return state


def chance_source(config: ArenaConfig, index: int) -> LabelledSource:
    """The chance steps of game ``index``: the same for both games of a pair."""
    return LabelledSource(config.seed * 1_000_003 + index // 2)


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the arena; runs in a worker process."""
    base = config.seed * 1_000_003 + index
    team_a = seats_of_team_a(config, index)
    state = new_state(config, index)
    bots = {
        seat: make_bot(config.rules, config.team_a if seat in team_a else config.team_b,
                       base * 8 + seat)
        for seat in state.seats
    }  # fmt: skip
    source = chance_source(config, index)
    result = GameResult(index, "draw", 0, {"A": [], "B": []}, {"A": [], "B": []})
    while result.decisions < MAX_DECISIONS:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        bot = bots[player]
        team = "A" if player in team_a else "B"
        start = time.perf_counter()
        action = bot.choose(state)
        result.times[team].append((time.perf_counter() - start) * 1000)
        if isinstance(bot, IsmctsBot) and bot.last_iterations:
            result.iterations[team].append(bot.last_iterations)
        state.apply_action(action)
        result.decisions += 1
    outcome = state.outcome()
    if outcome is not None:
        result.winner = "A" if team_a[0] in outcome.winners else "B"
        a, b = sorted(outcome.sides, key=lambda side: team_a[0] not in side.seats)
        if a.points is not None and b.points is not None:
            result.points, result.hands = (a.points, b.points), outcome.hands
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


#: How far past its budget a search's 99th percentile decision may end (the budget counts).
BUDGET_SLACK_MS = 5.0


def lead_per_hand(results: list[GameResult], z: float = 1.96) -> tuple[float, float, float]:
    """Team A's points per hand minus team B's, with its 95 % interval.

    The units are the pairs of games dealt the same cards (each team held each
    hand once), so the luck of the deal cancels within a unit; the mean is a ratio
    (points over hands) and its error is the ratio estimator's.
    """
    units: dict[int, list[float]] = {}
    for r in results:
        if r.points is not None:
            unit = units.setdefault(r.index // 2, [0.0, 0.0])
            unit[0] += r.points[0] - r.points[1]
            unit[1] += r.hands
    n = len(units)
    leads = sum(u[0] for u in units.values())
    hands = sum(u[1] for u in units.values())
    if not hands:
        return (0.0, -math.inf, math.inf)
    ratio = leads / hands
    if n < 2:
        return (ratio, -math.inf, math.inf)
    residuals = sum((u[0] - ratio * u[1]) ** 2 for u in units.values())
    error = math.sqrt(n / (n - 1) * residuals) / hands
    return (ratio, ratio - z * error, ratio + z * error)


def budget_ms(spec: str) -> float | None:
    """The milliseconds a bot spec may think, when it has a time budget."""
    if spec.startswith("ismcts:"):
        return Budget.parse(spec.partition(":")[2]).ms
    return None


def summarize(config: ArenaConfig, results: list[GameResult]) -> dict[str, Any]:
    """The arena's figures, as one JSON-ready object."""
    results = sorted(results, key=lambda r: r.index)
    games = len(results)
    a = sum(r.winner == "A" for r in results)
    b = sum(r.winner == "B" for r in results)
    draws = games - a - b
    low, high = wilson(a + draws / 2, games)
    out: dict[str, Any] = {
        # The search's strength depends on the iterations it fits in its budget.
        "build": compiled.build_name(),
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
    out["options"] = config.rules.options_from_json(config.options, config.seats).to_json()
    scored = [r for r in results if r.points is not None]
    if scored:
        hands = sum(r.hands for r in scored)
        out["hands"] = hands
        out["mean_points_per_hand"] = {
            "A": sum(r.points[0] for r in scored if r.points) / hands,
            "B": sum(r.points[1] for r in scored if r.points) / hands,
        }
        lead, low_lead, high_lead = lead_per_hand(scored)
        out["lead_per_hand"] = {"A_minus_B": round(lead, 2),
                                "interval": [round(low_lead, 2), round(high_lead, 2)]}  # fmt: skip
    for team, spec in (("A", config.team_a), ("B", config.team_b)):
        times = [t for r in results for t in r.times.get(team, [])]
        figures: dict[str, Any] = {
            "decisions": len(times),
            "p50": round(percentile(times, 50), 3),
            "p99": round(percentile(times, 99), 3),
            "max": round(max(times, default=0.0), 3),
        }
        budget = budget_ms(spec)
        if budget is not None:
            figures["budget"] = budget
            figures["within_budget"] = figures["p99"] <= budget + BUDGET_SLACK_MS
        searched = [n for r in results for n in r.iterations.get(team, [])]
        if searched:
            figures["iterations_p50"] = percentile([float(n) for n in searched], 50)
        out["decision_ms"][f"{team}:{spec}"] = figures
    return out
