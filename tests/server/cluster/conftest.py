"""Fixtures for cluster mode's tests: Redis (the machine's, with a key prefix of each
test's own, or one a test starts and restarts), and a migrated PostgreSQL database.

Like PostgreSQL's tests, Redis's skip when the service is absent and fail when
``SAHRAT_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from sahrat.server.store import make_engine, migrate
from tests.server.harness import drop_postgres, free_port, postgres_url, services_required

REDIS_URL = os.environ.get("SAHRAT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _require(what: str, why: str) -> None:
    if services_required():
        pytest.fail(f"{what} is required (SAHRAT_REQUIRE_SERVICES=1): {why}")
    pytest.skip(f"{what} is not available here: {why}")


@pytest.fixture
def redis_url() -> str:
    """The machine's Redis (skipped without it, unless services are required)."""
    host_port = REDIS_URL.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.partition(":")
    if not _answers(host, int(port or 6379)):
        _require("Redis", f"nothing answers at {host_port}")
    return REDIS_URL


@pytest.fixture
def prefix() -> str:
    """Keys of this test's own, so tests running side by side never meet."""
    return f"sahrat-test:{secrets.token_hex(6)}:"


class SpareRedis:
    """A ``redis-server`` of a test's own, keeping nothing on disk, that it may stop and
    start again on the same port (a restart: everything in it is forgotten)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not _answers("127.0.0.1", self.port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def spare_redis(tmp_path: Path) -> Iterator[SpareRedis]:
    if shutil.which("redis-server") is None:
        _require("redis-server", "not installed")
    spare = SpareRedis(tmp_path)
    spare.start()
    try:
        yield spare
    finally:
        spare.stop()


@pytest.fixture
def pg_engine() -> Iterator[Engine]:
    """A new PostgreSQL database, migrated, dropped afterwards."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    engine = make_engine(url)
    try:
        migrate(engine)
        yield engine
    finally:
        engine.dispose()
        drop_postgres(url)


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'sahrat.db'}")
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()
