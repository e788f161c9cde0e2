"""Fenced event logs: every write of a table carries its owner's fence, a stale owner's
write stores nothing and moves no coin (alone, or in a group commit beside fresh ones),
and a table whose node lost it stops, telling those waiting on it that it moves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from sahrat.games import GAMES
from sahrat.server.cluster.fencing import check_fence, stored_fence
from sahrat.server.ledger import book
from sahrat.server.ledger.transfers import (
    escrow_account,
    player_account,
    settle,
    settlement_transfer,
    stakes,
    starting_grant,
)
from sahrat.server.schema import events, game_tables, records, transfers
from sahrat.server.store import Store
from sahrat.server.table import TableActor
from sahrat.server.table.events import Chatted, Committed, Ended, Event, TurnTimeSet
from sahrat.server.table.host import SeatResult, TableLost
from sahrat.server.table_log import StoreLog
from tests.server.conftest import database
from tests.server.table.fakes import FakeClient, MemoryLog, RecordingHost, settings
from tests.server.table.tables import Table, seated, started, table_row, until
from tests.server.table.tables import settle as settle_loop
from tests.server.table.test_actor import turn_of

STAKE = 100


class Node:
    """One server process's view of the database: its own store, and the leases it holds."""

    def __init__(self, url: str, name: str) -> None:
        self.store = Store(url)
        self.name = name
        #: The fence of each table this node holds a lease on.
        self.held: dict[str, int] = {}
        self.log = StoreLog(self.store, self.fence)

    def fence(self, table_id: str) -> tuple[int, str] | None:
        number = self.held.get(table_id)
        return None if number is None else (number, self.name)

    def take(self, table_id: str, fence: int) -> None:
        """A takeover: the lease, then the claim that fences the old owner out."""
        self.held[table_id] = fence
        with self.store.engine.begin() as c:
            check_fence(c, table_id, fence, self.name)


@pytest.fixture
def nodes(backend: str, tmp_path: Path) -> Iterator[tuple[Node, Node]]:
    with database(backend) as url:
        url = url or f"sqlite:///{tmp_path / 'sahrat.db'}"
        a, b = Node(url, "a"), Node(url, "b")
        a.store.migrate()
        try:
            yield a, b
        finally:
            a.store.close()
            b.store.close()


def add_table(store: Store, table_id: str, stake: int = 0) -> None:
    store.add_table({"id": table_id, "game": "jackaroo", "options": {}, "seats": 2,
                     "kind": "coin" if stake else "free", "stake": stake,
                     "status": "playing"})  # fmt: skip


def stored(store: Store, table_id: str) -> int:
    with store.engine.connect() as c:
        query = select(func.count()).select_from(events).where(events.c.table_id == table_id)
        return int(c.execute(query).scalar_one())


def chat(n: int) -> Event:
    return Chatted(seat=0, name="Salem", text=f"line {n}", to=(0, 1), at=1.0)


