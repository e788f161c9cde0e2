"""Group commit: the writes waiting at one moment share a transaction, and one table's
refusal stays its own (on SQLite through the loop's own connection, on PostgreSQL
through the database thread)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from sahrat.server.store import Store, append_event
from tests.server.conftest import database

TABLES = [f"t{n}" for n in range(8)]


@pytest.fixture
def store(backend: str, tmp_path: Path) -> Iterator[Store]:
    with database(backend) as url:
        store = Store(url or f"sqlite:///{tmp_path / 'sahrat.db'}")
        store.migrate()
        for table_id in TABLES:
            store.add_table({"id": table_id, "game": "jackaroo", "options": {}, "seats": 4,
                             "kind": "free", "status": "playing"})  # fmt: skip
        try:
            yield store
        finally:
            store.close()


def stored(store: Store, table_id: str) -> list[tuple[int, dict[str, object]]]:
    table = store.live_table(table_id)
    assert table is not None
    return [(event.seq, event.data) for event in table["events"]]


async def write_all(store: Store, seq: int) -> list[BaseException | None]:
    results = await asyncio.gather(
        *(store.write(append_event, t, seq, "move", {"n": seq, "t": t}, 1.0, ())
          for t in TABLES),
        return_exceptions=True,
    )  # fmt: skip
    return [r if isinstance(r, BaseException) else None for r in results]


def test_a_batch_commits_every_tables_event(store: Store) -> None:
    assert asyncio.run(write_all(store, 1)) == [None] * len(TABLES)
    assert all(stored(store, t) == [(1, {"n": 1, "t": t})] for t in TABLES)


def test_a_taken_number_fails_its_own_write_and_no_other(store: Store) -> None:
    async def scenario() -> list[BaseException | None]:
        await store.write(append_event, "t3", 1, "move", {"early": True}, 1.0, ())
        return await write_all(store, 1)

    failures = asyncio.run(scenario())
    assert [t for t, f in zip(TABLES, failures, strict=True) if f is not None] == ["t3"]
    assert isinstance(failures[3], IntegrityError)
    assert stored(store, "t3") == [(1, {"early": True})]
    assert all(stored(store, t) == [(1, {"n": 1, "t": t})] for t in TABLES if t != "t3")


def test_writes_while_the_database_thread_is_busy_wait_for_it_in_order(store: Store) -> None:
    async def scenario() -> list[BaseException | None]:
        # A call on the database thread is in flight: the batch goes to the thread too.
        reading = asyncio.ensure_future(store.run(store.live_tables))
        failures = await write_all(store, 1)
        await reading
        return failures + await write_all(store, 2)

    assert asyncio.run(scenario()) == [None] * (2 * len(TABLES))
    assert all([seq for seq, _ in stored(store, t)] == [1, 2] for t in TABLES)
