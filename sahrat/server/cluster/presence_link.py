"""Friends online on other nodes: what each node's presence tells the others.

A player's friends may hold their sockets on other nodes. Each node's presence
(:mod:`sahrat.server.presence`) sends the others what changed among its own players
(online, where, gone) on the channel every node listens to, keeps what the others
sent it, and reaches a player on another node through the bus (the nodes holding
that player's sockets). A player with sockets on two nodes is online while either
says so.

Every node repeats its whole list every :data:`REFRESH` seconds; an entry not
repeated for :data:`EXPIRE` seconds is gone (its node died). A node that starts, or
finds Redis back, asks the others for their lists. A friendship or a block made over
REST on one node is passed on too, so that every node's circles stay right.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from sahrat.server.cluster.bus import Bus
from sahrat.server.cluster.redis_link import ClusterUnavailable

log = logging.getLogger(__name__)

#: Seconds between two whole lists from a node.
REFRESH = 10.0
#: An entry a node has not repeated for this long is gone.
EXPIRE = 3 * REFRESH


class Local(Protocol):
    """What the link asks of this node's presence."""

    def local_entries(self) -> list[dict[str, Any]]: ...

    def arrived(self, entries: list[dict[str, Any]]) -> None: ...

    def friends_changed(self, a: str, b: str, friends: bool, here_only: bool = False) -> None: ...

    def blocks_changed(
        self, blocker: str, blocked: str, blocking: bool, here_only: bool = False
    ) -> None: ...


class PresenceLink:
    """This node's end: the other nodes' players, and what goes out to them."""

    def __init__(
        self, bus: Bus, local: Local, spawn: Callable[[Coroutine[Any, Any, Any], str], None]
    ) -> None:
        self.bus = bus
        self.local = local
        #: Runs a coroutine beside the caller (the node's, which shutdown cancels).
        self.spawn = spawn
        #: Player -> node -> (their entry, when that node last said it).
        self.others: dict[str, dict[str, tuple[dict[str, Any], float]]] = {}
        self._out: deque[dict[str, Any]] = deque()
        self._wake = asyncio.Event()

    # -- what this node's presence asks ---------------------------------------------------

    def entry(self, player: str) -> dict[str, Any] | None:
        nodes = self.others.get(player)
        if not nodes:
            return None
        return min(nodes.items())[1][0]  # the same node's entry every time it is asked

    def publish(self, entries: list[dict[str, Any]]) -> None:
        self._put({"entries": entries})

    def circle_changed(self, what: str, a: str, b: str, on: bool) -> None:
        self._put({"circle": [what, a, b, on]})

    def send_to(self, player: str, text: str) -> None:
        self.spawn(self._send(player, text), "presence-send")

    async def _send(self, player: str, text: str) -> None:
        with contextlib.suppress(ClusterUnavailable):
            await self.bus.to_player(player, {"send": text}, here=False)

    def _put(self, body: dict[str, Any]) -> None:
        self._out.append({**body, "node": self.bus.node})
        self._wake.set()

    # -- what the other nodes send --------------------------------------------------------

    def received(self, body: Any) -> None:
        node = body["node"]
        if body.get("ask"):
            self._put({"entries": self.local.local_entries(), "whole": True})
        if "circle" in body:
            what, a, b, on = body["circle"]
            if what == "friends":
                self.local.friends_changed(a, b, bool(on), here_only=True)
            else:
                self.local.blocks_changed(a, b, bool(on), here_only=True)
        if "entries" in body:
            self._update(node, body["entries"], bool(body.get("whole")))

    def _update(self, node: str, entries: list[dict[str, Any]], whole: bool) -> None:
        now = time.monotonic()
        changed: list[dict[str, Any]] = []
        told = set()
        for entry in entries:
            player = entry["player"]
            told.add(player)
            before = self.entry(player)
            nodes = self.others.setdefault(player, {})
            if entry.get("online"):
                nodes[node] = (entry, now)
            else:
                nodes.pop(node, None)
            changed += self._differs(player, before)
        if whole:  # a whole list: whom it no longer names are gone from that node
            for player in [p for p, nodes in self.others.items() if node in nodes]:
                if player not in told:
                    before = self.entry(player)
                    del self.others[player][node]
                    changed += self._differs(player, before)
        if changed:
            self.local.arrived(changed)

    def _differs(self, player: str, before: dict[str, Any] | None) -> list[dict[str, Any]]:
        """``player``'s entry now, if it is not what it was (as friends see it)."""
        if not self.others.get(player):
            self.others.pop(player, None)
        now = self.entry(player)
        if now == before:
            return []
        return [now if now is not None else {"player": player, "online": False, "at": None}]

    # -- sending --------------------------------------------------------------------------

    async def run(self) -> None:
        """Ask the others for their lists, then send what is put, and the whole list every
        :data:`REFRESH` seconds; forget what the others stopped repeating."""
        self._put({"ask": True, "entries": self.local.local_entries(), "whole": True})
        refreshed = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(REFRESH / 4):
                    await self._wake.wait()
            self._wake.clear()
            now = time.monotonic()
            if now - refreshed >= REFRESH:
                refreshed = now
                self._put({"entries": self.local.local_entries(), "whole": True})
                self._expire(now)
            while self._out:
                body = self._out[0]
                try:
                    await self.bus.broadcast(body)
                except ClusterUnavailable as error:
                    log.warning("%s; friends on other nodes are told later", error)
                    self._out.clear()  # stale when Redis is back; the next whole list says all
                    break
                self._out.popleft()

    def redis_back(self) -> None:
        """Redis is back: what was missed is asked for again."""
        self._put({"ask": True, "entries": self.local.local_entries(), "whole": True})

    def _expire(self, now: float) -> None:
        changed: list[dict[str, Any]] = []
        for player in list(self.others):
            nodes = self.others[player]
            stale = [n for n, (_, seen) in nodes.items() if now - seen > EXPIRE]
            if stale:
                before = self.entry(player)
                for node in stale:
                    del nodes[node]
                changed += self._differs(player, before)
        if changed:
            self.local.arrived(changed)

    async def close(self) -> None:
        """Say goodbye: the other nodes forget this node's players at once (those who
        reconnect elsewhere are named by their new node), not when their entries expire."""
        with contextlib.suppress(ClusterUnavailable, TimeoutError):
            async with asyncio.timeout(1.0):
                await self.bus.broadcast({"entries": [], "whole": True, "node": self.bus.node})
