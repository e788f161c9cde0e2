"""The shared lobby in a real Redis: every node reads every node's tables; a dead
node's tables leave on their own; the entries come back after a Redis restart."""

from __future__ import annotations

import asyncio
import contextlib

from sahrat.server.cluster.lobby import ClusterLobby
from sahrat.server.cluster.redis_link import connect
from tests.server.cluster.conftest import SpareRedis


def test_every_node_reads_every_nodes_tables(redis_url: str, prefix: str) -> None:
    async def scenario() -> None:
        a = ClusterLobby(connect(redis_url), "a", prefix=prefix, ttl=0.5)
        b = ClusterLobby(connect(redis_url), "b", prefix=prefix, ttl=30.0)
        try:
            await a.publish("t1", {"id": "t1", "game": "jackaroo", "seated": 1})
            await b.publish("t2", {"id": "t2", "game": "buraco", "seated": 3})
            await a.publish("t1", {"id": "t1", "game": "jackaroo", "seated": 2})
            assert await b.entries() == [
                {"id": "t1", "game": "jackaroo", "seated": 2, "node": "a"},
                {"id": "t2", "game": "buraco", "seated": 3, "node": "b"},
            ]
            await b.remove("t2")
            assert [e["id"] for e in await a.entries()] == ["t1"]
            await asyncio.sleep(0.8)  # a stopped refreshing (it died): t1 expires
            assert await b.entries() == []
            assert await b.redis.smembers(f"{prefix}lobby") == set()  # type: ignore[misc]
        finally:
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(scenario())


def test_the_lobby_comes_back_after_redis_restarts(spare_redis: SpareRedis) -> None:
    async def scenario() -> None:
        a = ClusterLobby(connect(spare_redis.url), "a", refresh_every=0.1)
        b = ClusterLobby(connect(spare_redis.url), "b", refresh_every=0.1)
        loops = [asyncio.create_task(lobby.run()) for lobby in (a, b)]
        try:
            await a.publish("t1", {"id": "t1"})
            await b.publish("t2", {"id": "t2"})
            spare_redis.restart()
            await asyncio.sleep(0.05)
            # While it is away, a new table is kept to be written when it is back.
            with contextlib.suppress(Exception):
                await a.publish("t3", {"id": "t3"})
            for _ in range(200):
                with contextlib.suppress(Exception):
                    if len(await a.entries()) == 3:
                        break
                await asyncio.sleep(0.05)
            assert [(e["id"], e["node"]) for e in await b.entries()] == [
                ("t1", "a"), ("t2", "b"), ("t3", "a"),
            ]  # fmt: skip
        finally:
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(scenario())
