"""Messages between nodes, over Redis pub/sub: this node's subscription, and messages
to a player's sockets wherever they are (a table's messages go through the
:class:`~.remote.Outbox`, to the channel of the table's owner).

One channel per node (``<prefix>node:<id>``), never one per player or table. A node
holds thousands of sockets (8,000 is the aim): a channel per player would be thousands
of subscriptions per node, a SUBSCRIBE and UNSUBSCRIBE round trip on every connect and
disconnect, and all of them to replay after a Redis restart; a channel per node is one
subscription, replayed in one call. The cost moves to the sender, which looks up where
the recipient is:

- a table's owner is its lease's holder (:meth:`.Leases.owner`, looked up by the edge);
- a player's nodes are the set ``<prefix>where:<player>``, kept by the nodes holding
  that player's sockets. A node that died leaves its id there; a publish that reaches no
  subscriber tells the sender so, and it removes the stale id.

Redis going away: every send raises :class:`.ClusterUnavailable` within the client's
timeout (never hangs), and the listening loop resubscribes, and re-registers this node's
players, when Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from sahrat.server.cluster.redis_link import guard

log = logging.getLogger(__name__)

#: Seconds between attempts to resubscribe while Redis is away.
RETRY_EVERY = 0.5

#: What a message is given to: the table's or the player's id, and the message's body.
Deliver = Callable[[str, Any], None]


class Bus:
    """This node's end of the messages between nodes."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        *,
        on_table: Deliver,
        on_player: Deliver,
        on_connection: Deliver | None = None,
        on_broadcast: Callable[[Any], None] | None = None,
        prefix: str = "sahrat:",
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
        retry_every: float = RETRY_EVERY,
    ) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.on_table = on_table
        self.on_player = on_player
        self.on_connection = on_connection
        self.on_broadcast = on_broadcast
        self.on_reconnect = on_reconnect
        self.retry_every = retry_every
        #: Subscribed now (``False`` while Redis is away).
        self.connected = False
        #: This node's sockets per player (a player may have several tabs).
        self._players: Counter[str] = Counter()
        self._listener: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    def channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    @property
    def everyone(self) -> str:
        """The channel every node listens to, besides its own."""
        return f"{self.prefix}everyone"

    def _where(self, player: str) -> str:
        return f"{self.prefix}where:{player}"

    # -- life -----------------------------------------------------------------------------

    async def start(self, wait: float = 2.0) -> None:
        """Start listening; wait up to ``wait`` seconds for the first subscription (a
        node starts without Redis too, and subscribes when it can)."""
        self._listener = asyncio.create_task(self._listen(), name=f"bus-{self.node}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        self.connected = False

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node), self.everyone)
                await self._register_all()
                self.connected = True
                self._subscribed.set()
                log.info("node %s: listening on the bus", self.node)
                if not first and self.on_reconnect is not None:
                    await self.on_reconnect()
                first = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message["type"] == "message":
                        self._dispatch(message["data"])
            except (RedisError, OSError, TimeoutError) as error:
                if self.connected:
                    log.warning("node %s: the bus is down (%s); resubscribing", self.node, error)
                self.connected = False
                self._subscribed.clear()
            finally:
                with contextlib.suppress(RedisError, OSError, TimeoutError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # untyped upstream
            await asyncio.sleep(self.retry_every)

    def _dispatch(self, data: bytes) -> None:
        try:
            envelope = orjson.loads(data)
            kind = envelope["k"]
            if kind == "t":
                self.on_table(envelope["to"], envelope["body"])
            elif kind == "p":
                self.on_player(envelope["to"], envelope["body"])
            elif kind == "b" and self.on_broadcast is not None:
                if envelope["from"] != self.node:
                    self.on_broadcast(envelope["body"])
            elif kind == "c" and self.on_connection is not None:
                # One socket on this node (:mod:`.remote`): what a table elsewhere sent it.
                self.on_connection(envelope["to"], envelope["body"])
        except Exception:
            # One bad message (or a handler's bug) must not stop the node's bus.
            log.exception("node %s: a bus message could not be delivered", self.node)

    # -- sending --------------------------------------------------------------------------

    async def broadcast(self, body: Any) -> None:
        """Give ``body`` to every other node."""
        data = orjson.dumps({"k": "b", "to": "", "from": self.node, "body": body})
        async with guard("sending to every node"):
            await self.redis.publish(self.everyone, data)

    async def to_player(self, player: str, body: Any, here: bool = True) -> int:
        """Give ``body`` to every node holding a socket of ``player`` (this one included,
        unless not ``here``): how many nodes it reached."""
        async with guard(f"finding player {player}"):
            members = await self.redis.smembers(self._where(player))  # type: ignore[misc]
        reached = 0
        for member in sorted(members):
            node = member.decode()
            if node == self.node:
                if not here:
                    continue
                self.on_player(player, body)
                reached += 1
            elif await self._publish(node, "p", player, body):
                reached += 1
            else:
                # Nobody listens on that node's channel: the node is gone, and so are
                # its sockets (their clients reconnect elsewhere and register again).
                async with guard(f"forgetting node {node} for player {player}"):
                    await self.redis.srem(self._where(player), node)  # type: ignore[misc]
        return reached

    async def _publish(self, node: str, kind: str, to: str, body: Any) -> bool:
        data = orjson.dumps({"k": kind, "to": to, "from": self.node, "body": body})
        async with guard(f"sending to node {node}"):
            receivers = await self.redis.publish(self.channel(node), data)
        return int(receivers) > 0

    # -- where players are ----------------------------------------------------------------

    async def player_here(self, player: str) -> None:
        """A socket of ``player`` opened on this node. Counted locally first, so that if
        Redis is away the registration is made when it is back."""
        self._players[player] += 1
        if self._players[player] == 1 and self.connected:
            async with guard(f"registering player {player}"):
                await self.redis.sadd(self._where(player), self.node)  # type: ignore[misc]

    async def player_gone(self, player: str) -> None:
        """A socket of ``player`` closed on this node."""
        if self._players[player] <= 0:
            return
        self._players[player] -= 1
        if self._players[player] == 0:
            del self._players[player]
            async with guard(f"unregistering player {player}"):
                await self.redis.srem(self._where(player), self.node)  # type: ignore[misc]

    async def _register_all(self) -> None:
        """Every local player in Redis again (after a restart it has forgotten them)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player in self._players:
                pipe.sadd(self._where(player), self.node)
            await pipe.execute()
