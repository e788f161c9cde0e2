"""Whole games played once per session, read by many tests (each game takes ~0.1 s, but
its log, host calls and final state answer a dozen questions)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from tests.server.table.fakes import FakeClient, settings
from tests.server.table.tables import Table, open_table, play_to_end, seated, started, until


@dataclass
class Played:
    """A public 2-seat table where one person played a bot to the end, then left it."""

    table: Table
    client: FakeClient
    #: How many host calls had been made when the game ended (before the linger ran out).
    calls_at_end: int


async def play_whole_game(table: Table) -> Played:
    client = FakeClient("p1", "Salem")
    await seated(table, client)
    table.send(client, "bots")
    table.send(client, "chat", text="good luck")
    await started(table, client)
    await play_to_end(table, client)
    calls_at_end = len(table.host.calls)
    await until(lambda: table.host.count("closed"), "the table to be closed")
    return Played(table, client, calls_at_end)


@pytest.fixture(scope="session")
def jackaroo_game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    async def scenario() -> Played:
        return await play_whole_game(
            await open_table("jackaroo", settings(tmp_path_factory.mktemp("jackaroo")))
        )

    return asyncio.run(scenario())


@pytest.fixture(scope="session")
def buraco_game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    async def scenario() -> Played:
        return await play_whole_game(
            await open_table("buraco", settings(tmp_path_factory.mktemp("buraco")), target=1000)
        )

    return asyncio.run(scenario())


@pytest.fixture(params=["jackaroo", "buraco"])
def played(request: pytest.FixtureRequest) -> Played:
    """Each whole game in turn."""
    game: Played = request.getfixturevalue(f"{request.param}_game")
    return game
