"""The cluster's directory (who sits where, what a code names) and its outbox, in a real
Redis: a new seat wins over an old one, an old table's node never takes a player back
and is told they moved on, entries expire with their node and return after a restart;
messages to other nodes arrive in order, and a node nobody listens to is reported."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import orjson

from sahrat.server.cluster.directory import Directory
from sahrat.server.cluster.listings import Listings
from sahrat.server.cluster.redis_link import connect
from sahrat.server.cluster.remote import Outbox
from tests.server.cluster.conftest import SpareRedis


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        with contextlib.suppress(Exception):
            if await check():
                return True
        await asyncio.sleep(0.05)
    return False


def test_a_new_seat_wins_and_the_old_node_is_told(redis_url: str, prefix: str) -> None:
    async def scenario() -> None:
        moved: list[tuple[str, str]] = []
        a = Directory(connect(redis_url), prefix=prefix, refresh_every=0.1,
                      moved_on=lambda player, table: moved.append((player, table)))  # fmt: skip
        b = Directory(connect(redis_url), prefix=prefix, refresh_every=0.1)
        loops = [asyncio.create_task(d.run()) for d in (a, b)]
        try:
            a.seated("p1", "ta", live=False)
            a.code("ABC123", "ta")
            assert await eventually(lambda: _is(a.seat_of("p1"), ("ta", False)))
            assert await b.table_of_code("ABC123") == "ta"
            b.seated("p1", "tb", live=True)  # the player sat down on another node
            assert await eventually(lambda: _is(a.seat_of("p1"), ("tb", True)))
            # a's refreshes never take the player back; a is told they moved on.
            assert await eventually(lambda: _true(moved == [("p1", "ta")]))
            await asyncio.sleep(0.3)
            assert await a.seat_of("p1") == ("tb", True)
            # An old table letting the player go does not remove the new seat.
            a.unseated("p1", "ta")
            await asyncio.sleep(0.3)
            assert await b.seat_of("p1") == ("tb", True)
            b.unseated("p1", "tb")
            a.code_gone("ABC123", "ta")
            assert await eventually(lambda: _is(b.seat_of("p1"), None))
            assert await b.table_of_code("ABC123") is None
        finally:
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(scenario())


def test_entries_expire_with_their_node_and_return_after_a_restart(
    spare_redis: SpareRedis,
) -> None:
    async def scenario() -> None:
        a = Directory(connect(spare_redis.url), ttl=0.6, refresh_every=0.1)
        reader = Directory(connect(spare_redis.url))
        loop = asyncio.create_task(a.run())
        try:
            a.seated("p1", "t1", live=True)
            assert await eventually(lambda: _is(reader.seat_of("p1"), ("t1", True)))
            spare_redis.restart()  # it keeps nothing
            assert await eventually(lambda: _is(reader.seat_of("p1"), ("t1", True)), 10)
            loop.cancel()  # the node dies: its entries go on their own
            await asyncio.gather(loop, return_exceptions=True)
            assert await eventually(lambda: _is(reader.seat_of("p1"), None), 3)
        finally:
            loop.cancel()
            await a.redis.aclose()
            await reader.redis.aclose()

    asyncio.run(scenario())


def test_the_outbox_keeps_order_and_reports_a_node_nobody_hears(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> None:
        redis = connect(redis_url)
        gone: list[str] = []
        outbox = Outbox(redis, "a", lambda node: f"{prefix}node:{node}", gone.append)
        listener = connect(redis_url).pubsub()
        await listener.subscribe(f"{prefix}node:b")
        outbox.start()
        try:
            for n in range(2000):
                outbox.put("b", "c", "conn-1", {"x": n})
            got: list[int] = []
            deadline = asyncio.get_running_loop().time() + 10
            while len(got) < 2000:
                assert asyncio.get_running_loop().time() < deadline, f"only {len(got)} arrived"
                message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
                if message is None:  # the subscription's own confirmation, or a wait
                    continue
                envelope = orjson.loads(message["data"])
                assert (envelope["k"], envelope["to"], envelope["from"]) == ("c", "conn-1", "a")
                got.append(envelope["body"]["x"])
            assert got == list(range(2000))
            # Nobody listens on node c's channel: after a while it is reported once.
            for _ in range(40):
                outbox.put("c", "c", "conn-2", {"x": 0})
                await asyncio.sleep(0.1)
            assert gone == ["c"]
        finally:
            await outbox.close()
            await listener.aclose()
            await redis.aclose()

    asyncio.run(scenario())


def test_listings_show_other_nodes_tables_and_pick_the_fullest_for_play_now() -> None:
    listings = Listings({})
    entries = [
        {"id": "t1", "node": "a", "kind": "free", "status": "waiting", "game": "jackaroo",
         "stake": 0, "seats": 4, "free": 3},
        {"id": "t2", "node": "b", "kind": "free", "status": "waiting", "game": "jackaroo",
         "stake": 0, "seats": 4, "free": 1},
        {"id": "t3", "node": "b", "kind": "coin", "status": "waiting", "game": "jackaroo",
         "stake": 50, "seats": 4, "free": 1},
        {"id": "t4", "node": "me", "kind": "free", "status": "waiting", "game": "jackaroo",
         "stake": 0, "seats": 4, "free": 1},
    ]  # fmt: skip
    changed, gone = listings.update(entries, "me")
    assert changed and gone == []
    assert sorted(listings) == ["t1", "t2", "t3"]  # its own node's entry is not a copy
    assert "node" not in listings["t1"].summary()
    fitting = listings.fitting("jackaroo", None, 0)
    assert fitting is not None and fitting.id == "t2"
    coin = listings.fitting("jackaroo", 4, 50)
    assert coin is not None and coin.id == "t3"
    assert listings.fitting("buraco", None, 0) is None
    assert listings.update(entries, "me") == (False, [])
    changed, gone = listings.update(entries[:1], "me")
    assert changed and sorted(gone) == ["t2", "t3"]


async def _is(value: Awaitable[object], expected: object) -> bool:
    return await value == expected


async def _true(value: bool) -> bool:
    return value
