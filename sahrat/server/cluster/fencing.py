"""The database's side of fencing: a stale owner's write to a table's log is refused.

Each write for a table carries its owner's fence (:mod:`.leases`) and node id;
:func:`check_fence`, run in the writer's own transaction before the write, lets it
through only if no newer owner has written (or claimed the table) before it, and
records it as the newest. The order is ``(fence, node)`` with a tie refused: two
nodes can hold the same fence only if Redis lost its counter before the first of them
wrote, and then the first to write keeps the table.

Race-safety: one ``INSERT … ON CONFLICT DO UPDATE … WHERE`` decides. On PostgreSQL it
locks the table's row until the caller's transaction ends, and a concurrent writer
waits on that lock, then re-reads the row the winner committed, so two owners can never
both pass with their fences out of order; the rest of the caller's transaction (the
event itself) is serialised per table behind the same lock. SQLite runs one writer at
a time, so there is nothing to race.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Connection, MetaData, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from sahrat.errors import SahratError

# The table the migration ``0004`` creates (its own metadata: what it describes belongs
# to cluster mode, and the migrations, not this, create it).
_metadata = MetaData()
table_fences = Table(
    "table_fences",
    _metadata,
    Column("table_id", String(32), primary_key=True),
    Column("fence", BigInteger, nullable=False),
    Column("node_id", String(64), nullable=False),
)


class StaleOwner(SahratError):
    """A write from an owner the table has moved on from: it must stop, not retry."""

    def __init__(self, table_id: str, fence: int, node: str) -> None:
        super().__init__(f"table {table_id}: fence {fence} of node {node} is stale")
        self.table_id = table_id
        self.fence = fence
        self.node = node


def check_fence(connection: Connection, table_id: str, fence: int, node: str) -> None:
    """Let the write about to be made for ``table_id`` by ``node`` holding ``fence``
    through, in the caller's transaction, or raise :class:`StaleOwner`.

    It passes when ``fence`` is newer than the table's stored fence, or equal to it and
    ``node`` is the one that stored it, and it stores ``(fence, node)``. A new owner
    calls it once with no write (a claim) when it takes a table, which fences the old
    owner out before it has written anything.
    """
    dialect = connection.dialect.name
    values = {"table_id": table_id, "fence": fence, "node_id": node}
    if dialect == "postgresql":
        statement: postgresql.Insert | sqlite.Insert = postgresql.insert(table_fences)
    elif dialect == "sqlite":
        statement = sqlite.insert(table_fences)
    else:  # pragma: no cover - the store runs on these two
        raise NotImplementedError(f"fencing on {dialect}")
    stored = table_fences.c
    newer = statement.excluded.fence > stored.fence
    same = (statement.excluded.fence == stored.fence) & (
        statement.excluded.node_id == stored.node_id
    )
    upsert = statement.values(values).on_conflict_do_update(
        index_elements=[stored.table_id],
        set_={"fence": statement.excluded.fence, "node_id": statement.excluded.node_id},
        where=newer | same,
    )
    # RETURNING rather than the row count, which the drivers do not all report for an
    # upsert: a row comes back if it was inserted or updated, none if the WHERE refused.
    if connection.execute(upsert.returning(stored.fence)).first() is None:
        raise StaleOwner(table_id, fence, node)


def stored_fence(connection: Connection, table_id: str) -> int:
    """The newest fence stored for ``table_id`` (0: none): the ``floor`` of a new lease."""
    row = connection.execute(
        select(table_fences.c.fence).where(table_fences.c.table_id == table_id)
    ).first()
    return 0 if row is None else int(row[0])
