"""Presence over the socket: a player's friends see them online and at which table, live;
strangers and blocked players see nothing; going offline waits for the reload grace.
Real server, real WebSocket clients, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.server.conftest import shared_server
from tests.server.friends_online import (
    at_table,
    befriend,
    block,
    online,
    sent_of_type,
    told_of,
)
from tests.server.harness import Server, call, new_account, run

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]

#: A reload within this is not shown to friends as going away.
GRACE = 1.0
SETTINGS = {"accounts_burst": 100_000, "waiting_grace_seconds": GRACE}


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, **SETTINGS) as server:
        yield server


def test_a_friend_sees_where_one_sits_and_a_stranger_sees_nothing(server: Server) -> None:
    a, b, stranger = new_account(server), new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pb, ps = await online(server, b), await online(server, stranger)
        pa = await online(server, a)
        # A's own first list shows B online, at no table.
        full = sent_of_type(pa, "presence")[0]
        assert full["friends"] == [{"player": b.id, "name": b.name, "online": True, "at": None}]
        came = await at_table(pb, a.id, lambda e: e["online"])
        assert came == {"player": a.id, "name": a.name, "online": True, "at": None}
        await pa.send(type="create", game="jackaroo", seats=4)
        table = (await pa.expect("table"))["table"]["id"]
        seen = await at_table(pb, a.id, lambda e: e["at"] is not None)
        assert seen["at"] == {
            "table": table, "game": "jackaroo", "status": "waiting", "as": "seat", "free": 3
        }  # fmt: skip
        await pa.send(type="leave")
        left = await at_table(pb, a.id, lambda e: e["at"] is None)
        assert left["online"] is True
        await pa.close()
        gone = await at_table(pb, a.id, lambda e: not e["online"])
        assert gone == {"player": a.id, "online": False, "at": None}
        await asyncio.sleep(0.3)
        assert told_of(ps, a.id) == []
        assert told_of(ps, b.id) == []
        await pb.close()
        await ps.close()

    run(scenario())


def test_a_private_table_is_shown_only_as_private(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        await pa.send(type="create", game="jackaroo", seats=4, private=True)
        state = await pa.expect("table")
        seen = await at_table(pb, a.id, lambda e: e["at"] is not None)
        assert seen["at"] == {"private": True}
        code, table = state["table"]["code"], state["table"]["id"]
        texts = [t for t in pb.received if '"presence"' in t]
        assert not any(code in t or table in t for t in texts)
        await pa.close()
        await pb.close()

    run(scenario())


def test_a_friend_watching_is_shown_as_a_spectator(server: Server) -> None:
    a, b, host = new_account(server), new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        ph, pa, pb = await online(server, host), await online(server, a), await online(server, b)
        await ph.send(type="create", game="jackaroo", seats=4)
        table = (await ph.expect("table"))["table"]["id"]
        await pa.send(type="watch", table=table)
        seen = await at_table(pb, a.id, lambda e: e["at"] is not None)
        assert (seen["at"]["table"], seen["at"]["as"]) == (table, "spectator")
        await pa.send(type="unwatch")
        await at_table(pb, a.id, lambda e: e["at"] is None)
        for p in (pa, pb, ph):
            await p.close()

    run(scenario())


def test_a_reload_within_the_grace_is_not_shown_as_leaving(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        assert told_of(pb, a.id) == [{"player": a.id, "name": a.name, "online": True, "at": None}]
        await pa.close()
        again = await online(server, a)
        await asyncio.sleep(GRACE + 1.0)
        assert all(e["online"] for e in told_of(pb, a.id))
        await again.close()
        await at_table(pb, a.id, lambda e: not e["online"])
        await pb.close()

    run(scenario())


def test_blocked_players_see_nothing_of_each_other(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        await at_table(pa, b.id, lambda e: e["online"])
        block(server, b, a)
        # Each is shown the other as gone at once.
        await at_table(pa, b.id, lambda e: not e["online"])
        await at_table(pb, a.id, lambda e: not e["online"])
        before_a, before_b = len(told_of(pa, b.id)), len(told_of(pb, a.id))
        await pa.send(type="create", game="jackaroo", seats=4)
        await pa.expect("table")
        await pb.close()
        again = await online(server, b)
        await asyncio.sleep(1.0)
        assert told_of(again, a.id) == []
        assert len(told_of(pb, a.id)) == before_b
        assert len(told_of(pa, b.id)) == before_a
        await pa.close()
        await again.close()

    run(scenario())


def test_the_friends_list_over_rest_carries_presence(server: Server) -> None:
    a, b, c = new_account(server), new_account(server), new_account(server)
    befriend(server, a, b)
    befriend(server, a, c)

    async def scenario() -> None:
        pb = await online(server, b)
        await pb.send(type="create", game="jackaroo", seats=4)
        table = (await pb.expect("table"))["table"]["id"]
        await asyncio.sleep(0.1)
        friends = call(server, "GET", "/api/friends", token=a.token).body["friends"]
        by_id = {f["id"]: f["presence"] for f in friends}
        assert by_id[c.id] is None
        assert by_id[b.id]["online"] is True
        assert by_id[b.id]["at"]["table"] == table
        await pb.close()

    run(scenario())


def test_a_new_friendship_is_shown_at_once(server: Server) -> None:
    a, b = new_account(server), new_account(server)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        assert sent_of_type(pa, "presence")[0]["friends"] == []
        befriend(server, a, b)
        await at_table(pa, b.id, lambda e: e["online"])
        await at_table(pb, a.id, lambda e: e["online"])
        await pa.close()
        await pb.close()

    run(scenario())
