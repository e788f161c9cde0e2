"""Invitations over the socket and chat blocking: an invitation reaches a friend online,
joins the private table by its code and expires; every refusal is named and sends
nobody anything; floods are limited; a blocked player's chat lines and reactions do not
reach the player who blocked them. Real server, real clients, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import shared_server
from tests.server.friends_online import befriend, block, online, sent_of_type
from tests.server.harness import Player, Server, error_for, new_account, run

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]

#: How long an invitation lasts on this module's server.
LASTS = 3.0
SETTINGS = {"accounts_burst": 100_000}


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {**SETTINGS, "invitation_seconds": LASTS}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


async def refused(inviter: Player, who: object) -> dict[str, Any]:
    """The error that answers an invitation to ``who``."""
    await inviter.send(type="invite", player=who)
    return await inviter.expect("error")


def test_an_invitation_joins_the_private_table_by_its_code_and_expires(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        await pa.send(type="create", game="jackaroo", seats=4, private=True)
        table = (await pa.expect("table"))["table"]
        await pa.send(type="invite", player=b.id, id="inv1")
        answer = await pa.expect("invited")
        assert (answer["id"], answer["player"], answer["table"]) == ("inv1", b.id, table["id"])
        card = await pb.expect("invitation")
        assert card["from"] == {"id": a.id, "name": a.name}
        assert card["code"] == table["code"]
        assert card["table"]["id"] == table["id"] and card["table"]["private"] is True
        assert card["invitation"] == answer["invitation"]
        await pb.send(type="join", code=card["code"])
        joined = await pb.expect("table")
        assert joined["table"]["id"] == table["id"]
        assert b.id in [s.get("player") for s in joined["seats"]]
        expired = await pb.expect("invitation_expired", timeout=LASTS + 5)
        assert expired["invitation"] == card["invitation"]
        await pa.close()
        await pb.close()

    run(scenario())


def test_a_public_waiting_table_invitation_names_the_table_and_no_code(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        await pa.send(type="create", game="jackaroo", seats=4)
        table = (await pa.expect("table"))["table"]["id"]
        await pa.send(type="invite", player=b.id)
        card = await pb.expect("invitation")
        assert card["table"]["id"] == table and "code" not in card
        await pb.send(type="join", table=table)
        assert (await pb.expect("table"))["table"]["id"] == table
        await pa.close()
        await pb.close()

    run(scenario())


def test_every_refusal_is_named_and_nobody_is_sent_anything(server: Server) -> None:
    a, friend, stranger, blocker, offline, full = (new_account(server) for _ in range(6))
    for other in (friend, blocker, offline, full):
        befriend(server, a, other)

    async def scenario() -> None:
        pa = await online(server, a)
        others = [await online(server, x) for x in (friend, stranger, blocker, full)]
        pf = others[0]
        block(server, blocker, a)
        # Not seated yet.
        assert (await refused(pa, friend.id))["code"] == "not_seated"
        await pa.send(type="create", game="jackaroo", seats=2, private=True)
        code = (await pa.expect("table"))["table"]["code"]
        refusals = {
            a.id: "invite_self",
            stranger.id: "not_friends",
            blocker.id: "blocked",
            offline.id: "invitee_offline",
            "nobody-at-all": "not_friends",
        }
        for who, expected in refusals.items():
            assert (await refused(pa, who))["code"] == expected
        assert (await error_for(pa, type="invite"))["code"] == "bad_field"
        assert (await refused(pa, 7))["code"] == "bad_field"
        # The friend takes the last seat: already there, then the table is full.
        await pf.send(type="join", code=code)
        await pf.expect("table")
        assert (await refused(pa, friend.id))["code"] == ("already_at_table")
        assert (await refused(pa, full.id))["code"] == "table_full"
        await pa.send(type="start")
        await pa.expect("table", lambda m: m["table"]["status"] != "waiting")
        assert (await refused(pa, full.id))["code"] == "table_started"
        await asyncio.sleep(0.3)
        for player in others:
            assert sent_of_type(player, "invitation") == []
        for player in (pa, *others):
            await player.close()

    run(scenario())


def test_a_guest_cannot_invite_and_cannot_be_invited(server: Server) -> None:
    a = new_account(server)

    async def scenario() -> None:
        guest = Player(server, "guest")
        await guest.connect()
        pa = await online(server, a)
        await guest.send(type="create", game="jackaroo", seats=4, private=True)
        await guest.expect("table")
        assert (await refused(guest, a.id))["code"] == "not_friends"
        await pa.send(type="create", game="jackaroo", seats=4, private=True)
        await pa.expect("table")
        answer = await refused(pa, guest.player_id)
        assert answer["code"] == "not_friends"
        await asyncio.sleep(0.2)
        assert sent_of_type(pa, "invitation") == [] == sent_of_type(guest, "invitation")
        await guest.close()
        await pa.close()

    run(scenario())


def test_a_flood_of_invitations_is_limited(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    befriend(server, a, b)

    async def scenario() -> None:
        pa, pb = await online(server, a), await online(server, b)
        await pa.send(type="create", game="jackaroo", seats=4, private=True)
        await pa.expect("table")
        for n in range(5):
            await pa.send(type="invite", player=b.id, id=n)
            await pa.expect("invited", lambda m, n=n: m["id"] == n)
        limited = await refused(pa, b.id)
        assert limited["code"] == "invite_rate" and limited["retry_after"] >= 1
        await asyncio.sleep(0.3)
        # One card per table and friend: each new one took the last one back.
        cards = sent_of_type(pb, "invitation")
        assert len(cards) == 5
        taken_back = {m["invitation"] for m in sent_of_type(pb, "invitation_expired")}
        assert taken_back == {c["invitation"] for c in cards[:-1]}
        await pa.close()
        await pb.close()

    run(scenario())


def test_a_blocked_players_chat_and_reactions_do_not_reach_the_blocker(server: Server) -> None:
    a, b, c = new_account(server), new_account(server), new_account(server)

    async def scenario() -> None:
        pa, pb, pc = [await online(server, x) for x in (a, b, c)]
        await pa.send(type="create", game="jackaroo", seats=4, private=True)
        code = (await pa.expect("table"))["table"]["code"]
        for p in (pb, pc):
            await p.send(type="join", code=code)
            await p.expect("table")
        block(server, b, a)
        await pa.send(type="chat", text="hidden from b")
        await pa.expect("chat", lambda m: m["text"] == "hidden from b")
        await pc.expect("chat", lambda m: m["text"] == "hidden from b")
        await pa.send(type="react", reaction="clap")
        await pa.expect("react")
        await pc.expect("react")
        # B's own line comes after A's: had A's reached B, it would be there first.
        await pb.send(type="chat", text="from b")
        await pb.expect("chat", lambda m: m["text"] == "from b")
        await pa.expect("chat", lambda m: m["text"] == "from b")
        assert not any("hidden from b" in t for t in pb.received)
        assert sent_of_type(pb, "react") == []
        # Nor does it come back with the history after a reload; the others still have it.
        await pb.close()
        again = await online(server, b)
        await again.send(type="join", code=code)
        history = await again.expect("chat_history")
        assert [line["text"] for line in history["messages"]] == ["from b"]
        await pc.close()
        pc = await online(server, c)
        await pc.send(type="join", code=code)
        history = await pc.expect("chat_history")
        assert [line["text"] for line in history["messages"]] == ["hidden from b", "from b"]
        for p in (pa, again, pc):
            await p.close()

    run(scenario())
