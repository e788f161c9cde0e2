"""Seats that keep playing whatever happens to the nodes under them: for the cluster's
fault tests.

A :class:`Seat` is one player at one table of a cluster. It plays random legal moves
after a short think, and whenever its socket closes, or nothing reaches it for a while
(a stopped node, views lost with Redis), it says hello with its token to another live
node. A move that got no answer is sent again with the same ``moves`` (the server
answers ``stale`` to one it has applied already, and then the seat reconnects to see
where the table is); ``table_moving`` is retried after a short pause. Everything any of
its sockets received is kept, for the privacy checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from tests.server.harness import Player, Server

#: Seconds a seat waits for the answer to a move before it sends it again.
RESEND_AFTER = 2.5
#: Seconds without a frame (the server pings every second) before a seat takes its node
#: for gone and tries another, and without any message but pings before it asks again
#: where its table is (views lost on the way).
QUIET = 3.0
SILENCE = 6.0
#: A seat's think before each move, in seconds.
THINK = (0.02, 0.08)


class Nodes:
    """The cluster as the clients see it: the servers by node id, and which are alive
    (a test takes a node out of ``live`` when it kills or stops it)."""

    def __init__(self, servers: dict[str, Server]) -> None:
        self.servers = servers
        self.live = set(servers)

    def pick(self, rng: random.Random, avoid: str | None = None) -> str:
        others = sorted(self.live - {avoid})
        return rng.choice(others or sorted(self.live))


@dataclass
class Seat:
    name: str
    node: str
    rng: random.Random
    token: str | None = None
    table: str = ""
    game: str = ""
    you: int = -1
    #: Every socket this seat opened, in order (their ``received`` texts are kept).
    sockets: list[Player] = field(default_factory=list)
    state: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    resends: int = 0
    closing: list[asyncio.Task[None]] = field(default_factory=list)
    #: The last things that happened to this seat, for a failure's message.
    trail: deque[str] = field(default_factory=lambda: deque(maxlen=12))

    def note(self, what: str) -> None:
        self.trail.append(f"{time.time() % 1000:.1f} {self.node} {what}")

    @property
    def player(self) -> Player:
        return self.sockets[-1]

    def texts(self) -> list[str]:
        return [text for socket in self.sockets for text in socket.received]

    async def connect(self, nodes: Nodes) -> dict[str, Any]:
        player = Player(nodes.servers[self.node], self.name)
        welcome = await asyncio.wait_for(player.connect(self.token), 10)
        self.token = player.token  # a new guest's
        self.sockets.append(player)
        return welcome

    async def reconnect(self, nodes: Nodes) -> None:
        """Hello with the token to another live node, until one answers."""
        old = self.player
        self.closing.append(asyncio.create_task(quietly_close(old)))
        self.reconnects += 1
        delay = 0.2
        while True:
            node = nodes.pick(self.rng, avoid=self.node)
            player = Player(nodes.servers[node], self.name)
            try:
                await asyncio.wait_for(player.connect(self.token), 5)
            except Exception:  # refused, reset, timed out: another node, a little later
                self.errors["connect"] += 1
                self.closing.append(asyncio.create_task(quietly_close(player)))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self.node = node
            self.sockets.append(player)
            self.note("hello")
            return

    async def send(self, **message: Any) -> bool:
        try:
            await self.player.send(**message)
        except Exception:
            return False
        return True

    def take(self, message: dict[str, Any]) -> None:
        """A ``table`` message of this seat's table: the newest position it knows."""
        if self.state is not None and message["seq"] < self.state["seq"]:
            return  # a view from before one this seat already has (a node late to learn)
        self.state = message
        if self.you < 0 and message.get("you") is not None:
            self.you = message["you"]
        if "result" in message:
            self.final = message

    async def play(self, nodes: Nodes) -> None:
        """Seed, then play until this seat has seen its table's result."""
        acted, action, sent_at = -1, "", 0.0
        heard = pinged = time.monotonic()
        frames = len(self.player.received)
        while self.final is None:
            try:
                message: dict[str, Any] | None = await asyncio.wait_for(
                    self.player.messages.get(), 0.5
                )
            except TimeoutError:
                message = None
            now = time.monotonic()
            resync = False
            if len(self.player.received) != frames:
                frames, pinged = len(self.player.received), now
            if message is not None:
                kind = message["type"]
                self.note(summary(message))
                if kind == "_closed":
                    resync = True
                else:
                    heard = now
                if kind == "table" and message["table"]["id"] == self.table:
                    self.take(message)
                elif kind == "seed_request":
                    await self.send(type="seed", seed=f"s{self.rng.getrandbits(64):x}")
                elif kind == "error":
                    code = message["code"]
                    self.errors[code] += 1
                    if code == "table_moving":
                        await asyncio.sleep(self.rng.uniform(0.2, 0.5))
                        sent_at = 0.0  # send the move again at once, if it is still due
                    elif code in ("stale", "not_your_turn", "not_seated"):
                        resync = True  # the table moved on without this seat seeing it
            if now - heard > SILENCE or now - pinged > QUIET:
                resync = True
            if resync:
                await self.reconnect(nodes)
                heard = pinged = sent_at = time.monotonic()
                frames = len(self.player.received)
                continue
            state = self.state
            if (
                state is None
                or self.final is not None
                or state["table"]["status"] != "playing"
                or not state.get("legal")
                or state["to_move"] != state["you"]
            ):
                continue
            if state["moves"] > acted:
                await asyncio.sleep(self.rng.uniform(*THINK))
                if self.state is not state:
                    continue  # something newer came meanwhile
                acted, action = state["moves"], self.rng.choice(state["legal"])
                sent_at = time.monotonic()
                await self.send(type="act", action=action, moves=acted)
                self.note(f"act {acted}")
            elif time.monotonic() - sent_at > RESEND_AFTER:
                self.resends += 1
                sent_at = time.monotonic()
                await self.send(type="act", action=action, moves=acted)
                self.note(f"act {acted} again")

    async def close(self) -> None:
        for socket in self.sockets:
            self.closing.append(asyncio.create_task(quietly_close(socket)))
        await asyncio.gather(*self.closing, return_exceptions=True)


async def quietly_close(player: Player) -> None:
    """Close a socket without waiting long for a node that does not answer."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(player.close(), 3)
    if player.ws is not None:
        with contextlib.suppress(Exception):
            player.ws.transport.abort()
    if player._reader is not None:
        player._reader.cancel()


def summary(message: dict[str, Any]) -> str:
    kind = message["type"]
    if kind == "table":
        moves, to_move = message.get("moves"), message.get("to_move")
        return f"table seq {message['seq']} moves {moves} to_move {to_move}"
    if kind == "error":
        return f"error {message['code']}"
    return str(kind)


def table_messages(texts: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, texts) if m["type"] == "table"]
