"""Fixtures for the server's tests: a database backend per parameter, scripted seats."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server import harness
from tests.server.harness import Player, Server, drop_postgres, postgres_url


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a test twice: on a SQLite file in the data directory, and on a new, empty
    PostgreSQL database (skipped without PostgreSQL, unless services are required)."""
    if request.param == "sqlite":
        yield ""
        return
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    harness.DATABASE["url"] = url
    try:
        yield url
    finally:
        harness.DATABASE["url"] = ""
        drop_postgres(url)


async def seat_four(server: Server, game: str, **create: Any) -> list[Player]:
    """Four people at one new table, the game started."""
    players = [Player(server, f"p{i}") for i in range(4)]
    for player in players:
        await player.connect()
    await players[0].send(type="create", game=game, seats=4, **create)
    first = await players[0].expect("table")
    table_id = first["table"]["id"]
    for player in players[1:]:
        await player.send(type="join", table=table_id)
        await player.expect("table")
    for player in players:
        request = await player.expect("seed_request")
        assert len(request["commitment"]) == 64
        await player.send(type="seed", seed=f"seed-{player.name}")
    for player in players:
        await player.expect("table", lambda m: m["table"]["status"] == "playing")
    return players


async def play(
    player: Player,
    done: Callable[[dict[str, Any]], bool],
    rng: random.Random,
    choose: Callable[[list[str], random.Random], str] | None = None,
) -> dict[str, Any]:
    """Play every turn of this seat with a legal move until ``done`` holds for its state."""
    acted = -1
    # The latest table message may already have arrived (it carries the first turn).
    state = player.state or await player.expect("table", timeout=30)
    while True:
        if done(state):
            return state
        legal = state.get("legal")
        if legal and state["moves"] > acted and state["to_move"] == state["you"]:
            acted = state["moves"]
            action = choose(legal, rng) if choose else rng.choice(legal)
            await player.send(type="act", action=action, moves=state["moves"])
        state = await player.expect("table", timeout=30)


def game_over(state: dict[str, Any]) -> bool:
    return "result" in state


def hand_over(state: dict[str, Any]) -> bool:
    view = state.get("view") or {}
    return bool(view.get("results")) or "result" in state


async def play_all(
    players: list[Player], done: Callable[[dict[str, Any]], bool], seed: int = 1
) -> list[dict[str, Any]]:
    tasks = [play(p, done, random.Random(seed + i)) for i, p in enumerate(players)]
    return list(await asyncio.gather(*tasks))
