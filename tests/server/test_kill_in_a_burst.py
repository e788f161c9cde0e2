"""A kill in a burst of moves: whatever any seat saw is still there after the restart.

Events are committed in batches (group commit, on SQLite in the event loop's own
thread), and a table tells its seats of a move only once the move is committed.
Here twelve tables play as fast as their four scripted seats answer, the server is
killed with SIGKILL in the middle of it, and started again on the same database:
for every table, the number of moves its restored game has must be at least the
highest number any seat was ever told.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.server.harness import Server, run

TABLES = 12
SEATS = 4
#: Moves seen across all tables before the kill: well into the burst, far from any end.
KILL_AFTER_MOVES = 600


@dataclass
class Seat:
    ws: ClientConnection
    token: str = ""
    table: str = ""


@dataclass
class Burst:
    #: table -> the highest ``moves`` any of its seats was told before the kill
    seen: dict[str, int] = field(default_factory=dict)
    #: table -> a token of one of its seats
    tokens: dict[str, str] = field(default_factory=dict)
    #: table -> the ``moves`` the restored table reports to that seat
    restored: dict[str, int] = field(default_factory=dict)
    statuses: list[str] = field(default_factory=list)


async def send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps({"v": 1, **message}))


async def play_until_killed(server: Server, burst: Burst) -> None:
    rng = random.Random(7)
    killed = asyncio.Event()
    total = 0

    async def seat_loop(seat: Seat, first: bool, seats: list[Seat]) -> None:
        nonlocal total
        try:
            async for raw in seat.ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "welcome":
                    seat.token = message["token"]
                elif kind == "ping":
                    await send(seat.ws, type="pong")
                elif kind == "seed_request":
                    await send(seat.ws, type="seed", seed=f"s{rng.getrandbits(40):x}")
                elif kind == "table":
                    table = message["table"]["id"]
                    if first and not seat.table:
                        for other in seats[1:]:
                            await send(other.ws, type="join", table=table)
                    seat.table = table
                    burst.tokens.setdefault(table, seat.token)
                    moves = message["moves"]
                    if moves > burst.seen.get(table, 0):
                        total += moves - burst.seen.get(table, 0)
                        burst.seen[table] = moves
                        if total >= KILL_AFTER_MOVES and not killed.is_set():
                            killed.set()
                    legal = message.get("legal")
                    if legal and not killed.is_set():
                        await send(seat.ws, type="act", action=rng.choice(legal), moves=moves)
        except ConnectionClosed:
            pass

    readers = []
    for _ in range(TABLES):
        seats = [Seat(await connect(server.ws_url, max_size=2**22)) for _ in range(SEATS)]
        for seat in seats:
            await send(seat.ws, type="hello")
        readers += [asyncio.create_task(seat_loop(s, n == 0, seats)) for n, s in enumerate(seats)]
        await send(seats[0].ws, type="create", game="jackaroo", seats=SEATS)
    await asyncio.wait_for(killed.wait(), 90)
    # The moves already sent are still arriving: the kill falls in the middle of them.
    await asyncio.to_thread(server.kill)
    await asyncio.gather(*readers, return_exceptions=True)


async def come_back(server: Server, burst: Burst) -> None:
    for table, token in burst.tokens.items():
        async with connect(server.ws_url, max_size=2**22) as ws:
            await send(ws, type="hello", token=token)
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "table" and message["table"]["id"] == table:
                    burst.restored[table] = message["moves"]
                    burst.statuses.append(message["table"]["status"])
                    break


@pytest.fixture(scope="module")
def burst(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Burst:
    from tests.server.conftest import database

    with database(backend) as url:
        data_dir: Path = tmp_path_factory.mktemp("burst")
        server = Server(data_dir, url, messages_per_second=100_000, message_burst=100_000)
        server.start()
        try:
            found = Burst()
            run(play_until_killed(server, found))
            server.start()
            run(come_back(server, found))
            return found
        finally:
            server.stop()


def test_the_kill_fell_in_a_burst_of_moves_on_every_table(burst: Burst) -> None:
    assert len(burst.seen) == TABLES
    assert sum(burst.seen.values()) >= KILL_AFTER_MOVES
    assert all(moves > 0 for moves in burst.seen.values())


def test_every_table_is_back_in_play_after_the_restart(burst: Burst) -> None:
    assert sorted(burst.restored) == sorted(burst.seen)
    assert set(burst.statuses) == {"playing"}


def test_no_seat_saw_a_move_the_restarted_server_does_not_have(burst: Burst) -> None:
    missing = {t: (seen, burst.restored[t]) for t, seen in burst.seen.items()
               if burst.restored[t] < seen}  # fmt: skip
    assert missing == {}
