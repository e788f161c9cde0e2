"""A connection held by another node, as this node's tables see it, and the ordered
stream of messages from this node to the others.

In cluster mode a browser's socket stays on the node it reached (the *edge*); its
table may be owned by another node (the *owner*). The owner's table is given a
:class:`RemoteClient` for it, with the few things a table uses of a connection
(its player, name, ``send_text``, ``error``, ``table``), so a table neither knows nor
cares where its players' sockets are: the hidden-card checks, views and errors are the
same code for both. What it sends goes back to the edge over the node bus; the edge
writes it to the socket.

Order matters (a view after the move it shows, an error after the message it
answers): every message this node sends to other nodes goes through one
:class:`Outbox`, one task that publishes them pipelined in the order they were put,
and Redis delivers one publisher's messages to a channel in that order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import orjson
from redis.asyncio import Redis

from sahrat.server import protocol
from sahrat.server.cluster.redis_link import ClusterUnavailable, guard

log = logging.getLogger(__name__)

#: Called when a message reached no node.
Bounce = Callable[[], None]

#: Messages published in one pipeline at most.
BATCH = 512
#: Messages waiting for Redis at most: past it the oldest are dropped (a client that
#: missed a view asks for the table again when it reconnects), never memory without end.
BACKLOG = 100_000
#: Seconds a node's channel may have no listener before its sockets count as gone.
GONE_AFTER = 3.0


class Outbox:
    """Messages to other nodes, published in the order they were put."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        channel: Callable[[str], str],
        on_unreachable: Callable[[str], None] = lambda node: None,
    ) -> None:
        self.redis = redis
        self.node = node
        self.channel = channel
        #: Told of a node nobody has listened for since :data:`GONE_AFTER` seconds.
        self.on_unreachable = on_unreachable
        self._silent_since: dict[str, float] = {}
        self._queue: deque[tuple[str, bytes, Bounce | None]] = deque(maxlen=BACKLOG)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def put(self, node: str, kind: str, to: str, body: Any, bounce: Bounce | None = None) -> None:
        """Send ``body`` to ``to`` (a table, a player or a connection, by ``kind``) on
        ``node``: the bus's envelope, published soon, after what was put before.
        ``bounce`` is called if nobody listens on that node (it died: its leases have not
        expired yet), so that a player's move is answered rather than lost."""
        envelope = {"k": kind, "to": to, "from": self.node, "body": body}
        self._queue.append((node, orjson.dumps(envelope), bounce))
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"outbox-{self.node}")

    async def close(self) -> None:
        """Publish what is waiting (briefly), then stop."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                while self._queue and self._task is not None and not self._task.done():
                    await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                count = min(len(self._queue), BATCH)
                batch = [self._queue.popleft() for _ in range(count)]
                try:
                    async with guard("publishing"), self.redis.pipeline(transaction=False) as pipe:
                        for node, data, _ in batch:
                            pipe.publish(self.channel(node), data)
                        receivers = await pipe.execute()
                    self._heard([node for node, _, _ in batch], receivers)
                    for (_, _, bounce), count in zip(batch, receivers, strict=True):
                        if not count and bounce is not None:
                            bounce()
                except ClusterUnavailable as error:
                    # Lost, not retried: what they said is stale by the time Redis is
                    # back, and the clients ask for their tables again when they return.
                    log.warning("%s; %d messages to other nodes dropped", error, len(batch))
                    await asyncio.sleep(0.2)

    def _heard(self, nodes: list[str], receivers: list[int]) -> None:
        """A node whose channel nobody has listened to for a while is gone (its
        sockets with it); a short silence is a node resubscribing after Redis came back."""
        now = time.monotonic()
        for node, count in zip(nodes, receivers, strict=True):
            if count:
                self._silent_since.pop(node, None)
                continue
            since = self._silent_since.setdefault(node, now)
            if now - since >= GONE_AFTER:
                del self._silent_since[node]
                log.warning("node %s: nobody listens to it any more", node)
                self.on_unreachable(node)


class RemoteClient:
    """A socket on node ``node`` (its id there: ``conn``), attached to a table here."""

    def __init__(self, outbox: Outbox, node: str, conn: str, who: dict[str, Any]) -> None:
        self.outbox = outbox
        self.node = node
        self.conn = conn
        self.player = str(who["player"])
        self.name = str(who["name"])
        self.guest = bool(who["guest"])
        self.session = str(who.get("session", ""))
        self.address = str(who.get("address", ""))
        self._table: Any = None
        self._closed = False
        #: Messages from the edge not yet handled, in order (see the cluster hub).
        self.inbound: deque[dict[str, Any]] = deque()
        self.draining = False

    @property
    def authenticated(self) -> bool:
        return True

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def table(self) -> Any:
        return self._table

    @table.setter
    def table(self, table: Any) -> None:
        # The edge mirrors which table its socket follows, to route what it says next.
        old, self._table = self._table, table
        if table is not None and table is not old:
            # As what, from the table itself: friends on the socket's node are shown it
            # before the shared lobby (twice a second) lists the new seat.
            role = "seat" if self.player in table.humans() else "spectator"
            self._control({"attached": table.id, "as": role})
        elif table is None and old is not None:
            self._control({"released": old.id})

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(protocol.dumps(message))

    def send_text(self, text: str | bytes) -> None:
        if not self._closed:
            body = text if isinstance(text, str) else text.decode()
            self.outbox.put(self.node, "c", self.conn, {"x": body})

    def error(self, code: str, detail: str = "", ref: object = None, **extra: Any) -> None:
        self.send(protocol.error(code, detail, ref, **extra))

    def close(self, code: int = 1000) -> None:
        if not self._closed:
            self._control({"close": code})
            self._closed = True

    def gone(self) -> None:
        """The socket closed on its node: send it nothing more."""
        self._closed = True

    def _control(self, body: dict[str, Any]) -> None:
        if not self._closed:
            self.outbox.put(self.node, "c", self.conn, body)
