"""Fenced writes: the database refuses a table's write from an owner it has moved on
from, on SQLite and on PostgreSQL under concurrent transactions."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import Column, Engine, Integer, MetaData, String, Table, select

from sahrat.server.cluster.fencing import StaleOwner, check_fence, stored_fence

_probe = MetaData()
#: A stand-in for the event log: what each fenced write wrote, in the order it wrote it.
writes = Table(
    "fenced_writes",
    _probe,
    Column("n", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("fence", Integer, nullable=False),
    Column("node", String(64), nullable=False),
)


def fenced_write(engine: Engine, table: str, fence: int, node: str, hold: float = 0.0) -> bool:
    """A write the way the store will make one: the fence, then the write, one
    transaction. ``hold``: seconds to keep the transaction open after the check."""
    try:
        with engine.begin() as c:
            check_fence(c, table, fence, node)
            time.sleep(hold)
            c.execute(writes.insert().values(table_id=table, fence=fence, node=node))
    except StaleOwner:
        return False
    return True


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> Engine:
    chosen: Engine = request.getfixturevalue(
        f"{'pg' if request.param == 'postgres' else 'sqlite'}_engine"
    )
    _probe.create_all(chosen)
    return chosen


def test_newer_fences_pass_and_older_ones_are_refused(engine: Engine) -> None:
    assert fenced_write(engine, "t1", 1, "a")
    assert fenced_write(engine, "t1", 1, "a")  # the owner goes on writing
    assert fenced_write(engine, "t1", 3, "b")  # a new owner
    assert not fenced_write(engine, "t1", 1, "a")  # the old one is fenced out
    assert not fenced_write(engine, "t1", 2, "c")  # and so is anything older
    assert not fenced_write(engine, "t1", 3, "c")  # the same fence from another node
    assert fenced_write(engine, "t2", 1, "a")  # other tables are their own
    with engine.connect() as c:
        assert stored_fence(c, "t1") == 3
        assert stored_fence(c, "nowhere") == 0
        rows = c.execute(select(writes.c.table_id, writes.c.fence, writes.c.node)).all()
    assert [tuple(r) for r in rows] == [
        ("t1", 1, "a"),
        ("t1", 1, "a"),
        ("t1", 3, "b"),
        ("t2", 1, "a"),
    ]


def test_a_refused_write_leaves_nothing(engine: Engine) -> None:
    with engine.begin() as c:
        check_fence(c, "t", 5, "new")
    with pytest.raises(StaleOwner, match="fence 4 of node old is stale"), engine.begin() as c:
        c.execute(writes.insert().values(table_id="t", fence=4, node="old"))
        check_fence(c, "t", 4, "old")
    with engine.connect() as c:
        assert c.execute(select(writes)).all() == []
        assert stored_fence(c, "t") == 5


def test_two_owners_racing_on_postgres_never_write_out_of_order(pg_engine: Engine) -> None:
    """Owners with fences 1…8 write concurrently, each holding its transaction open a
    moment after the check: in the order the writes landed, the fences never go down,
    and every owner that wrote after a newer one had was refused."""
    _probe.create_all(pg_engine)
    rng = random.Random(7)
    outcomes: dict[tuple[int, int], bool] = {}
    start = threading.Barrier(8)

    def owner(fence: int) -> None:
        start.wait()
        for attempt in range(6):
            time.sleep(rng.random() * 0.01)
            outcomes[fence, attempt] = fenced_write(pg_engine, "t", fence, f"n{fence}", 0.005)

    threads = [threading.Thread(target=owner, args=(fence,)) for fence in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with pg_engine.connect() as c:
        landed = [r.fence for r in c.execute(select(writes.c.fence).order_by(writes.c.n))]
        final = stored_fence(c, "t")
    assert landed == sorted(landed)
    assert len(landed) == sum(outcomes.values())
    assert landed[-1] == final == 8  # the newest owner always gets through
    # Refusals happened: some owner found a newer one had written before it.
    assert not all(outcomes.values())


def test_two_nodes_with_one_fence_on_postgres_only_one_writes(pg_engine: Engine) -> None:
    """The same fence from two nodes at once (Redis lost its counter): one keeps it."""
    _probe.create_all(pg_engine)
    start = threading.Barrier(2)
    results: dict[str, bool] = {}

    def node(name: str) -> None:
        start.wait()
        results[name] = fenced_write(pg_engine, "t", 4, name, 0.05)

    threads = [threading.Thread(target=node, args=(n,)) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results.values()) == [False, True]
