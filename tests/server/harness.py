"""A real server on loopback and real WebSocket clients, for the server's tests.

The server runs as its own process (``sahrat serve``), so a test can kill it
with SIGKILL and start it again on the same database.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.asyncio.client import ClientConnection, connect

T = TypeVar("T")

#: Short times, so clocks, heartbeats and grace periods run out within a test.
FAST = {
    "bot_delay": 0.0,
    "seed_seconds": 1.0,
    "autopilot_ms": 20.0,
    "heartbeat_interval": 0.5,
    "heartbeat_timeout": 2.0,
    "finished_linger": 5.0,
    # The pause after a Buraco hand is for people reading its summary; its own tests set it.
    "hand_pause_seconds": 0.0,
    # Scripted seats answer in microseconds, far faster than the limit meant for people.
    "messages_per_second": 1000.0,
    "message_burst": 1000,
    # Every test client comes from 127.0.0.1; the per-address limits have their own tests.
    "guests_burst": 100_000,
    "tables_burst": 100_000,
}


#: The database every server of a test uses unless it names one: "" is SQLite in the data
#: directory; the ``backend`` fixture sets a PostgreSQL URL for the PostgreSQL run.
DATABASE = {"url": ""}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def services_required() -> bool:
    return os.environ.get("SAHRAT_REQUIRE_SERVICES") == "1"


def postgres_url() -> str | None:
    """A fresh PostgreSQL database for one test run, or None (skip) without the service."""
    import psycopg

    base = os.environ.get("SAHRAT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"sahrat_test_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        if services_required():
            pytest.fail(f"PostgreSQL is required (SAHRAT_REQUIRE_SERVICES=1): {error}")
        return None
    return base.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database, dropped afterwards (the test is skipped without
    PostgreSQL, unless services are required)."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    try:
        yield url
    finally:
        drop_postgres(url)


def drop_postgres(url: str) -> None:
    import psycopg

    base = os.environ.get("SAHRAT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Server:
    """``sahrat serve`` in a child process."""

    def __init__(
        self, data_dir: Path, database_url: str = "", args: Sequence[str] = (), **settings: object
    ) -> None:
        self.data_dir = data_dir
        #: More of the command line (``--redis-url``, ``--node-id``).
        self.args = list(args)
        self.database_url = database_url or DATABASE["url"]
        self.settings = {**FAST, **settings}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(self.port),
                   "--data-dir", str(self.data_dir), "--search-workers", "0"]  # fmt: skip
        if self.database_url:
            command += ["--database-url", self.database_url]
        for name, value in self.settings.items():
            command += ["--set", f"{name}={value}"]
        command += self.args
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                self.get("/api/health")
                return self
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def get(self, path: str, token: str | None = None) -> Any:
        """GET a JSON answer, as the player of ``token`` if one is given."""
        request = urllib.request.Request(self.url + path)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def running(data_dir: Path, database_url: str = "", **settings: object) -> Iterator[Server]:
    server = Server(data_dir, database_url, **settings).start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """One WebSocket client: answers pings, keeps every message it received."""

    def __init__(self, server: Server, name: str = "") -> None:
        self.server = server
        self.name = name
        self.received: list[str] = []
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.player_id = ""
        self.state: dict[str, Any] | None = None
        self._reader: asyncio.Task[None] | None = None
        self.answer_pings = True

    async def connect(self, token: str | None = None) -> dict[str, Any]:
        self.ws = await connect(self.server.ws_url, max_size=2**22)
        opened = _OPENED.get(None)
        if opened is not None:
            opened.append(self)
        self._reader = asyncio.create_task(self._read())
        hello: dict[str, Any] = {"type": "hello"}
        if token or self.token:
            hello["token"] = token or self.token
        if self.name:
            hello["name"] = self.name
        await self.send(**hello)
        welcome = await self.expect("welcome")
        self.token = welcome["token"]
        self.player_id = welcome["player"]["id"]
        return welcome

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                self.received.append(text)
                message = json.loads(text)
                if message["type"] == "ping":
                    if self.answer_pings:
                        await self.send(type="pong")
                    continue
                if message["type"] == "table":
                    self.state = message
                await self.messages.put(message)
        await self.messages.put({"type": "_closed"})

    async def send(self, **message: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"v": 1, **message}))

    async def send_raw(self, data: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def expect(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] = lambda m: True,
        timeout: float = 10.0,
    ) -> dict[str, Any]:
        """The next message of ``kind`` that satisfies ``where`` (earlier ones are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name or self.player_id}: no {kind} message")
            message = await asyncio.wait_for(self.messages.get(), left)
            if message["type"] == kind and where(message):
                return message
            if message["type"] == "_closed" and kind != "_closed":
                raise ConnectionError(f"{self.name or self.player_id}: connection closed")

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while not self.messages.empty():
            out.append(self.messages.get_nowait())
        return out

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


