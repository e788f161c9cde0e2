"""The example nginx configuration (deploy/nginx.conf) in front of a real two-node cluster:
nginx runs as a child process with the file's own settings, only its port and its node
addresses replaced, and the clients talk to nginx alone.

Through it: both nodes answer /healthz; two players, spread over the nodes, play a
Jackaroo game to the end while a spectator watches; in a second game the node that owns
the table is killed (SIGKILL), its clients reconnect through nginx with their tokens, the
other node takes the table over once its lease runs out, and the game ends; /readyz
answers 200 all along after the kill, nginx skipping the dead node.

Like the other services, nginx missing skips the test, and fails it when
``SAHRAT_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.asyncio.client import connect

from tests.server.harness import (
    Player,
    Reply,
    Server,
    call,
    free_port,
    run,
    services_required,
)

ROOT = Path(__file__).resolve().parents[3]
CONFIG = ROOT / "deploy" / "nginx.conf"

#: A short lease, so the surviving node takes a dead node's tables over within seconds.
LEASE = {"lease_seconds": 4, "lease_renew_seconds": 1}

#: The node lines of the configuration's upstream: an address and their parameters.
NODE_LINE = re.compile(r"^([ \t]*)server[ \t]+([^\s;]+)([^;\n]*);[ \t]*\n", re.MULTILINE)
LISTEN_LINE = re.compile(r"^([ \t]*)listen[ \t]+[^;\n]+;", re.MULTILINE)


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if found is None:
        if services_required():
            pytest.fail("nginx is required (SAHRAT_REQUIRE_SERVICES=1): not installed")
        pytest.skip("nginx is not installed here")
    return found


def render(text: str, port: int, nodes: list[int]) -> str:
    """The configuration listening on ``127.0.0.1:port`` with ``nodes`` (ports on
    127.0.0.1) as its upstream, each with the parameters of the file's first node line."""
    text, listens = LISTEN_LINE.subn(rf"\g<1>listen 127.0.0.1:{port};", text)
    assert listens == 1, "the configuration should have one listen line"
    lines = list(NODE_LINE.finditer(text))
    assert lines, "the configuration's upstream should list its nodes as `server` lines"
    indent, parameters = lines[0].group(1), lines[0].group(3)
    assert "max_fails=" in parameters and "fail_timeout=" in parameters, parameters
    ours = "".join(f"{indent}server 127.0.0.1:{node}{parameters};\n" for node in nodes)
    return text[: lines[0].start()] + ours + NODE_LINE.sub("", text[lines[0].end() :])


class Balancer:
    """nginx in the foreground, as a child process, with the rendered configuration."""

    def __init__(self, directory: Path, nodes: list[Server]) -> None:
        self.directory = directory
        self.port = free_port()
        self.nodes = nodes
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def error_log(self) -> Path:
        return self.directory / "logs" / "error.log"

    def start(self, binary: str) -> Balancer:
        (self.directory / "logs").mkdir(parents=True, exist_ok=True)
        config = self.directory / "nginx.conf"
        config.write_text(render(CONFIG.read_text(), self.port, [n.port for n in self.nodes]))
        directives = "daemon off;"
        if os.geteuid() == 0:  # else the workers run as nobody, who cannot enter tmp_path
            directives += " user root;"
        command = [binary, "-p", str(self.directory), "-c", str(config), "-g", directives]
        with (self.directory / "stderr.log").open("ab") as err:
            self.process = subprocess.Popen(command, stdout=err, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.logs()}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 1),
            ):
                return self
            assert time.monotonic() < deadline, f"nginx did not start: {self.logs()}"
            time.sleep(0.05)

    def get(self, path: str) -> Reply:
        return call(self, "GET", path)  # type: ignore[arg-type]  # a port is all it needs

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers end, then master
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def logs(self) -> str:
        texts = []
        for path in (self.directory / "stderr.log", self.error_log):
            if path.exists():
                texts.append(path.read_text(errors="replace")[-3000:])
        return "\n".join(texts)


class Browser(Player):
    """A player whose socket goes through the balancer and says where its page came from,
    as a browser does (the node checks that Origin against the Host nginx passes on)."""

    async def connect(self, token: str | None = None) -> dict[str, Any]:
        balancer = self.server
        self.ws = await connect(
            balancer.ws_url,
            max_size=2**22,
            origin=balancer.url,  # type: ignore[arg-type]
        )
        self.messages = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())
        hello: dict[str, Any] = {"type": "hello", "name": self.name}
        if token or self.token:
            hello["token"] = token or self.token
        await self.send(**hello)
        welcome = await self.expect("welcome")
        self.token = welcome["token"]
        self.player_id = welcome["player"]["id"]
        return welcome


