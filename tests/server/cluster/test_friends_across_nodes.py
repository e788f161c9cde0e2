"""Friends on different nodes of a cluster: each sees the other come online, sit at a
table and go, is invited across nodes; a friendship or a block made over REST on one
node holds on the other; a node that drains shows its players gone at once."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sahrat.server.cluster.presence_link import EXPIRE
from tests.server.cluster.test_any_node import Pair, two_nodes
from tests.server.friends_online import (
    befriend,
    block,
    online,
    presence_of,
    sent_of_type,
    told_of,
)
from tests.server.harness import Player, call, new_account, run

PREFIX = f"sahrat-test:friends:{secrets.token_hex(4)}:"
#: The servers' reload grace before a player without a socket is gone (shorter than the
#: default, so that the tests of going offline do not wait for long).
GRACE = 3.0


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    directory = tmp_path_factory.mktemp("friends")
    with two_nodes(directory, PREFIX, ("fa", "fb"), waiting_grace_seconds=GRACE) as nodes:
        yield nodes


async def entry_about(
    player: Player, other: str, online: bool, timeout: float = 10.0
) -> dict[str, Any]:
    """The next presence entry about ``other`` that says ``online`` (or not)."""
    message = await player.expect(
        "presence",
        lambda m: (e := presence_of(m, other)) is not None and e["online"] is online,
        timeout=timeout,
    )
    found = presence_of(message, other)
    assert found is not None
    return found


async def place_about(player: Player, other: str, table: str) -> dict[str, Any]:
    """The next presence entry that shows ``other`` at ``table``."""
    message = await player.expect(
        "presence",
        lambda m: ((presence_of(m, other) or {}).get("at") or {}).get("table") == table,
    )
    found = presence_of(message, other)
    assert found is not None
    return found


def test_friends_on_two_nodes_see_each_other_come_sit_and_go(pair: Pair) -> None:
    salma, omar = new_account(pair.a), new_account(pair.b)
    befriend(pair.a, salma, omar)

    async def scenario() -> None:
        s = await online(pair.a, salma)
        await asyncio.sleep(1.5)  # node a tells the others within its presence interval
        o = await online(pair.b, omar)
        # Omar's whole list, on node b, already names Salma online on node a.
        full = next(m for m in sent_of_type(o, "presence") if m.get("full"))
        seen = presence_of(full, salma.id)
        assert seen is not None and seen["online"] is True and seen["name"] == salma.name
        # Salma, on node a, is told that Omar came online on node b.
        came = await entry_about(s, omar.id, True)
        assert came["name"] == omar.name and came["at"] is None
        # Omar sits at a table on b: Salma sees where.
        await o.send(type="create", game="jackaroo", seats=2)
        created = await o.expect("table")
        table = created["table"]["id"]
        at = await s.expect(
            "presence",
            lambda m: ((presence_of(m, omar.id) or {}).get("at") or {}).get("table") == table,
        )
        where = presence_of(at, omar.id)
        assert where is not None and where["at"]["status"] == "waiting"
        # Salma's friends list over REST, on node a, has Omar there too.
        friends = call(pair.a, "GET", "/api/friends", token=salma.token).body["friends"]
        card = next(f for f in friends if f["id"] == omar.id)
        assert card["presence"]["online"] is True
        assert card["presence"]["at"]["table"] == table
        # Omar goes: after the grace, Salma is told he is offline.
        await o.close()
        gone = await entry_about(s, omar.id, False, timeout=2 * GRACE + 10)
        assert gone["at"] is None
        await s.close()

    run(scenario(), timeout=60)


def test_an_invitation_reaches_a_friend_on_the_other_node(pair: Pair) -> None:
    host, guest = new_account(pair.a), new_account(pair.b)
    befriend(pair.b, host, guest)  # over REST on the other node than the host's socket

    async def scenario() -> None:
        h = await online(pair.a, host)
        g = await online(pair.b, guest)
        await entry_about(h, guest.id, True)
        await h.send(type="create", game="jackaroo", seats=2)
        table = (await h.expect("table"))["table"]["id"]
        await h.send(type="invite", player=guest.id, id=7)
        invited = await h.expect("invited")
        assert invited["player"] == guest.id and invited["table"] == table
        card = await g.expect("invitation")
        assert card["from"]["id"] == host.id and card["table"]["id"] == table
        # The guest accepts by joining: across nodes, as any join.
        await g.send(type="join", table=table)
        joined = await g.expect("table", lambda m: m["table"]["id"] == table)
        assert joined["you"] is not None
        # The host is shown the guest at the table (a seat on node a, the socket on b).
        where = await place_about(h, guest.id, table)
        assert where["at"]["as"] == "seat"
        await asyncio.gather(h.close(), g.close())

    run(scenario(), timeout=60)


def test_a_friend_watching_a_table_on_the_other_node_is_shown_as_a_spectator(
    pair: Pair,
) -> None:
    host, friend = new_account(pair.a), new_account(pair.b)
    befriend(pair.a, host, friend)

    async def scenario() -> None:
        h = await online(pair.a, host)
        f = await online(pair.b, friend)
        await entry_about(h, friend.id, True)
        await h.send(type="create", game="jackaroo", seats=4)
        table = (await h.expect("table"))["table"]["id"]
        # A spectator on node b, whose lobby may already list the table (with the host).
        await f.send(type="watch", table=table)
        watched = await f.expect("table", lambda m: m["table"]["id"] == table)
        assert watched["spectator"] is True
        where = await place_about(h, friend.id, table)
        assert where["at"]["as"] == "spectator"
        await asyncio.gather(h.close(), f.close())

    run(scenario(), timeout=60)


def test_a_block_made_on_one_node_holds_on_the_other(pair: Pair) -> None:
    one, other = new_account(pair.a), new_account(pair.b)
    befriend(pair.a, one, other)

    async def scenario() -> None:
        a = await online(pair.a, one)
        b = await online(pair.b, other)
        await entry_about(a, other.id, True)
        block(pair.a, one, other)  # over REST on node a; the blocked player is on b
        # Each is shown as gone to the other, on both nodes.
        await entry_about(b, one.id, False)
        await b.send(type="invite", player=one.id, id=1)
        refused = await b.expect("error")
        assert refused["code"] in ("blocked", "not_friends"), refused
        assert not sent_of_type(a, "invitation")
        await asyncio.gather(a.close(), b.close())

    run(scenario(), timeout=60)


def test_a_player_with_tabs_on_both_nodes_stays_online_while_one_is_open(pair: Pair) -> None:
    both, friend = new_account(pair.a), new_account(pair.a)
    befriend(pair.a, both, friend)

    async def scenario() -> None:
        f = await online(pair.a, friend)
        on_a = await online(pair.a, both)
        on_b = await online(pair.b, both)
        await entry_about(f, both.id, True)
        await on_a.close()  # the tab on a goes; the one on b stays
        # Past the reload grace on a: a says its tab is gone, b still says online.
        await asyncio.sleep(GRACE + 2.0)
        assert [e["online"] for e in told_of(f, both.id)][-1] is True
        assert all(e["online"] for e in told_of(f, both.id))
        await on_b.close()
        # Told by node b once its grace is over, though nobody is left connected to b
        # (not found out at b's next whole list, up to ten seconds later).
        await entry_about(f, both.id, False, timeout=GRACE + 4)
        await f.close()

    run(scenario(), timeout=60)


def test_a_node_that_drains_shows_its_players_gone_at_once(pair: Pair) -> None:
    leaving, staying = new_account(pair.a), new_account(pair.b)
    befriend(pair.b, leaving, staying)

    async def scenario() -> None:
        s = await online(pair.b, staying)
        x = await online(pair.a, leaving)
        await entry_about(s, leaving.id, True)
        started = time.monotonic()
        await asyncio.to_thread(pair.a.stop)  # SIGTERM: the node drains
        await entry_about(s, leaving.id, False, timeout=15)
        # Told by the draining node, not found out when its entries expired.
        assert time.monotonic() - started < EXPIRE / 2
        await x.close()
        await s.close()

    try:
        run(scenario(), timeout=60)
    finally:
        pair.a.start()  # for whatever runs after