async def error_for(player: Player, **message: Any) -> dict[str, Any]:
    """Send ``message`` and return the error that answers it."""
    await player.send(**message)
    return await player.expect("error")


async def error_after_raw(player: Player, data: str | bytes) -> dict[str, Any]:
    """Send a raw frame and return the error that answers it."""
    await player.send_raw(data)
    return await player.expect("error", timeout=5)


async def still_open(*players: Player) -> None:
    """Each socket answers a ping: it is open and its reader is alive."""
    for player in players:
        await player.send(type="ping", id="alive")
        await player.expect("pong", lambda m: m.get("id") == "alive", timeout=5)


async def all_open(*players: Player) -> bool:
    """:func:`still_open` as a fact to record: False if a socket does not answer."""
    try:
        await still_open(*players)
    except (TimeoutError, ConnectionError):
        return False
    return True


async def within(awaitable: Awaitable[T]) -> T | None:
    """What ``awaitable`` gives, or None if it timed out: for a scenario that records a
    message as a fact for a test to check, rather than failing every test that reads it."""
    try:
        return await awaitable
    except TimeoutError:
        return None


def listed_with(server: Server, player_id: str) -> list[dict[str, Any]]:
    """The lobby's tables (``GET /api/tables``) at which ``player_id`` sits: on a server
    shared by many tests, what one test's player left in the lobby."""
    tables = server.get("/api/tables")["tables"]
    return [t for t in tables if any(p.get("player") == player_id for p in t["players"])]


#: The players a :func:`run` scenario connected, closed when it ends.
_OPENED: contextvars.ContextVar[list[Player]] = contextvars.ContextVar("opened")


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    """Run a test's coroutine with an overall time limit, on an event loop of its own.

    The loop runs in a thread of its own: the browser tests' Playwright keeps an event
    loop running in the main thread for the whole session.
    """

    async def limited() -> Any:
        opened: list[Player] = []
        _OPENED.set(opened)
        try:
            return await asyncio.wait_for(coroutine, timeout)
        finally:
            # A scenario that failed half-way leaves its sockets open: closed here, or
            # their ResourceWarning would fail whichever test the collector runs in.
            for player in opened:
                with contextlib.suppress(Exception):
                    await player.close()

    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, limited()).result()


# -- accounts over REST -------------------------------------------------------------------

#: A password every test account has unless its test chooses another.
PASSWORD = "correct horse 7"


@dataclass(frozen=True)
class Reply:
    """A REST answer: its status, its JSON body (None when empty, the text when not JSON)
    and its headers (names in lower case)."""

    status: int
    body: Any
    headers: dict[str, str]

    @property
    def code(self) -> object:
        return self.body.get("code") if isinstance(self.body, dict) else None


def call(
    server: Server,
    method: str,
    path: str,
    body: object = None,
    token: str = "",
    source: str = "",
) -> Reply:
    """One REST request; any status is an answer. ``body`` is sent as JSON (bytes as they
    are); ``source`` is the loopback address to send from (another client, say
    ``127.0.0.2``: Linux routes all of 127.0.0.0/8 to the loopback)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=10, source_address=(source, 0) if source else None
    )
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        answer: Any = None
        if raw:
            try:
                answer = json.loads(raw)
            except ValueError:  # a page, not JSON: its text
                answer = raw.decode(errors="replace")
        return Reply(response.status, answer, {k.lower(): v for k, v in response.getheaders()})
    finally:
        connection.close()


def unique_name(prefix: str = "u") -> str:
    """An account name nobody on the server has yet (Latin letters and digits)."""
    return prefix + secrets.token_hex(5)


@dataclass(frozen=True)
class Account:
    """A registered account and the token of the session its registration opened."""

    id: str
    name: str
    password: str
    token: str


def new_account(server: Server, name: str = "", password: str = PASSWORD) -> Account:
    name = name or unique_name()
    reply = call(server, "POST", "/api/accounts", {"name": name, "password": password})
    assert reply.status == 201, reply
    player = reply.body["player"]
    return Account(player["id"], player["name"], password, reply.body["token"])


def balance_of(server: Server, token: str) -> int:
    reply = call(server, "GET", "/api/me", token=token)
    assert reply.status == 200, reply
    return int(reply.body["balance"])


async def closed_with(player: Player, timeout: float = 5.0) -> int | None:
    """Wait for the server to close ``player``'s socket; the close code it gave."""
    await player.expect("_closed", timeout=timeout)
    assert player.ws is not None
    return player.ws.close_code


async def hello_reply(server: Server, token: str) -> tuple[Player, dict[str, Any]]:
    """A socket that says hello with ``token``: the player and the server's first answer
    (a ``welcome`` or an ``error``)."""
    player = Player(server)
    player.ws = await connect(server.ws_url)
    player._reader = asyncio.create_task(player._read())
    await player.send(type="hello", token=token)
    while True:
        message = await asyncio.wait_for(player.messages.get(), 10)
        if message["type"] in ("welcome", "error", "_closed"):
            return player, message
