"""The live lobby shared by every node: each table's summary in Redis, written by its
owner, read by all.

A key per table (``<prefix>lobby:<table>``, the summary as JSON with its node), with a
time to live its owner refreshes, so a dead node's tables leave the lobby on their own;
and a set of the table ids (``<prefix>lobby``) so reading the lobby is one ``SMEMBERS``
and one ``MGET``, never a ``SCAN`` of the keyspace. A reader that finds an id whose key
has expired removes it from the set.

Each node keeps its own tables' summaries and writes them all again every
``refresh_every`` seconds: that is the TTL's refresh, and it is also what puts the
lobby back after a Redis restart.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from redis.asyncio import Redis

from sahrat.server.cluster.redis_link import ClusterUnavailable, guard

log = logging.getLogger(__name__)

#: Seconds an entry outlives its owner's last refresh, and how often the owner refreshes.
TTL = 15.0
REFRESH_EVERY = 5.0


class ClusterLobby:
    """This node's tables in the shared lobby, and everyone's when read."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        *,
        prefix: str = "sahrat:",
        ttl: float = TTL,
        refresh_every: float = REFRESH_EVERY,
    ) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.refresh_every = refresh_every
        #: This node's entries, as last published (what a refresh writes again).
        self.mine: dict[str, bytes] = {}
        self.last_error: str | None = None

    def _key(self, table: str) -> str:
        return f"{self.prefix}lobby:{table}"

    @property
    def _index(self) -> str:
        return f"{self.prefix}lobby"

    async def publish(self, table: str, summary: dict[str, Any]) -> None:
        """Show (or update) one of this node's tables. Kept locally even when Redis is
        away (raising :class:`.ClusterUnavailable`): the next refresh writes it."""
        self.mine[table] = orjson.dumps({**summary, "node": self.node})
        await self._write({table: self.mine[table]})

    async def publish_many(self, entries: dict[str, bytes]) -> None:
        """Show (or update) several of this node's tables, each already encoded with
        its node: one round trip for all."""
        self.mine.update(entries)
        await self._write(entries)

    async def remove(self, table: str) -> None:
        """The table left the lobby (it started privately, finished, or moved away)."""
        self.mine.pop(table, None)
        what = f"removing table {table} from the lobby"
        async with guard(what), self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._key(table))
            pipe.srem(self._index, table)
            await pipe.execute()

    async def forget(self, table: str) -> None:
        """Stop refreshing ``table`` without deleting it (its lease was lost: the new
        owner's entry, not ours, is the one to keep)."""
        self.mine.pop(table, None)

    async def entries(self) -> list[dict[str, Any]]:
        """Every node's tables, in the order of their ids."""
        async with guard("reading the lobby"):
            ids = sorted(m.decode() for m in await self.redis.smembers(self._index))  # type: ignore[misc]
            values = await self.redis.mget([self._key(t) for t in ids]) if ids else []
            gone = [t for t, v in zip(ids, values, strict=True) if v is None]
            if gone:
                await self.redis.srem(self._index, *gone)  # type: ignore[misc]
        return [orjson.loads(v) for v in values if v is not None]

    async def _write(self, entries: dict[str, bytes]) -> None:
        ttl_ms = round(self.ttl * 1000)
        async with guard("writing the lobby"), self.redis.pipeline(transaction=False) as pipe:
            for table, value in entries.items():
                pipe.set(self._key(table), value, px=ttl_ms)
            pipe.sadd(self._index, *entries)
            await pipe.execute()

    async def refresh(self) -> None:
        """Write every entry of this node again (their TTL; or the lobby after Redis lost
        it)."""
        if self.mine:
            try:
                await self._write(dict(self.mine))
            except ClusterUnavailable as error:
                self.last_error = str(error)
                raise
        self.last_error = None

    async def run(self) -> None:
        """Refresh every ``refresh_every`` seconds until cancelled, through Redis outages."""
        while True:
            try:
                await self.refresh()
            except ClusterUnavailable as error:
                log.warning("%s; the lobby is written again when it is back", error)
            await asyncio.sleep(self.refresh_every)
