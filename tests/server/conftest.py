"""Fixtures for the server's tests: a database backend per parameter, shared servers,
scripted seats.

A test module that runs on both databases marks itself with
``pytest.mark.usefixtures("backend")``: every test runs once on SQLite and once on
PostgreSQL. A module that also says ``pytest.mark.sqlite_only`` checks what the protocol
does, through store calls that the modules of both databases already cover; it keeps the
fixtures but runs on SQLite alone.

A module's shared server (see :func:`shared_server`) lives for the module and that
backend; each test brings its own players and tables to it. A test that needs a server of
its own (it kills or restarts it, or its settings differ) asks for ``database_url``: a
new, empty database of the backend for that test alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server import harness
from tests.server.harness import Player, Server, fresh_postgres, running


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a module's backend is SQLite alone")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    dropped = [
        item
        for item in items
        if item.get_closest_marker("sqlite_only") is not None
        and getattr(item, "callspec", None) is not None
        and item.callspec.params.get("backend") == "postgres"  # type: ignore[attr-defined]
    ]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """The database kind a module's tests run on: ``sqlite`` or ``postgres``."""
    return str(request.param)


@contextlib.contextmanager
def database(backend: str) -> Iterator[str]:
    """A database for one server: ``""`` (a SQLite file in the server's data directory) or
    a new, empty PostgreSQL database, dropped afterwards (skipped without PostgreSQL,
    unless services are required)."""
    if backend == "sqlite":
        yield ""
        return
    with fresh_postgres() as url:
        yield url


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """A new, empty PostgreSQL database of this test's own, dropped afterwards."""
    with fresh_postgres() as url:
        yield url


@pytest.fixture
def database_url(backend: str) -> Iterator[str]:
    """A new database of the backend for this test's own servers; a server started
    without naming one uses it too."""
    with database(backend) as url:
        harness.DATABASE["url"] = url
        try:
            yield url
        finally:
            harness.DATABASE["url"] = ""


@contextlib.contextmanager
def shared_server(
    tmp_path_factory: pytest.TempPathFactory, backend: str = "sqlite", **settings: object
) -> Iterator[Server]:
    """A server for every test of a module on one backend, on a database of its own.

    Its seats have a long grace (unless ``settings`` say otherwise): a game a test walked
    away from keeps its absent people, played by the clock now and then, rather than
    becoming a game of bots playing at full speed beside the next tests.
    """
    settings = {"grace_seconds": 600.0, **settings}
    with database(backend) as url, running(tmp_path_factory.mktemp("server"), url, **settings) as s:
        yield s


async def people(server: Server, count: int) -> list[Player]:
    """``count`` new guests, connected, named p0, p1 …"""
    players = [Player(server, f"p{i}") for i in range(count)]
    for player in players:
        await player.connect()
    return players


async def seat_four(server: Server, game: str, **create: Any) -> list[Player]:
    """Four people at one new table, the game started."""
    players = await people(server, 4)
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


def by_seat(players: list[Player]) -> dict[int, Player]:
    """The seated players by their seat number."""
    return {p.state["you"]: p for p in players if p.state is not None}


def to_move(players: list[Player]) -> Player:
    """The player whose turn it is, by the latest table message."""
    state = players[0].state
    assert state is not None
    return by_seat(players)[state["to_move"]]


async def close_all(*players: Player) -> None:
    for player in players:
        await player.close()


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
