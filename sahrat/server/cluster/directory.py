"""Where players sit and what private codes name, across the cluster, in Redis.

One node knows who sits at its own tables; every node needs to know it to route a
returning player's socket to their table, to keep "one live table per player" across
nodes, and to find a private table by its code. Each node writes the entries of its
own tables (``<prefix>seat:<player>`` → ``"<table> live|over"``, ``<prefix>code:<CODE>``
→ table) with a time to live it refreshes, so a dead node's entries go on their own
and a Redis restart is repaired by the next refresh, as the shared lobby is.

A player who sits down at another node's table is written there at once, whatever
the key held; a refresh only writes a key that is absent or still names the same
table, so an old table's node never takes a player back. When a refresh finds that
the player moved on, the old node is told (``moved_on``), as a single process is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.asyncio import Redis

from sahrat.server.cluster.redis_link import ClusterUnavailable, guard

log = logging.getLogger(__name__)

TTL = 15.0
REFRESH_EVERY = 5.0

# KEYS: the key. ARGV: value, ttl (ms), the table (the value's first word), force.
# 1: written; 0: the key names another table (and force was not given).
_WRITE = """
local held = redis.call('GET', KEYS[1])
if held and ARGV[4] == '0' and string.match(held, '^(%S+)') ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: the key. ARGV: the table. Deleted only if it still names that table.
_DROP = """
local held = redis.call('GET', KEYS[1])
if held and string.match(held, '^(%S+)') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Directory:
    """This node's seats and codes in Redis, and everyone's when read."""

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str = "sahrat:",
        ttl: float = TTL,
        refresh_every: float = REFRESH_EVERY,
        moved_on: Callable[[str, str], None] = lambda player, table: None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl = ttl
        self.refresh_every = refresh_every
        self.moved_on = moved_on
        #: key → (table, value) this node vouches for.
        self.mine: dict[str, tuple[str, str]] = {}
        #: Writes and deletions not yet made: key → (table, value or None, force).
        self._due: dict[str, tuple[str, str | None, bool]] = {}
        self._wake = asyncio.Event()
        self._write = redis.register_script(_WRITE)
        self._drop = redis.register_script(_DROP)

    def seat_key(self, player: str) -> str:
        return f"{self.prefix}seat:{player}"

    def code_key(self, code: str) -> str:
        return f"{self.prefix}code:{code}"

    # -- this node's entries (called from the event loop, written soon) -----------------

    def seated(self, player: str, table: str, live: bool) -> None:
        self._set(self.seat_key(player), table, f"{table} {'live' if live else 'over'}", True)

    def unseated(self, player: str, table: str) -> None:
        self._unset(self.seat_key(player), table)

    def code(self, code: str, table: str) -> None:
        self._set(self.code_key(code), table, table, True)

    def code_gone(self, code: str, table: str) -> None:
        self._unset(self.code_key(code), table)

    def _set(self, key: str, table: str, value: str, force: bool) -> None:
        if self.mine.get(key) == (table, value):
            return
        self.mine[key] = (table, value)
        self._due[key] = (table, value, force)
        self._wake.set()

    def _unset(self, key: str, table: str) -> None:
        held = self.mine.get(key)
        if held is None or held[0] != table:
            return
        del self.mine[key]
        self._due[key] = (table, None, False)
        self._wake.set()

    # -- reading ---------------------------------------------------------------------------

    async def seat_of(self, player: str) -> tuple[str, bool] | None:
        """``(table, live)`` where ``player`` sits, on any node, or ``None``."""
        async with guard(f"finding the table of {player}"):
            value = await self.redis.get(self.seat_key(player))
        if value is None:
            return None
        table, _, state = value.decode().partition(" ")
        return table, state == "live"

    async def table_of_code(self, code: str) -> str | None:
        async with guard("finding a private table"):
            value = await self.redis.get(self.code_key(code))
        return None if value is None else str(value.decode())

    # -- writing ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Make the due writes as they come, and refresh every entry now and then."""
        loop = asyncio.get_running_loop()
        refreshed = loop.time()
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.refresh_every):
                    await self._wake.wait()
            self._wake.clear()
            due, self._due = self._due, {}
            if loop.time() - refreshed >= self.refresh_every:
                refreshed = loop.time()
                for key, (table, value) in self.mine.items():
                    due.setdefault(key, (table, value, False))
            if not due:
                continue
            try:
                await self._apply(due)
            except ClusterUnavailable as error:
                log.warning("%s; the directory is written again when it is back", error)
                for key, entry in due.items():
                    self._due.setdefault(key, entry)
                await asyncio.sleep(0.5)

    async def _apply(self, due: dict[str, tuple[str, str | None, bool]]) -> None:
        ttl_ms = round(self.ttl * 1000)
        keys = list(due)
        async with guard("writing the directory"), self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                table, value, force = due[key]
                if value is None:
                    await self._drop(keys=[key], args=[table], client=pipe)
                else:
                    flag = "1" if force else "0"
                    await self._write(keys=[key], args=[value, ttl_ms, table, flag], client=pipe)
            outcomes = await pipe.execute()
        for key, outcome in zip(keys, outcomes, strict=True):
            table, value, _ = due[key]
            if value is not None and not outcome and self.mine.get(key, (None,))[0] == table:
                # Another node seated the player since: they moved on from this table.
                del self.mine[key]
                if key.startswith(self.seat_key("")):
                    self.moved_on(key.removeprefix(self.seat_key("")), table)
