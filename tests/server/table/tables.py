"""Driving a table actor in memory the way the hub does, and waiting for what it does.

The hub binds a player to a table and posts ``FromClient(join)`` (``Hub._sit``);
it posts every other table message after an ``Attach`` when the connection
does not follow the table yet (``Hub._route_to_table``); a closed connection
is detached (``Hub.disconnect``). :class:`Table` does the same, without the
hub's own bookkeeping, so the host's calls are the table's alone.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from sahrat.games import GAMES
from sahrat.server import protocol
from sahrat.server.client import Client
from sahrat.server.settings import Settings
from sahrat.server.table import TableActor
from sahrat.server.table.events import TurnTimeSet
from sahrat.server.table.inbox import Attach, FromClient
from sahrat.server.table.state import FINISHED, PLAYING
from tests.server.table.fakes import FakeClient, MemoryLog, RecordingHost, Row


def game_options(game: str, seats: int, **options: Any) -> dict[str, Any]:
    """The game's options as JSON, as the hub checks them (``table_options``)."""
    checked: dict[str, Any] = GAMES[game].options_from_json(options, seats).to_json()
    return checked


def table_row(
    game: str,
    seats: int,
    settings: Settings,
    private: bool = False,
    stake: int = 0,
    **options: Any,
) -> dict[str, Any]:
    """A new table's row, as ``Hub.create_table`` stores it."""
    return {
        "id": "t" + secrets.token_hex(6),
        "game": game,
        "options": game_options(game, seats, **options),
        "seats": seats,
        "kind": "private" if private else "coin" if stake else "free",
        "stake": stake,
        "host": None,
        "status": "waiting",
        "code": "ABC123" if private else None,
        "turn_seconds": settings.turn_seconds,
    }


@dataclass
class Table:
    """A running actor with its fake host and log."""

    actor: TableActor
    row: dict[str, Any]
    settings: Settings
    host: RecordingHost = field(default_factory=RecordingHost)
    log: MemoryLog = field(default_factory=MemoryLog)

    @property
    def rows(self) -> list[Row]:
        return self.log.of(self.actor.id)

    def sit(self, client: FakeClient, seat: int | None = None) -> None:
        """``Hub._sit``: the join goes to the table, which seats the player or refuses."""
        message: dict[str, Any] = {"v": protocol.VERSION, "type": "join"}
        if seat is not None:
            message["seat"] = seat
        self.actor.post(FromClient(as_client(client), message))

    def send(self, client: FakeClient, kind: str, **fields: Any) -> None:
        """``Hub._route_to_table``: attach the connection if it does not follow the table."""
        if client.table is not self.actor:
            self.actor.post(Attach(as_client(client)))
        message = {"v": protocol.VERSION, "type": kind, **fields}
        self.actor.post(FromClient(as_client(client), message))

    def drop(self, client: FakeClient) -> None:
        """``Hub.disconnect``: the connection closed."""
        client.closed = True
        if client.table is not None:
            client.table.detach(as_client(client))

    def restored(self, host: RecordingHost | None = None) -> TableActor:
        """A new actor for the same table, built from the stored log (not started)."""
        actor = TableActor(
            self.row, GAMES[self.row["game"]], self.settings, host or RecordingHost(), self.log
        )
        actor.restore(self.rows)
        return actor


def as_client(client: FakeClient) -> Client:
    """A fake connection where the inbox's types name a real one (it has what is used)."""
    return cast(Client, client)


async def open_table(
    game: str,
    settings: Settings,
    seats: int = 2,
    private: bool = False,
    stake: int = 0,
    **options: Any,
) -> Table:
    """``Hub.create_table``: the row, the first event (the turn time), the actor started."""
    row = table_row(game, seats, settings, private, stake, **options)
    host, log = RecordingHost(), MemoryLog()
    actor = TableActor(row, GAMES[game], settings, host, log)
    await log.append(actor.id, 1, TurnTimeSet(row["turn_seconds"]), time.time())
    actor.table.seq = 1
    actor.start()
    return Table(actor, row, settings, host, log)


async def until(condition: Callable[[], object], what: str, timeout: float = 5.0) -> None:
    """Let the loop run until ``condition()`` holds; fail saying ``what`` did not happen."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.001)


async def settle(rounds: int = 20) -> None:
    """Let the actor handle what is in its inbox (and timers due now) before checking
    that something did *not* happen."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def seated(table: Table, *clients: FakeClient) -> None:
    """Each client joins, in order, and is shown the table."""
    for client in clients:
        table.sit(client)
        await until(lambda c=client: c.last("table"), f"{client.player} to be shown the table")


async def started(table: Table, *clients: FakeClient) -> None:
    """Each seated client sends its seed; the game begins."""
    for client in clients:
        await until(lambda c=client: c.last("seed_request"), f"a seed request to {client.player}")
        table.send(client, "seed", seed=f"seed-of-{client.player}")
    await until(lambda: table.actor.status == PLAYING, "the game to start")


def to_move(client: FakeClient) -> dict[str, Any] | None:
    """The client's latest ``table`` message if it asks this client to move, else None."""
    message = client.last("table")
    if message is None or not message.get("legal") or message["to_move"] != message["you"]:
        return None
    return message


async def play_to_end(table: Table, *clients: FakeClient, timeout: float = 20.0) -> None:
    """The clients play the first legal move each time they are to move, until the end."""
    acted = dict.fromkeys((c.player for c in clients), -1)
    deadline = time.monotonic() + timeout
    while table.actor.status != FINISHED:
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end ({table.actor.table.moves} moves)")
        for client in clients:
            message = to_move(client)
            if message is not None and message["moves"] > acted[client.player]:
                acted[client.player] = message["moves"]
                table.send(client, "act", action=message["legal"][0], moves=message["moves"])
        await asyncio.sleep(0)
