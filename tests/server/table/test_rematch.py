"""Rematches, bots that fill a free table nobody joins, and a free table its last person
leaves, on tables in memory."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sahrat.games import GAMES
from sahrat.server.ledger.transfers import SOURCE, player_account
from sahrat.server.table import TableActor
from sahrat.server.table.events import TurnTimeSet
from sahrat.server.table.inbox import Reseat
from sahrat.server.table.state import CLOSED, FINISHED, PLAYING, SEEDING, WAITING
from tests.server.table.fakes import FakeClient, MemoryLog, RecordingHost, settings
from tests.server.table.tables import (
    Table,
    open_table,
    play_to_end,
    seated,
    settle,
    started,
    table_row,
    until,
)


def run(scenario: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(scenario, 20))


@dataclass
class RematchHost(RecordingHost):
    """A host that opens a rematch as the hub does: a new table in the same log, the
    players seated there by a ``Reseat``."""

    opened: list[TableActor] = field(default_factory=list)
    log: MemoryLog = field(default_factory=MemoryLog)

    async def rematch(
        self, table: Any, seats: dict[int, tuple[str, str, bool]], clients: Sequence[Any]
    ) -> str:
        old = table.table
        row = {
            **table_row(old.rules.name, len(old.seat_numbers), table.settings),
            "stake": old.stake,
        }
        row.update(options=old.options, kind=old.kind, host=old.host)
        actor = TableActor(row, GAMES[row["game"]], table.settings, self, self.log)
        await self.log.append(actor.id, 1, TurnTimeSet(old.turn_seconds), time.time())
        actor.table.seq = 1
        actor.start()
        self.opened.append(actor)
        placed = tuple((n, *seat) for n, seat in sorted(seats.items()))
        actor.post(Reseat(old.id, placed, tuple(clients)))
        return actor.id


async def finished(
    tmp_path: Path, people: int = 2, stake: int = 0, **changes: Any
) -> tuple[Table, list[FakeClient]]:
    """A public 2-seat Jackaroo table played to the end by ``people`` people (a bot in the
    other seat if one; at a coin table of ``stake``, each person holds 1000 coins)."""
    table = await open_table(
        "jackaroo", settings(tmp_path, finished_linger=30.0, **changes), stake=stake
    )
    for player in ("p1", "p2")[:people] if stake else ():
        table.log.balances[player_account(player)] = 1000
        table.log.balances[SOURCE] = table.log.balances.get(SOURCE, 0) - 1000
    host = RematchHost(log=table.log)
    table.actor.host = host
    table.host = host
    clients = [FakeClient("p1", "Salem"), FakeClient("p2", "Huda")][:people]
    await seated(table, *clients)
    if people == 1:
        table.send(clients[0], "bots")
    await started(table, *clients)
    await play_to_end(table, *clients)
    await until(
        lambda: all(c.last("table")["table"]["status"] == FINISHED for c in clients), "the end"
    )  # type: ignore[index]
    return table, clients


def opened(table: Table) -> list[TableActor]:
    host = table.host
    assert isinstance(host, RematchHost)
    return host.opened


def test_everyone_accepting_opens_a_new_table_with_the_same_seats(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (first, second) = await finished(tmp_path)
        seats = {c.player: table.actor.table.seat_of(c.player) for c in (first, second)}
        table.send(first, "rematch")
        await until(lambda: first.last("rematch"), "the first acceptance to be told")
        assert opened(table) == []
        status = second.last("rematch")
        assert status is not None and status["waiting"] == [seats["p2"]]
        table.send(second, "rematch")
        await until(lambda: opened(table), "the new table")
        new = opened(table)[0]
        await until(lambda: new.status == SEEDING, "the new game to start at once")
        assert {c.player: new.table.seat_of(c.player) for c in (first, second)} == seats
        kinds = table.log.kinds(new.id)
        assert kinds[:4] == ["turn_time", "rematch", "seat", "seat"]
        assert new.table.rematch_of == table.actor.id
        assert first.table is new and second.table is new
        told = first.last("rematch")
        assert told is not None and told["next"] == new.id
        await until(lambda: second.last("table")["table"]["id"] == new.id, "the new table shown")  # type: ignore[index]
        await new.stop()
        await table.actor.stop()

    run(scenario())


def test_a_bot_accepts_at_once_at_a_free_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (client,) = await finished(tmp_path, people=1)
        table.send(client, "rematch")
        await until(lambda: opened(table), "the new table")
        new = opened(table)[0]
        await until(lambda: new.status in (SEEDING, PLAYING), "the new game")
        bots = [s for s in new.table.seats.values() if s is not None and s.bot]
        assert len(bots) == 1
        await new.stop()
        await table.actor.stop()

    run(scenario())


def test_someone_going_to_the_lobby_is_not_waited_for(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (first, second) = await finished(tmp_path)
        table.send(first, "rematch")
        await until(lambda: first.last("rematch"), "the acceptance")
        table.send(second, "leave")
        await until(lambda: opened(table), "the new table without the one who left")
        new = opened(table)[0]
        await until(lambda: new.status in (SEEDING, PLAYING), "the new game")
        assert new.table.seat_of("p2") is None and new.table.humans() == ["p1"]
        await new.stop()
        await table.actor.stop()

    run(scenario())


def test_a_rematch_before_the_end_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path))
        first, second = FakeClient("p1"), FakeClient("p2")
        await seated(table, first, second)
        await started(table, first, second)
        rows = len(table.rows)
        table.send(first, "rematch")
        await until(first.errors, "the refusal")
        assert first.errors() == ["wrong_phase"] and len(table.rows) == rows
        await table.actor.stop()

    run(scenario())


def test_withdrawing_an_acceptance(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (first, second) = await finished(tmp_path)
        table.send(first, "rematch")
        table.send(first, "rematch", accept=False)
        table.send(second, "rematch")
        await until(
            lambda: (
                (m := second.last("rematch")) and m["accepted"] == [table.actor.table.seat_of("p2")]
            ),
            "the status",
        )
        await settle()
        assert opened(table) == []
        await table.actor.stop()

    run(scenario())


def test_bots_fill_a_free_table_nobody_joins(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path, autofill_seconds=0.05), seats=4)
        client = FakeClient("p1")
        await seated(table, client)
        await until(lambda: table.actor.status != WAITING, "bots to fill the seats")
        assert [s.bot for s in table.actor.table.seats.values() if s is not None].count(True) == 3
        await table.actor.stop()

    run(scenario())


def test_no_bots_come_to_a_private_table_on_their_own(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table(
            "jackaroo", settings(tmp_path, autofill_seconds=0.02), private=True
        )
        client = FakeClient("p1")
        await seated(table, client)
        await asyncio.sleep(0.1)
        assert table.actor.status == WAITING and table.actor.free_seats()
        await table.actor.stop()

    run(scenario())


def test_a_free_game_its_last_person_leaves_closes(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path, bot_delay=5.0))
        client = FakeClient("p1")
        await seated(table, client)
        table.send(client, "bots")
        await started(table, client)
        table.send(client, "leave")
        await until(lambda: table.host.count("closed"), "the table to close")
        assert table.actor.status == CLOSED and table.log.closed == [table.actor.id]
        assert table.log.kinds(table.actor.id)[-1] == "close"
        await table.actor.stop()

    run(scenario())


def test_the_others_are_told_who_left(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path, bot_delay=5.0))
        first, second = FakeClient("p1", "Salem"), FakeClient("p2", "Huda")
        await seated(table, first, second)
        await started(table, first, second)
        table.send(second, "leave")
        await until(lambda: first.last("player_left"), "the word")
        told = first.last("player_left")
        assert told is not None and told["name"] == "Huda"
        assert table.actor.status == PLAYING  # one person is still there: a bot plays on
        await table.actor.stop()

    run(scenario())


def test_at_a_coin_table_no_bot_comes_and_the_new_stakes_are_taken(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (first, second) = await finished(tmp_path, stake=100)
        table.send(first, "rematch")
        await until(lambda: first.last("rematch"), "the acceptance")
        table.send(second, "leave")  # not coming
        await until(lambda: opened(table), "the new table")
        new = opened(table)[0]
        await until(lambda: new.table.seat_of("p1") is not None, "the seat")
        await settle()
        # The seat of the one who did not come is free: the table waits for the lobby.
        assert new.status == WAITING and new.table.stake == 100
        assert not [s for s in new.table.seats.values() if s is not None and s.bot]
        assert len(new.free_seats()) == 1
        await new.stop()
        await table.actor.stop()

    run(scenario())
