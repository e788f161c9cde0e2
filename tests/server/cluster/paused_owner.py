"""A node that owns one table and writes to it without pause, for the test that stops
it with SIGSTOP: ``python -m tests.server.cluster.paused_owner REDIS PREFIX DATABASE``.

It prints ``owns <fence>``, then ``wrote`` or ``refused`` for each write attempt
(made whether or not it still believes it owns the table, as a table actor with a write
under way would), and ``lost`` when its renewals find the lease gone; it exits after
``lost`` and a few refusals.
"""

from __future__ import annotations

import asyncio
import sys

from sqlalchemy import Engine

from sahrat.server.cluster.fencing import StaleOwner, check_fence
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import connect
from sahrat.server.store import make_engine
from tests.server.cluster.test_fencing import writes


def write(engine: Engine, fence: int) -> bool:
    try:
        with engine.begin() as c:
            check_fence(c, "t", fence, "paused")
            c.execute(writes.insert().values(table_id="t", fence=fence, node="paused"))
    except StaleOwner:
        return False
    return True


async def main(redis_url: str, prefix: str, database: str) -> None:
    engine = make_engine(database)
    lost = asyncio.Event()

    def on_lost(table: str, fence: int) -> None:
        print("lost", flush=True)
        lost.set()

    leases = Leases(
        connect(redis_url), "paused", prefix=prefix, ttl=1.0, renew_every=0.2, on_lost=on_lost
    )
    fence = await leases.acquire("t")
    assert fence is not None
    print("owns", fence, flush=True)
    renewing = asyncio.create_task(leases.run())
    refusals = 0
    for _ in range(600):
        wrote = await asyncio.to_thread(write, engine, fence)
        print("wrote" if wrote else "refused", flush=True)
        refusals += not wrote
        if lost.is_set() and refusals >= 3:
            break
        await asyncio.sleep(0.05)
    renewing.cancel()
    await leases.redis.aclose()
    engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
