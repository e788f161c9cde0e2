"""Table ownership: a lease in Redis per table, and a fencing token per new owner.

A table is owned by the node whose lease key it is: ``SET NX PX`` with a time to live
(:data:`TTL`, renewed every :data:`RENEW_EVERY`). Each new owner also takes the next
number of the table's counter, its **fence**; every write it makes to the table's log
carries the fence, and the database refuses one older than the newest it has seen
(:mod:`.fencing`). A lease alone cannot make a paused process safe (it wakes up
believing it still owns the table); the fence can.

The key holds ``"<node> <fence>"``; renewing and releasing compare it in a script, so a
node only ever extends or deletes its own lease, never the next owner's.

When Redis restarts it forgets leases and counters. A renewal that finds its key gone
takes it back unless a newer owner has come and gone meanwhile (the counter passed its
fence). The counter itself is put back by the owners' renewals, and a node acquiring a
table passes ``floor``, the newest fence the database holds for it, so a fence handed
out after the restart is still newer than every one that was written before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis

from sahrat.server import metrics
from sahrat.server.cluster.redis_link import ClusterUnavailable, guard

log = logging.getLogger(__name__)

#: Seconds a lease lasts unless renewed, and how often its owner renews it.
TTL = 10.0
RENEW_EVERY = 3.0

# KEYS: lease, counter. ARGV: node, ttl (ms), floor. The fence, or nil if owned.
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local fence = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if fence <= floor then
  fence = floor + 1
  redis.call('SET', KEYS[2], fence)
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
return fence
"""