@dataclass
class Seat:
    """What one player went through in a game."""

    player: Browser
    reconnects: int = 0
    moving_errors: int = 0
    other_errors: list[str] = field(default_factory=list)
    #: Moves sent, by the ``moves`` of the state they answered (more than one: a repeat).
    acts: dict[int, int] = field(default_factory=dict)
    #: Times nothing came for 5 s while waiting.
    silences: int = 0

    @property
    def repeats(self) -> int:
        return sum(count - 1 for count in self.acts.values())


async def reconnect(seat: Seat, deadline: float) -> None:
    """A new socket through nginx with the same token (retried while nginx or the nodes
    refuse it)."""
    player = seat.player
    await player.close()
    seat.reconnects += 1
    while True:
        try:
            await player.connect()
            return
        except Exception as error:  # refused, reset, or no welcome yet
            if time.monotonic() > deadline:
                raise AssertionError(f"{player.name} could not reconnect: {error!r}") from error
            await asyncio.sleep(0.3)


async def play(seat: Seat, rng: random.Random, stop_at: int | None = None) -> dict[str, Any]:
    """Play random legal moves until the game ends (or ``stop_at`` moves have been
    played), as a client that keeps up through a failover: it answers every ``table``
    message that gives it the turn (the ``moves`` it sends make a repeat harmless),
    sends a move refused with ``table_moving`` again after a pause, sends it again when
    nothing comes for a while, and reconnects with its token when the socket closes."""
    player = seat.player
    deadline = time.monotonic() + 60
    state = player.state
    if state is None or state["table"]["status"] != "playing":
        state = await player.expect("table", lambda m: m["table"]["status"] == "playing")
    prompted = True  # ``state`` has not been answered yet
    while "result" not in state:
        if stop_at is not None and state["moves"] >= stop_at:
            return state
        assert time.monotonic() < deadline, f"{player.name}: the game did not end"
        if prompted and state.get("legal") and state["to_move"] == state["you"]:
            seat.acts[state["moves"]] = seat.acts.get(state["moves"], 0) + 1
            with contextlib.suppress(Exception):  # a closed socket is noticed below
                action = rng.choice(state["legal"])
                await player.send(type="act", action=action, moves=state["moves"])
        prompted = False
        try:
            message = await asyncio.wait_for(player.messages.get(), 5)
        except TimeoutError:
            seat.silences += 1
            prompted = True
            continue
        if message["type"] == "table":
            state = message
            prompted = True
        elif message["type"] == "_closed":
            await reconnect(seat, deadline)
        elif message["type"] == "error":
            if message["code"] == "table_moving":
                seat.moving_errors += 1
                await asyncio.sleep(0.3)
                prompted = True
            else:
                seat.other_errors.append(message["code"])
    return state


async def seated_pair(balancer: Balancer, names: tuple[str, str]) -> tuple[Seat, Seat, str]:
    """Two players through nginx at a new 2-seat Jackaroo table, seeds sent."""
    host, guest = Browser(balancer, names[0]), Browser(balancer, names[1])  # type: ignore[arg-type]
    await host.connect()
    await guest.connect()
    await host.send(type="create", game="jackaroo", seats=2)
    table = (await host.expect("table"))["table"]["id"]
    for _ in range(50):  # the other node may learn of the table a moment later
        await guest.send(type="join", table=table)
        message = await next_of(guest)
        if message["type"] == "table":
            break
        await asyncio.sleep(0.2)
    else:
        raise AssertionError(f"{guest.name} could not join {table}")
    for player in (host, guest):
        await player.expect("seed_request")
        await player.send(type="seed", seed=secrets.token_hex(8))
    return Seat(host), Seat(guest), table


async def next_of(player: Player) -> dict[str, Any]:
    """The next ``table`` or ``error`` message."""
    while True:
        message = await asyncio.wait_for(player.messages.get(), 10)
        if message["type"] in ("table", "error", "_closed"):
            return message


def sockets_at(server: Server) -> int:
    """The sockets a node holds, from its own /metrics (to see where nginx sent them)."""
    reply = call(server, "GET", "/metrics")
    found = re.search(r"^sahrat_sockets (\S+)$", reply.body, re.MULTILINE)
    assert found, reply.body[:500]
    return int(float(found.group(1)))


def test_a_cluster_behind_nginx(
    tmp_path: Path, redis_url: str, prefix: str, fresh_database: str
) -> None:
    binary = nginx_binary()
    nodes = {
        name: Server(
            tmp_path / name,
            fresh_database,
            ["--redis-url", redis_url, "--node-id", name],
            cluster_prefix=prefix,
            **LEASE,
        )
        for name in ("a", "b")
    }
    balancer = Balancer(tmp_path / "nginx", list(nodes.values()))
    try:
        for node in nodes.values():
            node.start()
        balancer.start(binary)
        facts = run(scenario(balancer, nodes, redis_url, prefix), timeout=150)
    except BaseException:
        for name, node in nodes.items():
            print(f"--- node {name}\n{node.log_text()[-3000:]}")
        print(f"--- nginx\n{balancer.logs()}")
        raise
    finally:
        balancer.stop()
        for node in nodes.values():
            node.stop()
    print("facts:", facts)


