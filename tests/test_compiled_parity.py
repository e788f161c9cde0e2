"""The compiled engines play exactly as the pure Python ones.

Run as a script, this file plays seeded random games of both games at both seat
counts on whichever build its process loaded, and prints every move and outcome
as JSON; the test runs it twice, once with ``SAHRAT_PURE_PYTHON=1``, and compares.
It first makes sure the compiled run really is compiled, so that it never compares
the pure build with itself.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

GAMES_PER_TABLE = 24
#: Buraco matches are played to the lowest target, and cut after this many hands
#: (random play rarely reaches a target quickly); the hands played are compared too.
BURACO_HANDS = 3
#: Whole Jackaroo games between heuristic bots (their scoring modules are compiled too).
BOT_GAMES = 4
#: Moves of a game in which one seat searches.
SEARCH_MOVES = 120


def play_all() -> dict[str, Any]:
    """Every game's moves and outcome, and where each compiled module was loaded from."""
    import sahrat
    from sahrat.game import CHANCE
    from sahrat.games import GAMES
    from sahrat.simulation import SimSource

    games: list[dict[str, Any]] = []
    for name, options_json in (("jackaroo", {"preset": "sahrat"}), ("buraco", {"target": 1000})):
        game = GAMES[name]
        for seats in game.seat_counts:
            options = game.options_from_json(options_json, seats)
            for seed in range(GAMES_PER_TABLE):
                rng = random.Random(seed)
                source = SimSource(random.Random(1000 + seed))
                state = game.new_game(options)
                moves: list[str] = []
                hands = getattr(state, "results", None)
                while not state.is_terminal():
                    if hands is not None and len(hands) >= BURACO_HANDS:
                        break
                    if state.current_player() == CHANCE:
                        action = state.sample_chance(source)
                    else:
                        action = rng.choice(state.legal_actions())
                    moves.append(str(action))
                    state.apply_action(action)
                outcome = state.outcome()
                games.append(
                    {
                        "game": name,
                        "seats": seats,
                        "seed": seed,
                        "moves": moves,
                        "outcome": None if outcome is None else outcome.to_json(),
                        "view": state.view(state.seats[0]).to_json(),
                    }
                )
    # The compiled bot modules choose as the pure ones do: heuristic games, seeded.
    for seed in range(BOT_GAMES):
        game = GAMES["jackaroo"]
        state = game.new_game(game.options_from_json({"preset": "sahrat"}, 4))
        source = SimSource(random.Random(2000 + seed))
        bots = {seat: game.bots.heuristic(random.Random(seed * 8 + seat)) for seat in range(4)}
        moves = []
        while not state.is_terminal():
            player = state.current_player()
            action = state.sample_chance(source) if player == CHANCE else bots[player].choose(state)
            moves.append(str(action))
            state.apply_action(action)
        outcome = state.outcome()
        games.append(
            {"game": "jackaroo heuristic", "seats": 4, "seed": seed, "moves": moves,
             "outcome": None if outcome is None else outcome.to_json(), "view": None}
        )  # fmt: skip
    # And the search (its rollouts, evaluations and determinizations are compiled): seat 0
    # searches with a fixed number of iterations against heuristic seats, in both games.
    from sahrat.bots.search import Budget, IsmctsBot

    for name, options_json in (("jackaroo", {"preset": "sahrat"}), ("buraco", {"target": 1000})):
        game = GAMES[name]
        state = game.new_game(game.options_from_json(options_json, 4))
        source = SimSource(random.Random(3000))
        search = IsmctsBot(game.bots, Budget(iterations=40), seed=5)
        others = {seat: game.bots.heuristic(random.Random(seat)) for seat in range(1, 4)}
        moves = []
        while not state.is_terminal() and len(moves) < SEARCH_MOVES:
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(source)
            else:
                action = (search if player == 0 else others[player]).choose(state)
            moves.append(str(action))
            state.apply_action(action)
        games.append(
            {"game": f"{name} search", "seats": 4, "seed": 0, "moves": moves, "outcome": None,
             "view": state.view(0).to_json()}
        )  # fmt: skip
    files = {m: importlib.import_module(m).__file__ for m in sahrat.compiled.MODULES}
    return {"build": sahrat.compiled.build_name(), "files": files, "games": games}


def run_build(*, pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "SAHRAT_PURE_PYTHON"}
    if pure:
        env["SAHRAT_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, __file__], env=env, check=True, capture_output=True, text=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_compiled_build_plays_the_same_games_as_the_pure_one() -> None:
    from sahrat.compiled import can_compile

    compiled = run_build(pure=False)
    if compiled["build"] != "compiled (mypyc)":
        why = can_compile()
        if why is None:
            pytest.fail("a C compiler is here but the engines are not compiled: ./scripts/setup")
        if os.environ.get("SAHRAT_REQUIRE_SERVICES") == "1":
            pytest.fail(f"SAHRAT_REQUIRE_SERVICES=1 needs the compiled engines: {why}")
        pytest.skip(f"no compiled build to compare with: {why}")
    assert all(file.endswith(".so") for file in compiled["files"].values()), compiled["files"]

    pure = run_build(pure=True)
    assert pure["build"] == "pure Python"
    assert all(file.endswith(".py") for file in pure["files"].values()), pure["files"]

    assert len(compiled["games"]) == len(pure["games"])
    for ours, theirs in zip(compiled["games"], pure["games"], strict=True):
        label = f"{ours['game']}, {ours['seats']} seats, seed {ours['seed']}"
        assert ours["moves"] == theirs["moves"], label
        assert ours["outcome"] == theirs["outcome"], label
        assert ours["view"] == theirs["view"], label
    # The games are long enough to mean something: every table reached an end or a cut.
    assert sum(len(g["moves"]) for g in pure["games"]) > 100 * len(pure["games"])


if __name__ == "__main__":
    print(json.dumps(play_all()))