# KEYS: lease, counter. ARGV: our value, ttl (ms), our fence.
# 1: extended; 2: the key was gone (Redis restarted, or it expired and nobody newer
# came) and is ours again; 0: lost to another owner.
_RENEW = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if held then return 0 end
local fence = tonumber(ARGV[3])
local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
if counter > fence then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if counter < fence then redis.call('SET', KEYS[2], fence) end
return 2
"""

# KEYS: lease. ARGV: our value. 1 if it was ours and is deleted.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(slots=True)
class Lease:
    """A table this node owns, as far as it last heard."""

    table: str
    fence: int
    #: ``time.monotonic()`` of the last renewal Redis confirmed (or of the acquiring).
    confirmed: float

    def value(self, node: str) -> str:
        return f"{node} {self.fence}"


class Leases:
    """This node's table leases in one Redis.

    ``on_lost(table, fence)`` is called (in the event loop) for each lease found to belong
    to someone else; from then on the table is not this node's and it must neither write
    nor broadcast for it (its writes would be refused anyway: the fence).
    """

    def __init__(
        self,
        redis: Redis,
        node: str,
        *,
        prefix: str = "sahrat:",
        ttl: float = TTL,
        renew_every: float = RENEW_EVERY,
        on_lost: Callable[[str, int], None] | None = None,
    ) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.renew_every = renew_every
        self.on_lost = on_lost
        self.held: dict[str, Lease] = {}
        #: When a round of renewals last reached Redis (monotonic), and what went wrong
        #: in the last one (``None``: nothing).
        self.last_round: float = time.monotonic()
        self.last_error: str | None = None
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _keys(self, table: str) -> list[str]:
        return [f"{self.prefix}lease:{table}", f"{self.prefix}fence:{table}"]

    def key(self, table: str) -> str:
        """The Redis key of ``table``'s lease (read in bulk to find tables nobody owns)."""
        return self._keys(table)[0]

    # -- one table ------------------------------------------------------------------------

    async def acquire(self, table: str, floor: int = 0) -> int | None:
        """Take ``table`` if nobody holds it: its new fence, or ``None`` (someone does).

        ``floor`` is the newest fence the database has stored for the table (0 if none):
        the new fence is above it even when Redis has lost the counter.
        """
        ttl_ms = round(self.ttl * 1000)
        async with guard(f"acquiring table {table}"):
            fence = await self._acquire(keys=self._keys(table), args=[self.node, ttl_ms, floor])
        if fence is None:
            return None
        self.held[table] = Lease(table, int(fence), time.monotonic())
        return int(fence)

    async def renew(self, table: str) -> bool:
        """Extend our lease on ``table``: ``False`` (and ``on_lost``) if it is not ours."""
        lease = self.held.get(table)
        if lease is None:
            return False
        started = time.monotonic()
        async with guard(f"renewing table {table}"):
            outcome = await self._renew(
                keys=self._keys(table),
                args=[lease.value(self.node), round(self.ttl * 1000), lease.fence],
            )
        return self._settle(lease, int(outcome), started)

    async def release(self, table: str) -> bool:
        """Give ``table`` up (draining, or the game ended): deleted only if still ours, so
        another node may take it at once rather than after the TTL."""
        lease = self.held.pop(table, None)
        if lease is None:
            return False
        async with guard(f"releasing table {table}"):
            deleted = await self._release(keys=self._keys(table)[:1], args=[lease.value(self.node)])
        return bool(deleted)

    async def owner(self, table: str) -> tuple[str, int] | None:
        """``(node, fence)`` of the table's owner by Redis, or ``None`` (no one)."""
        async with guard(f"looking up table {table}"):
            value = await self.redis.get(self._keys(table)[0])
        if value is None:
            return None
        node, _, fence = value.decode().rpartition(" ")
        return node, int(fence)

    def fence(self, table: str) -> int | None:
        """Our fence for ``table``, or ``None`` if we do not hold it."""
        lease = self.held.get(table)
        return None if lease is None else lease.fence

    def confident(self, table: str) -> bool:
        """Do we hold ``table`` and has Redis confirmed it within the TTL? (A write needs
        the fence, not this; this is for what the database does not see, such as
        starting a table's clock.)"""
        lease = self.held.get(table)
        return lease is not None and time.monotonic() - lease.confirmed < self.ttl

    # -- all tables -----------------------------------------------------------------------

    async def renew_all(self) -> list[str]:
        """One round of renewals, pipelined: the tables lost in it. Raises
        :class:`ClusterUnavailable` (and keeps every lease) when Redis is unreachable."""
        leases = list(self.held.values())
        started = time.monotonic()
        ttl_ms = round(self.ttl * 1000)
        try:
            # As a context, so a failed round gives its connection back at once.
            async with guard("renewing leases"), self.redis.pipeline(transaction=False) as pipe:
                for lease in leases:
                    await self._renew(
                        keys=self._keys(lease.table),
                        args=[lease.value(self.node), ttl_ms, lease.fence],
                        client=pipe,
                    )
                outcomes = await pipe.execute() if leases else []
        except ClusterUnavailable as error:
            self.last_error = str(error)
            raise
        self.last_round, self.last_error = started, None
        return [
            lease.table
            for lease, outcome in zip(leases, outcomes, strict=True)
            if self.held.get(lease.table) is lease
            and not self._settle(lease, int(outcome), started)
        ]

    def _settle(self, lease: Lease, outcome: int, started: float) -> bool:
        if outcome == 0:
            if self.held.get(lease.table) is lease:
                del self.held[lease.table]
            metrics.LEASE_LOSSES.inc()
            log.warning("table %s: lease lost (fence %d)", lease.table, lease.fence)
            if self.on_lost is not None:
                self.on_lost(lease.table, lease.fence)
            return False
        if outcome == 2:
            log.info("table %s: lease re-established (fence %d)", lease.table, lease.fence)
        lease.confirmed = started
        metrics.LEASE_RENEWALS.inc()
        return True

    async def run(self) -> None:
        """Renew every held lease every ``renew_every`` seconds, until cancelled.

        After a pause (the process stopped, the loop starved) the next round runs at once:
        the sleep is measured on the monotonic clock, which a ``SIGSTOP`` does not stop.
        """
        while True:
            try:
                await self.renew_all()
            except ClusterUnavailable as error:
                log.warning("%s; the tables held keep playing, trying again", error)
            await asyncio.sleep(self.renew_every)

    def problem(self) -> str | None:
        """What keeps this node from being ready, as far as leases go (``None``: nothing):
        the readiness check's part."""
        late = time.monotonic() - self.last_round
        if self.last_error is not None and late > self.renew_every:
            return f"leases not renewed for {late:.1f} s: {self.last_error}"
        return None

    async def release_all(self) -> None:
        """Release every lease (a graceful shutdown): others take the tables at once."""
        for table in list(self.held):
            with contextlib.suppress(ClusterUnavailable):
                await self.release(table)
