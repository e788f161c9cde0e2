"""Which live tables have no owner, and taking one over: the lease, then the fence
in the database, then the table restored from its log.

A node looks every :data:`LOOK_EVERY` seconds for live tables (by the database)
whose lease no node holds (by Redis): a node died, was paused past its lease, or
drained. Taking one is three steps, each of which another node may win: the lease
(``SET NX``), the claim (the fence stored in PostgreSQL, which fences out every
older owner even one that still believes it holds the table), and the restore.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import Engine, select

from sahrat.server.cluster.fencing import StaleOwner, check_fence, stored_fence
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import guard
from sahrat.server.schema import game_tables
from sahrat.server.store import LIVE, Store

log = logging.getLogger(__name__)

#: Seconds between looks for tables nobody owns: a table is taken over at most this
#: long after its lease expired.
LOOK_EVERY = 1.0


def live_table_ids(engine: Engine) -> list[str]:
    with engine.connect() as c:
        rows = c.execute(select(game_tables.c.id).where(game_tables.c.status.in_(LIVE)))
        return [str(row[0]) for row in rows]


def _fence_of(engine: Engine, table: str) -> int:
    with engine.connect() as c:
        return stored_fence(c, table)


async def unowned(store: Store, leases: Leases, held: set[str]) -> list[str]:
    """Live tables not in ``held`` (this node's) whose lease nobody holds."""
    ids = [t for t in await store.run(live_table_ids, store.engine) if t not in held]
    if not ids:
        return []
    keys = [leases.key(t) for t in ids]
    async with guard("reading the leases"):
        values = await leases.redis.mget(keys)
    return [t for t, value in zip(ids, values, strict=True) if value is None]


async def take(store: Store, leases: Leases, table: str) -> dict[str, Any] | None:
    """Own ``table``: its stored row to restore, or ``None`` if another node won it."""
    floor = await store.run(_fence_of, store.engine, table)
    fence = await leases.acquire(table, floor)
    if fence is None:
        return None
    try:
        await store.write(check_fence, table, fence, leases.node)
        row = await store.run(store.live_table, table)
    except StaleOwner:
        row = None
    except Exception:
        log.exception("table %s: could not be claimed", table)
        row = None
    if row is None:
        await leases.release(table)
    return row


async def claim_new(store: Store, leases: Leases, table: str) -> None:
    """A table this node has just created: its lease and its first fence."""
    fence = await leases.acquire(table)
    if fence is None:  # nobody else can know its fresh random id
        raise RuntimeError(f"table {table}: someone holds the lease of a new table")
    await store.write(check_fence, table, fence, leases.node)
