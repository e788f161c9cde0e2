"""One server per database: a second ``sahrat serve`` on it refuses to start."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sahrat.server.instance_lock import DatabaseInUse, InstanceLock
from tests.server import harness
from tests.server.harness import Player, Server, drop_postgres, free_port, postgres_url, run

#: A refused server has only to import the server and try the lock; this is generous.
REFUSAL_SECONDS = 15.0


def serve_once(
    data_dir: Path, database_url: str = ""
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``sahrat serve`` expecting it to exit by itself: its result and how long it took."""
    data_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(free_port()),
               "--data-dir", str(data_dir), "--search-workers", "0"]  # fmt: skip
    if database_url:
        command += ["--database-url", database_url]
    began = time.monotonic()
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=REFUSAL_SECONDS + 15, check=False
    )
    return done, time.monotonic() - began


async def still_serves(server: Server) -> None:
    """The server answers REST, and a new WebSocket client says hello and opens a table."""
    assert server.get("/api/health")["ok"] is True
    newcomer = Player(server, "late")
    await newcomer.connect()
    await newcomer.send(type="create", game="buraco", seats=2)
    state = await newcomer.expect("table")
    assert state["table"]["status"] == "waiting"
    assert server.get(f"/api/tables/{state['table']['id']}")["free"] == 1
    await newcomer.close()


def test_a_second_server_on_the_same_database_refuses_to_start(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario() -> None:
        first = Server(tmp_path / "first").start()
        try:
            player = Player(first, "p0")
            await player.connect()
            await player.send(type="create", game="jackaroo", seats=4)
            table_id = (await player.expect("table"))["table"]["id"]
            # On SQLite the data directory is the database; on PostgreSQL the URL is, so
            # the second server there even has a data directory of its own.
            second_dir = tmp_path / ("second" if database_url else "first")
            # In a thread: the player's socket keeps answering the first server's pings
            # while the second one starts and stops, however long that takes.
            done, took = await asyncio.to_thread(serve_once, second_dir, database_url)
            assert done.returncode == 1, done.stderr
            assert took < REFUSAL_SECONDS
            assert "another Sahrat server" in done.stderr
            assert "already using this database" in done.stderr
            assert "cluster mode" in done.stderr
            assert "Traceback" not in done.stderr
            if database_url:
                assert database_url.rsplit("/", 1)[1] in done.stderr
            else:
                assert str(tmp_path / "first" / "sahrat.db") in done.stderr
                assert f"pid {first.process.pid}" in done.stderr  # type: ignore[union-attr]
            # It stopped before it announced itself, let alone served.
            assert "open http" not in done.stdout
            # The first server did not notice: same table, still serving.
            assert first.process.poll() is None  # type: ignore[union-attr]
            assert first.get(f"/api/tables/{table_id}")["free"] == 3
            await still_serves(first)
            # A connection from before the refused start still plays its part.
            await player.send(type="chat", text="still here")
            assert (await player.expect("chat"))["text"] == "still here"
            await player.close()
        finally:
            first.stop()

    run(scenario())


def test_after_the_server_is_killed_a_new_one_starts_on_the_same_database(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario() -> None:
        server = Server(tmp_path).start()
        try:
            a = Player(server, "a")
            await a.connect()
            await a.send(type="create", game="jackaroo", seats=4)
            table_id = (await a.expect("table"))["table"]["id"]
            # SIGKILL: none of the server's own code runs; the system alone drops the lock.
            server.kill()
            await a.close()
            server.port = free_port()
            server.start()
            assert server.get(f"/api/tables/{table_id}")["free"] == 3
            await still_serves(server)
            # And the new server holds the database in its turn.
            done, _ = serve_once(tmp_path / "other" if database_url else tmp_path, database_url)
            assert done.returncode == 1, done.stderr
            assert "already using this database" in done.stderr
        finally:
            server.stop()

    run(scenario())


def test_servers_on_different_databases_do_not_lock_each_other(tmp_path: Path) -> None:
    """The lock is the database's, not the machine's: a second data directory is fine."""
    with harness.running(tmp_path / "one") as one, harness.running(tmp_path / "two") as two:
        assert one.get("/api/health")["ok"] and two.get("/api/health")["ok"]


# -- the lock itself, in this process ----------------------------------------------------
#
# A flock belongs to an open file and an advisory lock to a database session, so two
# InstanceLocks in one process exclude each other just as two processes do.


def test_a_sqlite_file_lock_excludes_a_second_holder_until_released(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'not' / 'yet' / 'sahrat.db'}"
    with InstanceLock(url) as first:
        assert first.held
        assert (tmp_path / "not" / "yet" / "sahrat.db.lock").exists()
        with pytest.raises(DatabaseInUse) as refused:
            InstanceLock(url).acquire()
        message = str(refused.value)
        assert str(tmp_path / "not" / "yet" / "sahrat.db") in message
        assert "cluster mode" in message
    assert not first.held
    second = InstanceLock(url).acquire()
    second.release()
    second.release()  # twice is harmless


def test_in_memory_sqlite_takes_no_lock() -> None:
    with InstanceLock("sqlite://") as one, InstanceLock("sqlite:///:memory:") as two:
        assert not one.held and not two.held


def test_a_postgres_advisory_lock_excludes_a_second_session_of_that_database() -> None:
    url = postgres_url()
    other = postgres_url()
    if url is None or other is None:
        pytest.skip("PostgreSQL is not running here")
    try:
        # Trust authentication ignores the password; the message must not show it.
        with_secret = url.replace("://postgres@", "://postgres:s3cret@")
        with InstanceLock(with_secret) as first:
            assert first.held
            with pytest.raises(DatabaseInUse) as refused:
                InstanceLock(url).acquire()
            message = str(refused.value)
            assert repr(url.rsplit("/", 1)[1]) in message and "127.0.0.1:5432" in message
            assert "s3cret" not in message and "postgres@" not in message
            # Advisory locks are per database: another database on the cluster is free.
            with InstanceLock(other) as elsewhere:
                assert elsewhere.held
        with InstanceLock(url) as again:
            assert again.held
    finally:
        drop_postgres(url)
        drop_postgres(other)
