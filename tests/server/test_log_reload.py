"""A table whose event log moved on without it reloads from the log, never jams."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.server.conftest import by_seat, close_all, seat_four, shared_server
from tests.server.harness import Player, Server, run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory) as server:
        yield server


@dataclass
class Collided:
    players: list[Player]
    mover: Player
    action: str  # the mover's legal move, refused once
    table_id: str
    error: dict[str, Any]  # the error that answered the move
    log_from: int  # where the server's log stood before the move


async def collided(server: Server) -> Collided:
    """Four at a Jackaroo table; another writer (a second process, an operator) appends the
    table's next event; then the seat to move plays a legal move."""
    players = await seat_four(server, "jackaroo")
    state = players[0].state
    assert state is not None
    table_id = state["table"]["id"]
    mover = by_seat(players)[state["to_move"]]
    db = sqlite3.connect(server.data_dir / "sahrat.db")
    (seq,) = db.execute("SELECT max(seq) FROM events WHERE table_id = ?", (table_id,)).fetchone()
    line = {"channel": "table", "seat": 1, "name": "p1", "text": "written elsewhere",
            "to": [0, 1, 2, 3], "at": time.time()}  # fmt: skip
    db.execute(
        "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, 'chat', ?, ?)",
        (table_id, seq + 1, json.dumps(line), time.time()),
    )
    db.commit()
    db.close()
    assert mover.state is not None
    action = mover.state["legal"][0]
    log_from = len(server.log_text())
    await mover.send(type="act", action=action, moves=0, id="first")
    error = await mover.expect("error")
    return Collided(players, mover, action, table_id, error, log_from)


def test_a_move_that_meets_an_event_stored_elsewhere_is_unavailable(server: Server) -> None:
    async def scenario() -> None:
        c = await collided(server)
        assert c.error["code"] == "unavailable" and c.error["id"] == "first"
        await close_all(*c.players)

    run(scenario())


def test_every_seat_is_attached_to_the_reloaded_table_with_the_stored_event(
    server: Server,
) -> None:
    async def scenario() -> None:
        c = await collided(server)
        for player in c.players:
            history = await player.expect("chat_history", timeout=10)
            assert [m["text"] for m in history["messages"]] == ["written elsewhere"]
            await player.expect("table", lambda m: m["moves"] == 0, timeout=10)
        await close_all(*c.players)

    run(scenario())


def test_the_move_is_taken_once_the_table_has_reloaded(server: Server) -> None:
    async def scenario() -> None:
        c = await collided(server)
        for player in c.players:
            await player.expect("table", lambda m: m["moves"] == 0, timeout=10)
        await c.mover.send(type="act", action=c.action, moves=0, id="again")
        for player in c.players:
            after = await player.expect("table", lambda m: m["moves"] == 1, timeout=10)
            assert after["table"]["status"] == "playing"
        await close_all(*c.players)

    run(scenario())


def test_the_server_logs_the_reload(server: Server) -> None:
    async def scenario() -> None:
        c = await collided(server)
        for player in c.players:
            await player.expect("table", lambda m: m["moves"] == 0, timeout=10)
        logged = server.log_text()[c.log_from :].splitlines()
        assert any(c.table_id in line and "reloading" in line for line in logged)
        await close_all(*c.players)

    run(scenario())
