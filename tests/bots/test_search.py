"""The search bot, the autopilot and the worker pool: legal, deterministic, within budget,
and blind to the cards the seat cannot see."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import time
from typing import Any

import pytest

from sahrat.bots.autopilot import MIN_SEARCH_MS, autopilot_action
from sahrat.bots.search.budget import Budget, Clock
from sahrat.bots.search.duel import Duel
from sahrat.bots.search.ismcts import IsmctsBot
from sahrat.bots.worker import SearchPool, _autopilot
from sahrat.game import CHANCE
from sahrat.games import GAMES
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.jackaroo import JackarooState, Options, from_position
from sahrat.games.jackaroo.actions import DISCARD
from sahrat.simulation import SimSource


def advance(state: Any, seed: int, decisions: int) -> Any:
    """Play ``decisions`` random decisions (chance steps drawn as they come)."""
    rng, source = random.Random(seed), SimSource(seed)
    done = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        if done == decisions:
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        done += 1
    return state


def jackaroo_states(count: int, preset: str = "sahrat", seats: int = 4) -> list[JackarooState]:
    return [
        advance(JackarooState.new_game(Options.preset(preset, seats)), seed, 20 + 15 * seed)
        for seed in range(count)
    ]


def buraco_states(count: int, players: int = 4) -> list[BuracoState]:
    return [
        advance(BuracoState(BuracoOptions(seats=players)), seed, 5 + 7 * seed)
        for seed in range(count)
    ]


def poisoned(state: Any, seat: int, seed: int) -> Any:
    """The same state seen from ``seat``, but with every hidden card dealt elsewhere."""
    return state.determinize(seat, SimSource(seed + 12345))


@pytest.mark.parametrize("preset", ["sahrat", "complex"])
def test_search_returns_legal_jackaroo_moves(preset: str) -> None:
    for state in jackaroo_states(6, preset):
        bot = IsmctsBot(GAMES["jackaroo"].bots, Budget(iterations=60), seed=3)
        assert bot.choose(state) in state.legal_actions()


def test_search_returns_legal_buraco_actions() -> None:
    for state in buraco_states(6):
        bot = IsmctsBot(GAMES["buraco"].bots, Budget(iterations=40), seed=3)
        action = bot.choose(state)
        probe = state.clone()
        probe.apply_action(action)  # raises if illegal


def test_buraco_search_duels_the_heuristics_choice_with_its_runners_up() -> None:
    kit = GAMES["buraco"].bots
    assert kit.root_width >= 2 and kit.prior is not None
    dueled = 0
    for state in buraco_states(12):
        bot = IsmctsBot(kit, Budget(iterations=30), seed=5)
        candidates = bot.root_actions(state)
        if len(candidates) < 3:
            continue
        hint = bot._last_hint
        duel = bot.duel(state, candidates, default=hint)
        # The heuristic's choice first; the others are candidates it scored differently.
        assert duel.rivals[0] == hint
        assert 2 <= len(duel.rivals) <= kit.root_width
        assert all(rival in candidates for rival in duel.rivals)
        scores = dict(zip(candidates, kit.prior(state, candidates), strict=True))
        assert len({scores[rival] for rival in duel.rivals}) == len(duel.rivals)
        assert bot.last_iterations > 0
        dueled += 1
    assert dueled >= 3


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_search_is_deterministic_for_a_seed(game: str) -> None:
    states = jackaroo_states(4) if game == "jackaroo" else buraco_states(4)
    for state in states:
        first = IsmctsBot(GAMES[game].bots, Budget(iterations=80), seed=9).choose(state)
        again = IsmctsBot(GAMES[game].bots, Budget(iterations=80), seed=9).choose(state.clone())
        assert first == again


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_search_never_reads_hidden_cards(game: str) -> None:
    states = jackaroo_states(6) if game == "jackaroo" else buraco_states(6)
    changed = 0
    for i, state in enumerate(states):
        seat = state.current_player()
        other = poisoned(state, seat, i)
        assert other.view(seat) == state.view(seat)
        changed += other.hands != state.hands
        first = IsmctsBot(GAMES[game].bots, Budget(iterations=80), seed=5).choose(state)
        blind = IsmctsBot(GAMES[game].bots, Budget(iterations=80), seed=5).choose(other)
        assert first == blind
    assert changed  # the poison really moved hidden cards


def test_iteration_budget_is_exact() -> None:
    state = jackaroo_states(3)[2]
    while len(state.legal_actions()) < 2:
        state = advance(state, 99, 1)
    bot = IsmctsBot(GAMES["jackaroo"].bots, Budget(iterations=37), seed=1)
    bot.choose(state)
    assert bot.last_iterations == 37


def test_time_budget_is_respected() -> None:
    # (A stuck hand's burns all look alike to a rollout: the heuristic's choice stands.)
    states = [
        s
        for s in jackaroo_states(8)
        if len(s.legal_actions()) > 1 and s.legal_actions()[0].kind < DISCARD
    ]
    bot = IsmctsBot(GAMES["jackaroo"].bots, Budget(ms=40), seed=1)
    for state in states[:4]:
        # CPU time, not wall time: other processes on the machine must not fail this test,
        # a search that ignores its budget still does.
        start = time.process_time()
        bot.choose(state)
        used = (time.process_time() - start) * 1000
        # A step starts only if it can end in time; the slack covers a machine that slows down.
        assert used < 40 + 40
        assert bot.last_iterations > 0
    unbounded = IsmctsBot(GAMES["jackaroo"].bots, Budget(iterations=100_000), seed=1)
    limited = IsmctsBot(GAMES["jackaroo"].bots, Budget(ms=40, iterations=100_000), seed=1)
    limited.choose(states[0])
    assert 0 < limited.last_iterations < unbounded.budget.iterations  # type: ignore[operator]


def test_a_step_starts_only_if_it_can_end_in_time() -> None:
    clock = Clock(50)
    assert clock.has_room()  # nothing measured yet
    time.sleep(0.002)
    clock.tick()
    time.sleep(0.030)  # one slow step: another like it would end past 50 ms
    clock.tick()
    assert not clock.has_room()
    roomy = Clock(1000)
    roomy.tick()
    time.sleep(0.001)
    roomy.tick()
    assert roomy.has_room()
    assert Clock(None).has_room()


def slow_policy(state: Any, rng: random.Random) -> Any:
    """A rollout policy that takes 20 ms a move (a rollout of ten moves: 200 ms)."""
    time.sleep(0.020)
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


@pytest.mark.parametrize("width", [4, 0], ids=["duel", "ucb"])
def test_a_step_still_running_at_the_deadline_is_stopped(width: int) -> None:
    kit = dataclasses.replace(
        GAMES["jackaroo"].bots,
        rollout=slow_policy,
        rollout_depth=10,
        root_width=width,
    )
    state = next(
        s
        for s in jackaroo_states(8)
        if len(s.legal_actions()) > 1 and s.legal_actions()[0].kind < DISCARD
    )
    bot = IsmctsBot(kit, Budget(ms=50), seed=1)
    start = time.perf_counter()
    action = bot.choose(state)
    used = (time.perf_counter() - start) * 1000
    # Ten sleeping moves would take 200 ms; stopped at the deadline, within one more move.
    assert used < 50 + 20 + 30
    assert action in state.legal_actions()
    assert bot.last_iterations == 0


def test_duel_keeps_the_default_unless_a_rival_is_clearly_better() -> None:
    duel = Duel(["default", "close", "better"])
    rng = random.Random(4)
    for _ in range(40):
        base = rng.gauss(0.0, 0.2)  # the luck of the world, shared by all three
        duel.record(
            ["default", "close", "better"],
            [base, base + 0.002 + rng.gauss(0, 0.05), base + 0.05 + rng.gauss(0, 0.05)],
        )
    assert duel.choice == "better"
    assert duel.mean("better") > 0.03
    even = Duel(["default", "close"])
    for _ in range(40):
        base = rng.gauss(0.0, 0.2)
        even.record(["default", "close"], [base, base + rng.gauss(0, 0.05)])
    assert even.choice == "default"


def test_duel_stops_playing_a_rival_far_behind() -> None:
    duel = Duel(["default", "worse", "other"])
    rng = random.Random(2)
    for _ in range(30):
        base = rng.gauss(0.0, 0.2)
        duel.record(
            duel.active,
            [base + {"default": 0.0, "worse": -0.2, "other": 0.0}[a] + rng.gauss(0, 0.02)
             for a in duel.active],
        )  # fmt: skip
    assert duel.active == ["default", "other"]
    assert duel.choice in ("default", "other")


def test_duel_measures_root_moves_in_the_same_worlds() -> None:
    state = next(
        s
        for s in jackaroo_states(8)
        if len(s.legal_actions()) > 2 and s.legal_actions()[0].kind < DISCARD
    )
    bot = IsmctsBot(GAMES["jackaroo"].bots, Budget(iterations=120), seed=2)
    duel = bot.duel(state, list(state.legal_actions()))
    assert len(duel.rivals) >= 2 and bot.last_iterations == 120
    # Every round played every active rival once, the default always.
    assert duel.nodes[duel.rivals[0]].visits == duel.rounds
    assert sum(node.visits for node in duel.nodes.values()) == 120


def test_budget_parsing() -> None:
    assert Budget.parse("100ms") == Budget(ms=100)
    assert Budget.parse("0.5s") == Budget(ms=500)
    assert Budget.parse("2000it") == Budget(iterations=2000)
    for bad in ("", "100", "fast", "-5ms", "0it"):
        with pytest.raises(ValueError, match="budget"):
            Budget.parse(bad)


def test_autopilot_burns_the_least_useful_card_when_stuck() -> None:
    state = from_position({
        "turn": 0,
        "marbles": {"0": ["b"] * 4, "1": ["b"] * 4, "2": ["b"] * 4, "3": ["b"] * 4},
        "hands": {"0": ["9S", "KS", "AH", "3D"], "1": 4, "2": 4, "3": 4},
        "options": {"preset": "sahrat", "seats": 4},
    })  # fmt: skip
    # Marbles in base, an A and a K: not stuck. Take the A and K away:
    state = from_position({
        "turn": 0,
        "marbles": {"0": ["b"] * 4, "1": ["b"] * 4, "2": ["b"] * 4, "3": ["b"] * 4},
        "hands": {"0": ["9S", "JS", "3D"], "1": 4, "2": 4, "3": 4},
    })  # fmt: skip
    legal = state.legal_actions()
    assert all(m.kind == DISCARD for m in legal)
    action = autopilot_action(GAMES["jackaroo"].bots, state, budget_ms=20, seed=1)
    assert action in legal
    assert action == GAMES["jackaroo"].bots.stuck(state)


def test_autopilot_plays_a_legal_move() -> None:
    for state in jackaroo_states(3) + buraco_states(2):  # type: ignore[operator]
        game = "jackaroo" if isinstance(state, JackarooState) else "buraco"
        action = autopilot_action(GAMES[game].bots, state, budget_ms=30, seed=2)
        state.clone().apply_action(action)


def test_worker_pool_plays_the_autopilot_in_another_process() -> None:
    states = jackaroo_states(2)
    with SearchPool(workers=1) as pool:

        async def both() -> list[Any]:
            return list(await asyncio.gather(
                pool.autopilot("jackaroo", states[0], budget_ms=20, seed=1),
                pool.autopilot("jackaroo", states[1], budget_ms=20, seed=2),
            ))  # fmt: skip

        first, second = asyncio.run(both())
    assert first in states[0].legal_actions()
    assert second in states[1].legal_actions()


def test_autopilot_with_its_budget_spent_plays_the_heuristic_at_once() -> None:
    kit = GAMES["buraco"].bots
    for state in buraco_states(3):  # type: ignore[operator]
        expected = kit.heuristic(random.Random(4)).choose(state)
        assert autopilot_action(kit, state, budget_ms=MIN_SEARCH_MS / 2, seed=4) == expected
        # A request that waited in the pool's queue past its budget: no search either.
        spent = time.time() - 1.0
        assert _autopilot("buraco", state, 300.0, 4, spent) == expected


def test_search_pool_has_a_process_per_core_by_default() -> None:
    with SearchPool() as pool:
        assert pool.workers == (os.cpu_count() or 1)


def test_autopilot_benchmark_reports_decisions_against_the_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sahrat.cli.main import main

    argv = ["bench", "autopilot", "--tables", "3", "--decisions", "2", "--budget-ms", "20"]
    assert main([*argv, "--workers", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["decisions"] == 6 and figures["workers"] == 1
    assert figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["within_budget"] == (figures["p99_ms"] <= 20 + 5)
