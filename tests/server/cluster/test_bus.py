"""Messages between nodes over a real Redis: to a table's owner (through an outbox, as
the edge sends them), to a player's sockets wherever they are; a clear error, quickly,
when Redis is away, and the bus back when it returns."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from sahrat.server.cluster.bus import Bus
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import ClusterUnavailable, connect
from sahrat.server.cluster.remote import Outbox
from tests.server.cluster.conftest import SpareRedis


class Node:
    """A node's leases, bus and outbox, and what its bus delivered."""

    def __init__(self, url: str, prefix: str, name: str) -> None:
        self.name = name
        self.leases = Leases(connect(url), name, prefix=prefix)
        self.got: list[tuple[str, str, Any]] = []
        self.reconnects = 0

        async def reconnected() -> None:
            self.reconnects += 1

        self.bus = Bus(
            connect(url), name, prefix=prefix,
            on_table=lambda t, body: self.got.append(("table", t, body)),
            on_player=lambda p, body: self.got.append(("player", p, body)),
            on_reconnect=reconnected, retry_every=0.1,
        )  # fmt: skip
        self.outbox = Outbox(connect(url), name, self.bus.channel)
        self.outbox.start()
        self.bounced: list[Any] = []

    async def to_table(self, table: str, body: Any) -> None:
        """As the edge: to the owner the lease names (bounces noted)."""
        owner = await self.leases.owner(table)
        assert owner is not None, f"nobody owns {table}"
        self.outbox.put(owner[0], "t", table, body, lambda: self.bounced.append(body))

    async def close(self) -> None:
        await self.outbox.close()
        await self.outbox.redis.aclose()
        await self.bus.close()
        await self.bus.redis.aclose()
        await self.leases.redis.aclose()


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.02)


def test_messages_reach_the_tables_owner_and_the_players_nodes(redis_url: str, prefix: str) -> None:
    async def scenario() -> None:
        a, b, c = (Node(redis_url, prefix, n) for n in "abc")
        try:
            for node in (a, b, c):
                await node.bus.start()
                assert node.bus.connected
            assert await b.leases.acquire("t") is not None
            await a.to_table("t", {"move": "x"})
            await c.to_table("t", {"move": "y"})
            await a.to_table("t", {"move": "z"})
            await until(lambda: len(b.got) == 3)
            # One sender's messages arrive in the order sent.
            assert [m[2]["move"] for m in b.got if m[2]["move"] != "y"] == ["x", "z"]
            assert a.got == c.got == []
            assert await a.leases.owner("nobody's") is None
            # A player with tabs on two nodes gets a message on both, once each.
            await a.bus.player_here("p1")
            await c.bus.player_here("p1")
            await c.bus.player_here("p1")
            assert await b.bus.to_player("p1", {"view": 1}) == 2
            await until(lambda: len(a.got) == 1 and len(c.got) == 1)
            assert a.got == c.got == [("player", "p1", {"view": 1})]
            await c.bus.player_gone("p1")  # one of two tabs
            await a.bus.player_gone("p1")
            assert await b.bus.to_player("p1", {"view": 2}) == 1
            await until(lambda: len(c.got) == 2)
            assert len(a.got) == 1
            # A node that died leaves its name behind: the first send cleans it away.
            await c.bus.close()
            assert await b.bus.to_player("p1", {"view": 3}) == 0
            members = await b.bus.redis.smembers(f"{prefix}where:p1")  # type: ignore[misc]
            assert members == set()
            # A message to a table whose owner stopped listening bounces (its sender
            # answers the player "table moving"), rather than being lost unseen.
            await b.bus.close()
            await a.to_table("t", {"move": "w"})
            await until(lambda: a.bounced == [{"move": "w"}])
        finally:
            for node in (a, b, c):
                await node.close()

    asyncio.run(scenario())


def test_without_redis_sending_fails_fast_and_the_bus_comes_back(spare_redis: SpareRedis) -> None:
    async def scenario() -> None:
        a, b = Node(spare_redis.url, "", "a"), Node(spare_redis.url, "", "b")
        try:
            await a.bus.start()
            await b.bus.start()
            await b.bus.player_here("p")
            assert await b.leases.acquire("t") is not None
            spare_redis.stop()
            await until(lambda: not a.bus.connected and not b.bus.connected)
            # An error, not a wait: the outer bound only turns a hang into a failure.
            with pytest.raises(ClusterUnavailable, match="Redis is unreachable"):
                await asyncio.wait_for(a.leases.owner("t"), 10)
            with pytest.raises(ClusterUnavailable):
                await asyncio.wait_for(a.bus.to_player("p", {}), 10)
            spare_redis.start()  # empty: it forgot the lease and where p is
            await until(lambda: a.bus.connected and b.bus.connected)
            assert a.reconnects == b.reconnects == 1
            # b registered its player again on its own; its lease comes back with renewal.
            assert await b.leases.renew_all() == []
            assert await a.bus.to_player("p", {"hello": 1}) == 1
            await a.to_table("t", {"move": 1})
            await until(lambda: len(b.got) == 2)
            assert b.got == [("player", "p", {"hello": 1}), ("table", "t", {"move": 1})]
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
