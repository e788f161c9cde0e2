"""Storage: tables, event logs and records, in SQLite or PostgreSQL (players and coins:
:mod:`~sahrat.server.accounts.queries`, :mod:`~sahrat.server.ledger.book`).

Calls are synchronous SQLAlchemy Core, run one at a time on a thread of
their own (:class:`Store` ``.run``), so the event loop never waits on the disk
and writes keep the order they were issued in: an event is committed before
the caller, awaiting it, broadcasts anything. The tables' events go through
:meth:`Store.write`, which commits every write waiting at the end of a loop
turn in one transaction (group commit): one commit for many moves.

On SQLite that commit runs in the event loop's own thread whenever the
database thread is idle: in WAL mode with ``synchronous=NORMAL`` a commit is
a ``write()`` into the WAL file and no ``fsync``, tens of microseconds, far
less than handing the batch to a thread and back (two wake-ups and the GIL
changing hands, per batch). It is as durable as before: the commit has
returned, so the OS holds the data, before any seat is told of the move; a
killed process loses nothing the OS has (a power cut may lose the last
commits, never corrupt the file, as with the thread). While the thread has a
call in flight the batch goes to the thread behind it, so this process never
has two SQLite writers at once. PostgreSQL's commit waits for the network and
the disk, so its batches always go to the thread, one at a time, and the
writes that arrive meanwhile make the next batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from sahrat.server.cluster.fencing import check_fence
from sahrat.server.jsontext import encode
from sahrat.server.ledger import book
from sahrat.server.ledger.transfers import Transfer
from sahrat.server.schema import events, game_players, game_tables, meta, records

T = TypeVar("T")

#: The statuses of a table that a restarted server brings back.
LIVE = ("waiting", "seeding", "playing")
#: Commits in the loop's thread between WAL checkpoints, which run on the database
#: thread instead: a checkpoint copies the WAL into the database and syncs both, which
#: SQLite would otherwise do inside whichever commit passes 1000 pages, stopping the
#: loop for milliseconds.
CHECKPOINT_EVERY = 500


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event of a table's log as stored: its number, kind, data and time."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class _Write:
    """A write waiting for the next group commit."""

    fn: Callable[..., None]
    args: tuple[Any, ...]
    future: asyncio.Future[None]


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL keeps readers off the writer's back; a committed event survives
            # the process being killed (the OS has it), which is what a restart needs.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (creating it on first start)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("sahrat.server") / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The database, with blocking calls run in order on one thread."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sahrat-db")
        #: Group commits may run in the loop's thread (see the module's docstring).
        self._inline = url.startswith("sqlite")
        self._pending: list[_Write] = []
        #: A flush is scheduled, or a batch is on the thread (the next waits for it).
        self._flushing = False
        #: Calls handed to the thread and maybe not finished: no inline commit meanwhile.
        self._outstanding: list[Future[Any]] = []
        #: The loop thread's own SQLite connection, for batches of plain events only: the
        #: same pragmas, without SQLAlchemy's work per transaction (checkout, begin,
        #: statement, commit, return: most of a small batch's time).
        self._raw: Any = None
        self._commits = 0
        self._checkpoint: Future[Any] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        done = self._thread.submit(fn, *args)
        self._outstanding.append(done)
        return await asyncio.wrap_future(done)

    async def write(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(connection, *args)`` in a transaction shared with the other writes
        waiting now (group commit); return once it is committed, or raise what it raised.

        Every table waits for its own write before its next, so each log keeps its
        order; batching only lets many tables share one commit.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append(_Write(fn, args, future))
        if not self._flushing:
            self._flushing = True
            # At the end of this loop turn, so every table that moves in it joins.
            loop.call_soon(self._flush)
        await future

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        self._outstanding = [f for f in self._outstanding if not f.done()]
        if self._inline and not self._outstanding:
            try:
                failures = self._commit_plain(batch) or self._commit(batch)
            except BaseException as error:
                failures = [error] * len(batch)
            self._settle(batch, failures)
            self._flushing = False
            return
        try:
            done = self._thread.submit(self._commit, batch)
        except RuntimeError as error:  # the thread is shut down: the server is stopping
            self._settle(batch, [error] * len(batch))
            self._flushing = False
            return
        self._outstanding.append(done)
        asyncio.wrap_future(done).add_done_callback(lambda result: self._committed(batch, result))

    def _committed(self, batch: list[_Write], result: asyncio.Future[Any]) -> None:
        error = result.exception()
        self._settle(batch, [error] * len(batch) if error else result.result())
        if self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        else:
            self._flushing = False

    @staticmethod
    def _settle(batch: list[_Write], failures: Sequence[BaseException | None]) -> None:
        for write, failure in zip(batch, failures, strict=True):
            if write.future.done():
                continue  # its table stopped waiting
            if failure is None:
                write.future.set_result(None)
            else:
                write.future.set_exception(failure)

    def _commit_plain(self, batch: list[_Write]) -> list[BaseException | None]:
        """A batch of plain events in one transaction of the raw connection; an empty
        list (nothing done) if the batch holds anything else, or the transaction failed:
        :meth:`_commit` then does it, and finds whose write it was."""
        rows = []
        for write in batch:
            # A fenced write (cluster mode, so PostgreSQL) needs its check: :meth:`_commit`.
            if write.fn is not append_event or any(write.args[5:]):
                return []
            table_id, seq, kind, data, at = write.args[:5]
            rows.append((table_id, seq, kind, encode(data), at))
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            self._raw.execute("PRAGMA wal_autocheckpoint=0")
        raw = self._raw
        try:
            raw.executemany(_INSERT_EVENT_SQL, rows)
            raw.commit()
        except Exception:
            try:
                raw.rollback()
            except Exception:  # the connection itself failed: a new one next time
                self._raw = None
                with contextlib.suppress(Exception):
                    raw.close()
            return []
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and (
            self._checkpoint is None or self._checkpoint.done()
        ):
            self._commits = 0
            # Not one of the calls an inline commit waits for: a PASSIVE checkpoint runs
            # beside a writer by SQLite's design (it takes no write lock).
            with contextlib.suppress(RuntimeError):  # the thread is shut down
                self._checkpoint = self._thread.submit(self._checkpoint_wal)
        return [None] * len(batch)

    def _checkpoint_wal(self) -> None:
        with self.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def _commit(self, batch: list[_Write]) -> list[BaseException | None]:
        """One transaction for the batch; if it fails, each write alone, so one table's
        refusal (a taken number, a short balance, a stale fence) is its own and the others
        commit."""
        try:
            with self.engine.begin() as c:
                # A move's plain event, the common case, joins one multi-row insert, after
                # one fence check per table: a stale one fails the batch, and each write
                # alone (below) then fails only that table's.
                rows = []
                fences: set[tuple[str, int, str]] = set()
                for write in batch:
                    if write.fn is append_event and not any(write.args[5:6]):
                        rows.append(_event_row(*write.args[:5]))
                        if len(write.args) > 6 and write.args[6] is not None:
                            fences.add((write.args[0], *write.args[6]))
                    else:
                        write.fn(c, *write.args)
                # In one order, so two nodes' batches sharing tables (a takeover under way)
                # do not lock the same fence rows in opposite orders and deadlock.
                for table_id, number, node in sorted(fences):
                    check_fence(c, table_id, number, node)
                if rows:
                    c.execute(_INSERT_EVENT, rows)
            return [None] * len(batch)
        except Exception:
            if len(batch) == 1:
                raise
        failures: list[BaseException | None] = []
        for write in batch:
            try:
                with self.engine.begin() as c:
                    write.fn(c, *write.args)
                failures.append(None)
            except Exception as error:
                failures.append(error)
        return failures

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        if self._raw is not None:
            self._raw.close()
        self.engine.dispose()

    # -- set-up -----------------------------------------------------------------------

    def migrate(self) -> None:
        migrate(self.engine)
        with self.engine.begin() as c:
            book.open_house(c)

    def secret(self) -> bytes:
        """The key that signs session tokens, made on first use and kept in the database."""
        with self.engine.begin() as c:
            row = c.execute(select(meta.c.value).where(meta.c.key == "token_key")).first()
            if row is not None:
                return bytes.fromhex(row[0])
            key = secrets.token_bytes(32)
            c.execute(insert(meta).values(key="token_key", value=key.hex()))
            return key

    # -- tables and their event logs --------------------------------------------------

    def add_table(self, row: dict[str, Any]) -> None:
        values = {**row, "options": encode(row["options"]), "created_at": time.time()}
        with self.engine.begin() as c:
            c.execute(insert(game_tables).values(**values))

    def set_status(self, table_id: str, status: str) -> None:
        values: dict[str, Any] = {"status": status}
        if status == "finished":
            values["finished_at"] = time.time()
        with self.engine.begin() as c:
            c.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

    def live_tables(self) -> list[dict[str, Any]]:
        """Every table not finished, oldest first, with its event log."""
        with self.engine.connect() as c:
            rows = (
                c.execute(
                    select(game_tables)
                    .where(game_tables.c.status.in_(LIVE))
                    .order_by(game_tables.c.created_at)
                )
                .mappings()
                .all()
            )
            out = []
            for row in rows:
                table = dict(row)
                table["options"] = json.loads(table["options"])
                table["events"] = _events(c, table["id"])
                out.append(table)
            return out

    def live_table(self, table_id: str) -> dict[str, Any] | None:
        """One table as :meth:`live_tables` gives it, or None once it is over."""
        with self.engine.connect() as c:
            found = (
                c.execute(
                    select(game_tables).where(
                        game_tables.c.id == table_id, game_tables.c.status.in_(LIVE)
                    )
                )
                .mappings()
                .first()
            )
            if found is None:
                return None
            table = dict(found)
            table["options"] = json.loads(table["options"])
            table["events"] = _events(c, table_id)
            return table

    def record(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(select(records.c.record).where(records.c.table_id == table_id)).first()
            return None if row is None else dict(json.loads(row[0]))


_INSERT_EVENT = insert(events)
_INSERT_EVENT_SQL = "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)"


def _event_row(
    table_id: str, seq: int, kind: str, data: dict[str, Any], at: float
) -> dict[str, Any]:
    return {"table_id": table_id, "seq": seq, "kind": kind, "data": encode(data), "at": at}


def append_event(
    c: Connection,
    table_id: str,
    seq: int,
    kind: str,
    data: dict[str, Any],
    at: float,
    transfers: Sequence[Transfer] = (),
    fence: tuple[int, str] | None = None,
) -> None:
    """An event and the coin transfers that go with it (in the caller's transaction).

    ``fence``: ``(fence, node)`` of the table's owner (cluster mode), checked first:
    :class:`~sahrat.server.cluster.fencing.StaleOwner`, and nothing written, if the
    table has a newer owner."""
    if fence is not None:
        check_fence(c, table_id, *fence)
    c.execute(_INSERT_EVENT, _event_row(table_id, seq, kind, data, at))
    for transfer in transfers:
        book.post(c, transfer, at)


def finish_game(
    c: Connection,
    table_id: str,
    seq: int,
    data: dict[str, Any],
    at: float,
    record: dict[str, Any],
    results: Sequence[dict[str, Any]],
    settlement: Transfer | None,
    fence: tuple[int, str] | None = None,
) -> None:
    """The last event, the record, the status, the players' results and the pot's
    settlement, in the caller's transaction: a game is over and paid, or neither (nor
    if ``fence`` is stale, as for :func:`append_event`)."""
    append_event(c, table_id, seq, "end", data, at, (), fence)
    c.execute(insert(records).values(table_id=table_id, record=encode(record), finished_at=at))
    c.execute(
        update(game_tables)
        .where(game_tables.c.id == table_id)
        .values(status="finished", finished_at=at)
    )
    if results:
        c.execute(insert(game_players), [{**r, "finished_at": at} for r in results])
    if settlement is not None:
        book.post(c, settlement, at)


def _events(c: Connection, table_id: str) -> list[StoredEvent]:
    rows: Any = c.execute(
        select(events.c.seq, events.c.kind, events.c.data, events.c.at)
        .where(events.c.table_id == table_id)
        .order_by(events.c.seq)
    ).all()
    return [
        StoredEvent(int(seq), str(kind), json.loads(str(data)), float(at))
        for seq, kind, data, at in rows
    ]