def test_a_stale_owner_stores_nothing_and_the_new_one_goes_on(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    add_table(a.store, "t1")
    a.held["t1"] = 1

    async def scenario() -> None:
        await a.log.append("t1", 1, chat(1), 1.0)
        with a.store.engine.connect() as c:
            assert stored_fence(c, "t1") == 1  # the write carried its fence
        b.take("t1", 2)
        with pytest.raises(TableLost):
            await a.log.append("t1", 2, chat(2), 2.0)
        assert stored(a.store, "t1") == 1
        await b.log.append("t1", 2, chat(2), 2.0)
        assert stored(b.store, "t1") == 2

    asyncio.run(scenario())


def test_in_one_group_commit_only_the_stale_tables_write_fails(
    nodes: tuple[Node, Node], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = nodes
    for table_id in ("stale", "fresh"):
        add_table(a.store, table_id)
        a.held[table_id] = 1
    b.take("stale", 2)
    batches: list[int] = []
    commit = a.store._commit

    def counted(batch: list[Any]) -> list[BaseException | None]:
        batches.append(len(batch))
        return commit(batch)

    monkeypatch.setattr(a.store, "_commit", counted)

    async def scenario() -> list[BaseException | None]:
        results = await asyncio.gather(
            a.log.append("stale", 1, chat(1), 1.0),
            a.log.append("fresh", 1, chat(1), 1.0),
            return_exceptions=True,
        )
        return [r if isinstance(r, BaseException) else None for r in results]

    stale, fresh = asyncio.run(scenario())
    assert batches == [2]  # one transaction for both, then each alone
    assert isinstance(stale, TableLost) and fresh is None
    assert stored(a.store, "stale") == 0 and stored(a.store, "fresh") == 1


def test_a_stale_finish_records_nothing_and_moves_no_coin(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    add_table(a.store, "coin", STAKE)
    players = {0: "p1", 1: "p2"}
    with a.store.engine.begin() as c:
        for player in players.values():
            book.post(c, starting_grant(player, 1000), 1.0)
    a.held["coin"] = 1
    settlement = settlement_transfer("coin", settle(STAKE, (0, 1), {0}, set()), players)
    no_results: Sequence[SeatResult] = ()

    def coins() -> dict[str, int]:
        accounts = [player_account(p) for p in players.values()] + [escrow_account("coin")]
        with a.store.engine.connect() as c:
            return {account: book.balance(c, account) for account in accounts}

    def state() -> tuple[Any, ...]:
        with a.store.engine.connect() as c:
            status = c.execute(select(game_tables.c.status).where(game_tables.c.id == "coin"))
            settled = (
                select(func.count()).select_from(transfers).where(transfers.c.kind == "settle")
            )
            return (
                status.scalar_one(),
                c.execute(select(func.count()).select_from(records)).scalar_one(),
                c.execute(settled).scalar_one(),
                stored(a.store, "coin"),
                coins(),
            )

    async def scenario() -> None:
        # The stakes go with a fenced event too.
        await a.log.append("coin", 1, Committed("00"), 1.0, stakes("coin", STAKE, players))
        b.take("coin", 2)
        before = state()
        assert before == ("playing", 0, 0, 1, {"player:p1": 900, "player:p2": 900,
                                                "escrow:coin": 200})  # fmt: skip
        with pytest.raises(TableLost):
            await a.log.finish("coin", 2, Ended((0,)), 2.0, {"game": "jackaroo"}, no_results,
                               settlement)  # fmt: skip
        assert state() == before
        await b.log.finish("coin", 2, Ended((0,)), 2.0, {"game": "jackaroo"}, no_results,
                           settlement)  # fmt: skip
        assert state()[:4] == ("finished", 1, 1, 2)
        assert coins()["escrow:coin"] == 0

    asyncio.run(scenario())


def test_without_a_lease_nothing_is_written(nodes: tuple[Node, Node]) -> None:
    a, _ = nodes
    add_table(a.store, "t1")

    async def scenario() -> None:
        with pytest.raises(TableLost):
            await a.log.append("t1", 1, chat(1), 1.0)
        with pytest.raises(TableLost):
            await a.log.finish("t1", 1, Ended(), 1.0, {"game": "jackaroo"}, (), None)

    asyncio.run(scenario())
    assert stored(a.store, "t1") == 0
    with a.store.engine.connect() as c:
        assert stored_fence(c, "t1") == 0  # not even a claim


# -- a table that loses its log stops -----------------------------------------------------


class LosingLog(MemoryLog):
    """A ``MemoryLog`` whose writes, once ``lost`` is set, find the table owned elsewhere."""

    lost = False

    async def append(
        self, table_id: str, seq: int, event: Event, at: float, transfers: Sequence[Any] = ()
    ) -> None:
        if self.lost:
            raise TableLost(table_id)
        await super().append(table_id, seq, event, at, transfers)


def test_a_table_that_lost_its_log_stops_and_says_it_is_moving(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = settings(tmp_path)
        row = table_row("jackaroo", 2, config)
        host, log = RecordingHost(), LosingLog()
        actor = TableActor(row, GAMES["jackaroo"], config, host, log)
        await log.append(actor.id, 1, TurnTimeSet(row["turn_seconds"]), time.time())
        actor.table.seq = 1
        actor.start()
        table = Table(actor, row, config, host, log)
        first, second = FakeClient("p1", "Salem"), FakeClient("p2", "Huda")
        await seated(table, first, second)
        await started(table, first, second)
        mover, message = await turn_of(table, first, second)
        other = second if mover is first else first
        stored_rows = len(table.rows)
        sent = {client.player: len(client.sent) for client in (first, second)}
        log.lost = True
        table.send(mover, "act", action=message["legal"][0], id="a")
        table.send(other, "chat", text="still there?", id="b")  # waiting behind the act
        task = actor._task
        assert task is not None
        await until(task.done, "the actor to stop")
        await settle_loop()
        assert mover.of_type("error")[-1] == {
            "v": 1, "type": "error", "code": "table_moving", "id": "a",
            "message": "the table is moving to another server; try again",
        }  # fmt: skip
        answer = other.of_type("error")[-1]
        assert (answer["code"], answer["id"]) == ("table_moving", "b")
        for client in (first, second):
            # Their answer, and nothing else: no table, no chat line.
            assert len(client.sent) == sent[client.player] + 1
        assert host.count("lost") == 1 and host.tables[-1] is actor
        assert host.count("closed") == host.count("diverged") == 0
        assert len(table.rows) == stored_rows and actor.table.moves == message["moves"]
        assert task.exception() is None

    asyncio.run(asyncio.wait_for(scenario(), 20))