async def scenario(
    balancer: Balancer, nodes: dict[str, Server], redis_url: str, prefix: str
) -> dict[str, Any]:
    facts: dict[str, Any] = {}

    # Both nodes answer through nginx.
    seen = set()
    for _ in range(10):
        reply = await asyncio.to_thread(balancer.get, "/healthz")
        assert reply.status == 200 and reply.body["ok"] is True, reply
        seen.add(reply.body["node"])
    assert seen == {"a", "b"}
    assert (await asyncio.to_thread(balancer.get, "/readyz")).status == 200

    # A whole game, its players (and spectator) connected through nginx.
    rng = random.Random(7)
    first, second, table = await seated_pair(balancer, ("ali", "badr"))
    spectator = Browser(balancer, "watcher")  # type: ignore[arg-type]
    await spectator.connect()
    await spectator.send(type="watch", table=table)
    await spectator.expect("table")
    spread = {name: await asyncio.to_thread(sockets_at, node) for name, node in nodes.items()}
    assert all(count >= 1 for count in spread.values()), spread  # least_conn spread them
    ends = await asyncio.gather(play(first, rng), play(second, rng))
    watched = await spectator.expect("table", lambda m: "result" in m, timeout=20)
    assert ends[0]["result"] == ends[1]["result"] == watched["result"]
    assert ends[0]["moves"] == ends[1]["moves"] == watched["moves"] > 0
    for seat in (first, second):  # nothing failed: no reconnect, no wait, no error
        assert (seat.reconnects, seat.moving_errors, seat.silences) == (0, 0, 0), seat
        # (but "stale": a repeat of a turn, answering a state sent again when the
        # spectator came, which the move count in the act makes harmless)
        assert set(seat.other_errors) <= {"stale"}, seat
    record = await asyncio.to_thread(balancer.get, ends[0]["result"]["record"])
    assert record.status == 200, record
    facts["first game"] = {"moves": ends[0]["moves"], "sockets": spread}
    for player in (first.player, second.player, spectator):
        await player.close()

    # A second game; the node owning its table dies in the middle.
    host, guest, table = await seated_pair(balancer, ("hala", "dima"))
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        lease = await asyncio.to_thread(client.get, f"{prefix}lease:{table}")
    finally:
        client.close()
    assert lease is not None, "the table should be leased"
    owner = lease.split()[0]
    survivor = next(name for name in nodes if name != owner)
    spread = {name: await asyncio.to_thread(sockets_at, node) for name, node in nodes.items()}
    assert spread == {"a": 1, "b": 1}, spread  # one player on the node to be killed
    middle = await asyncio.gather(play(host, rng, stop_at=30), play(guest, rng, stop_at=30))
    assert all("result" not in state for state in middle), "the game ended too soon"
    killed_at = time.monotonic()
    await asyncio.to_thread(nodes[owner].kill)
    # nginx sends every request to the survivor, from the first one on.
    for _ in range(5):
        reply = await asyncio.to_thread(balancer.get, "/readyz")
        assert reply.status == 200, reply
        reply = await asyncio.to_thread(balancer.get, "/healthz")
        assert reply.status == 200 and reply.body["node"] == survivor, reply
    ends = await asyncio.gather(play(host, rng), play(guest, rng))
    took = time.monotonic() - killed_at
    assert ends[0]["result"] == ends[1]["result"]
    assert ends[0]["moves"] == ends[1]["moves"] > middle[0]["moves"]
    # The host created the table on the node its socket went to: that socket died with it.
    assert host.reconnects >= 1
    for seat in (host, guest):
        assert set(seat.other_errors) <= {"stale"}, seat
    assert (await asyncio.to_thread(balancer.get, "/readyz")).status == 200
    record = await asyncio.to_thread(balancer.get, ends[0]["result"]["record"])
    assert record.status == 200, record
    facts["second game"] = {
        "owner killed": owner,
        "killed at move": middle[0]["moves"],
        "moves": ends[0]["moves"],
        "seconds to the end after the kill": round(took, 1),
        "reconnects": {s.player.name: s.reconnects for s in (host, guest)},
        "table_moving errors": {s.player.name: s.moving_errors for s in (host, guest)},
        "other errors": {s.player.name: s.other_errors for s in (host, guest)},
        "moves sent again": {s.player.name: s.repeats for s in (host, guest)},
        "silences": {s.player.name: s.silences for s in (host, guest)},
    }
    for player in (host.player, guest.player):
        await player.close()
    return facts
