"""One server process per database.

Every server restores the live tables of its database at start and then acts as their
only writer. Two processes on one database would both restore the same tables and
interleave their moves and clocks, so until servers can share a database (cluster mode)
a second one must refuse to start, before it restores anything or binds its port.

The lock lives exactly as long as the process: the operating system drops a ``flock``
when its file descriptor closes, and PostgreSQL drops a session's advisory lock when its
connection ends, so a server killed with SIGKILL leaves nothing behind to clean up.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, make_url, text
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import NullPool

from sahrat.errors import MalformedInput, SahratError

#: The advisory lock's key: a fixed signed 64-bit number (PostgreSQL's ``bigint``) derived
#: from a name, so it does not collide with keys other software picks by hand. Advisory
#: locks are scoped to the current database, so servers on other databases of the same
#: PostgreSQL cluster do not see each other.
LOCK_NAME = "sahrat.server.instance"
LOCK_KEY = int.from_bytes(hashlib.sha256(LOCK_NAME.encode()).digest()[:8], "big", signed=True)

_CLUSTER_NOTE = (
    "running several server processes on one database needs cluster mode, "
    "which is not available yet; stop the other server or give this one "
    "another --data-dir or --database-url"
)


class DatabaseInUse(SahratError):
    """Another Sahrat server already holds this database."""

    def __init__(self, where: str, holder: str = "") -> None:
        by = f" ({holder})" if holder else ""
        super().__init__(
            f"another Sahrat server{by} is already using this database ({where}); {_CLUSTER_NOTE}"
        )
        self.where = where


def sqlite_path(url: URL) -> Path | None:
    """The database file of a SQLite URL, or None for an in-memory database."""
    database = url.database or ""
    if url.query.get("uri") in ("true", "1") and database.startswith("file:"):
        # ``sqlite:///file:path?mode=...&uri=true``: the path is the URI's path part.
        if url.query.get("mode") == "memory":
            return None
        database = database.removeprefix("file:").split("?", 1)[0]
    if database in ("", ":memory:"):
        return None
    return Path(database).expanduser().absolute()


def describe(url: URL) -> str:
    """Where a database is, for a message: no user name, no password."""
    if url.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        return f"SQLite file {path}" if path else "in-memory SQLite"
    host = url.host or "localhost"
    port = f":{url.port}" if url.port else ""
    return f"PostgreSQL database {url.database or ''!r} on {host}{port}"


class InstanceLock:
    """An exclusive hold on one database for the life of this process.

    :meth:`acquire` raises :class:`DatabaseInUse` when another process holds it. A
    SQLite file is locked through a ``<file>.lock`` file next to it, PostgreSQL through
    a session advisory lock on a connection of its own. Other databases, and in-memory
    SQLite (private to its process anyway), are not locked.
    """

    def __init__(self, database_url: str) -> None:
        try:
            self.url = make_url(database_url)
        except ArgumentError:
            # Not echoed: a URL that does not parse may still carry a password.
            raise MalformedInput(
                "the database URL does not parse (e.g. postgresql+psycopg://user@host/db)"
            ) from None
        self.where = describe(self.url)
        self._fd: int | None = None
        self._engine: Engine | None = None
        self._connection: Connection | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None or self._connection is not None

    def acquire(self) -> InstanceLock:
        if self.held:
            return self
        backend = self.url.get_backend_name()
        if backend == "sqlite":
            self._lock_file()
        elif backend == "postgresql":
            self._lock_postgres()
        return self

    def release(self) -> None:
        """Give the database up; safe to call more than once."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            # The file stays: removing it would race a newcomer that has opened it but not
            # yet locked it; that one would lock the unlinked file, the next a new one.
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        if self._connection is not None:
            connection, self._connection = self._connection, None
            with contextlib.suppress(Exception):
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
            with contextlib.suppress(Exception):
                connection.close()
        if self._engine is not None:
            engine, self._engine = self._engine, None
            engine.dispose()

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()

    # -- SQLite ------------------------------------------------------------------------

    def _lock_file(self) -> None:
        database = sqlite_path(self.url)
        if database is None:
            return
        database.parent.mkdir(parents=True, exist_ok=True)
        path = database.with_name(database.name + ".lock")
        # Not inherited by child processes (os.open's default), so a worker outliving a
        # killed server cannot keep the database locked.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise DatabaseInUse(f"{self.where}, lock file {path}", holder) from None
        except BaseException:
            os.close(fd)
            raise
        # Who holds it, for the message a refused server prints; informative only.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}\n".encode(), 0)
        self._fd = fd

    # -- PostgreSQL ----------------------------------------------------------------------

    def _lock_postgres(self) -> None:
        # Named, so an operator looking at pg_stat_activity sees what holds the database.
        connect_args: dict[str, Any] = {"application_name": f"sahrat lock, pid {os.getpid()}"}
        # NullPool: the one connection is the lock; no pool may recycle or share it.
        engine = create_engine(self.url, poolclass=NullPool, connect_args=connect_args)
        try:
            # Autocommit, so the connection idles outside a transaction for the process's
            # whole life (an open transaction would trip idle_in_transaction timeouts).
            connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        except BaseException:
            engine.dispose()
            raise
        try:
            won = bool(
                connection.execute(
                    text("SELECT pg_try_advisory_lock(:key)"), {"key": LOCK_KEY}
                ).scalar_one()
            )
        except BaseException:
            connection.close()
            engine.dispose()
            raise
        if not won:
            connection.close()
            engine.dispose()
            raise DatabaseInUse(self.where)
        self._engine = engine
        self._connection = connection


def _read_holder(fd: int) -> str:
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return os.pread(fd, 64, 0).decode().strip()
    return ""
