"""Table leases in a real Redis: one owner at a time, a fence that grows with each new
owner, and an owner that stopped renewing learns it lost the table, and the database
refuses its writes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine

from sahrat.server import metrics
from sahrat.server.cluster.fencing import StaleOwner, check_fence, stored_fence
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import ClusterUnavailable, connect
from tests.server.cluster.conftest import SpareRedis


@pytest.fixture
def nodes(redis_url: str, prefix: str) -> Callable[[], Nodes]:
    """Nodes' leases, made in a test's event loop and closed with it."""
    return lambda: Nodes(redis_url, prefix)


class Nodes:
    def __init__(self, url: str, prefix: str) -> None:
        self.url, self.prefix = url, prefix
        self.made: list[Leases] = []

    def __call__(self, name: str, url: str = "", **options: Any) -> Leases:
        leases = Leases(connect(url or self.url), name, prefix=self.prefix, **options)
        self.made.append(leases)
        return leases

    async def __aenter__(self) -> Nodes:
        return self

    async def __aexit__(self, *exc: object) -> None:
        for leases in self.made:
            await leases.redis.aclose()


def test_two_nodes_racing_for_a_table_one_owns_it(nodes: Callable[[], Nodes]) -> None:
    async def race() -> None:
        async with nodes() as make_node:
            for round_ in range(20):
                racers = [make_node(f"n{i}") for i in range(4)]
                fences = await asyncio.gather(*(n.acquire(f"t{round_}") for n in racers))
                won = [n for n, f in zip(racers, fences, strict=True) if f is not None]
                assert len(won) == 1
                assert (await won[0].owner(f"t{round_}")) == (
                    won[0].node,
                    won[0].fence(f"t{round_}"),
                )

    asyncio.run(race())


def test_the_fence_grows_with_each_new_owner(nodes: Callable[[], Nodes]) -> None:
    async def owners() -> None:
        async with nodes() as make_node:
            a, b = make_node("a", ttl=0.3), make_node("b", ttl=0.3)
            first = await a.acquire("t")
            assert first is not None
            assert await b.acquire("t") is None
            assert await a.release("t")
            second = await b.acquire("t")  # released: taken at once
            assert second is not None and second > first
            await asyncio.sleep(0.5)  # b stops renewing: its lease runs out
            third = await a.acquire("t")
            assert third is not None and third > second
            # The floor: a database that saw a newer fence than Redis ever handed out.
            assert await a.release("t")
            fourth = await b.acquire("t", floor=100)
            assert fourth == 101

    asyncio.run(owners())


def test_renew_and_release_touch_only_ones_own_lease(nodes: Callable[[], Nodes]) -> None:
    async def scenario() -> None:
        async with nodes() as make_node:
            lost: list[tuple[str, int]] = []
            a = make_node("a", ttl=0.3, on_lost=lambda t, f: lost.append((t, f)))
            b = make_node("b", ttl=5.0)
            fence = await a.acquire("t")
            assert fence is not None
            for _ in range(4):  # renewed past its TTL many times over
                await asyncio.sleep(0.15)
                assert await a.renew("t")
            assert await b.acquire("t") is None
            await asyncio.sleep(0.45)
            taken = await b.acquire("t")
            assert taken is not None
            assert not await a.renew("t")
            assert lost == [("t", fence)]
            assert a.fence("t") is None
            assert not await a.release("t")  # it is not a's to release
            assert await b.owner("t") == ("b", taken)

    asyncio.run(scenario())


def test_a_node_paused_past_its_ttl_learns_it_lost_and_its_write_is_refused(
    nodes: Callable[[], Nodes], pg_engine: Engine
) -> None:
    async def scenario() -> None:
        async with nodes() as make_node:
            lost: list[str] = []
            losses = metrics.LEASE_LOSSES._value.get()
            a = make_node("a", ttl=0.4, renew_every=0.1, on_lost=lambda t, f: lost.append(t))
            b = make_node("b", ttl=0.4, renew_every=0.1)
            fence_a = await a.acquire("t")
            assert fence_a is not None
            with pg_engine.begin() as c:
                check_fence(c, "t", fence_a, "a")
            renewing = asyncio.create_task(a.run())
            await asyncio.sleep(0.6)
            assert await b.acquire("t") is None  # a renews: b cannot take it
            assert a.confident("t")
            renewing.cancel()  # a is "paused"
            await asyncio.gather(renewing, return_exceptions=True)
            await asyncio.sleep(0.6)
            assert not a.confident("t")
            with pg_engine.connect() as c:
                floor = stored_fence(c, "t")
            fence_b = await b.acquire("t", floor)
            assert fence_b is not None and fence_b > fence_a
            with pg_engine.begin() as c:  # b claims the table before it plays it
                check_fence(c, "t", fence_b, "b")
            # a resumes: a write it had under way is refused, and its renewals find the loss.
            with pytest.raises(StaleOwner), pg_engine.begin() as c:
                check_fence(c, "t", fence_a, "a")
            assert await a.renew_all() == ["t"]
            assert lost == ["t"]
            assert metrics.LEASE_LOSSES._value.get() == losses + 1

    asyncio.run(scenario())


def test_leases_come_back_after_redis_restarts(
    spare_redis: SpareRedis, nodes: Callable[[], Nodes]
) -> None:
    async def scenario() -> None:
        async with nodes() as make_node:
            a = make_node("a", spare_redis.url, ttl=5.0)
            b = make_node("b", spare_redis.url, ttl=5.0)
            fence = await a.acquire("t")
            assert fence is not None
            assert await a.acquire("u") is not None
            spare_redis.stop()
            with pytest.raises(ClusterUnavailable):
                await a.renew_all()
            assert a.problem() is None  # not yet: a round is due only every few seconds
            assert set(a.held) == {"t", "u"}  # the tables go on without Redis
            spare_redis.start()
            assert await a.renew_all() == []  # re-established, nothing lost
            assert await a.owner("t") == ("a", fence)
            assert await b.acquire("t") is None
            await a.release("t")
            # The counter came back with the lease: the next owner's fence is newer.
            later = await b.acquire("t")
            assert later is not None and later > fence

    asyncio.run(scenario())


def test_redis_away_is_a_clear_error_not_a_hang(
    spare_redis: SpareRedis, nodes: Callable[[], Nodes]
) -> None:
    async def scenario() -> None:
        async with nodes() as make_node:
            a = make_node("a", spare_redis.url)
            spare_redis.stop()
            with pytest.raises(ClusterUnavailable, match="acquiring table t: Redis is unreachable"):
                await asyncio.wait_for(a.acquire("t"), 5)

    asyncio.run(scenario())
