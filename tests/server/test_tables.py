"""Tables: private tables and their host, bots, play now, the lobby, chat in both channels."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.harness import Player, Server, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("database_url")


async def people(server: Server, count: int) -> list[Player]:
    players = [Player(server, f"p{i}") for i in range(count)]
    for player in players:
        await player.connect()
    return players


def test_a_private_table_host_assigns_partners_then_starts(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, min_turn_seconds=1.0) as server:
            host, *guests = await people(server, 4)
            await host.send(type="create", game="jackaroo", seats=4, private=True)
            state = await host.expect("table")
            code = state["table"]["code"]
            assert state["table"]["host"] == host.player_id and len(code) == 6
            # Not in the lobby, and not reachable by its id: by its code only.
            assert server.get("/api/tables")["tables"] == []
            await guests[0].send(type="join", table=state["table"]["id"])
            assert (await guests[0].expect("error"))["code"] == "no_such_table"
            for guest in guests:
                await guest.send(type="join", code=code.lower())
                await guest.expect("table")
            full = await host.expect("table", lambda m: m["table"]["free"] == 0)
            assert full["table"]["status"] == "waiting"  # a private table waits for its host
            # Only the host assigns seats; the host puts p2 opposite itself (partners).
            order = [host.player_id, guests[0].player_id, guests[1].player_id,
                     guests[2].player_id]  # fmt: skip
            await guests[0].send(type="assign", order=order)
            assert (await guests[0].expect("error"))["code"] == "not_host"
            await host.send(type="assign", order=order[:3])
            assert (await host.expect("error"))["code"] == "bad_field"
            await host.send(type="turn_time", seconds=0.2)
            assert (await host.expect("error"))["code"] == "bad_field"
            order = [host.player_id, guests[0].player_id, guests[1].player_id,
                     guests[2].player_id]  # fmt: skip
            order[1], order[2] = order[2], order[1]
            await host.send(type="assign", order=order)
            assigned = await host.expect(
                "table", lambda m: m["seats"][2]["player"] == guests[0].player_id
            )
            assert assigned["seats"][1]["player"] == guests[1].player_id
            await host.send(type="turn_time", seconds=25)
            await host.expect("table", lambda m: m["table"]["turn_seconds"] == 25)
            await guests[0].send(type="start")
            assert (await guests[0].expect("error"))["code"] == "not_host"
            await host.send(type="start")
            for player in (host, *guests):
                await player.expect("seed_request")
                await player.send(type="seed", seed="s" + player.name)
            started = await guests[0].expect("table", lambda m: m["table"]["status"] == "playing")
            assert started["you"] == 2  # the seat the host gave, partner of seat 0
            # The rules stay as chosen; the host may still change the turn time.
            await host.send(type="assign", order=order)
            assert (await host.expect("error"))["code"] == "wrong_phase"
            for player in (host, *guests):
                await player.close()

    run(scenario())


def test_chat_at_the_table_and_within_the_team(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, chat_max_chars=50, chat_per_minute=5) as server:
            players = await people(server, 4)
            await players[0].send(type="create", game="buraco", seats=4)
            table_id = (await players[0].expect("table"))["table"]["id"]
            for player in players[1:]:
                await player.send(type="join", table=table_id)
                await player.expect("table")
            seat_of = {}
            for player in players:
                state = await player.expect("table", lambda m: m["table"]["free"] == 0)
                seat_of[player.name] = state["you"]
            by_seat = {seat_of[p.name]: p for p in players}
            await by_seat[0].send(type="chat", channel="table", text="<b>السلام</b> عليكم")
            for player in players:
                line = await player.expect("chat")
                assert line["text"] == "<b>السلام</b> عليكم"  # plain text, as sent
                assert line["channel"] == "table" and line["seat"] == 0
            await by_seat[1].send(type="chat", channel="team", text="خذ الكومة")
            for seat in (1, 3):
                line = await by_seat[seat].expect("chat")
                assert line["channel"] == "team" and line["text"] == "خذ الكومة"
            await by_seat[0].send(type="ping", id="after")
            await by_seat[0].expect("pong")
            await asyncio.sleep(0.3)
            for seat in (0, 2):
                assert not [m for m in by_seat[seat].drain() if m["type"] == "chat"]
                assert all("خذ الكومة" not in text for text in by_seat[seat].received)
            # Limits: length, rate, channel names, empty lines.
            await by_seat[2].send(type="chat", text="x" * 51)
            assert (await by_seat[2].expect("error"))["code"] == "chat_too_long"
            await by_seat[2].send(type="chat", channel="shout", text="hi")
            assert (await by_seat[2].expect("error"))["code"] == "bad_field"
            await by_seat[2].send(type="chat", text="   ")
            assert (await by_seat[2].expect("error"))["code"] == "bad_field"
            for i in range(5):
                await by_seat[2].send(type="chat", text=f"line {i}")
                await by_seat[2].expect("chat", lambda m, i=i: m["text"] == f"line {i}")
            await by_seat[2].send(type="chat", text="one too many")
            assert (await by_seat[2].expect("error"))["code"] == "chat_rate"
            for player in players:
                await player.close()

    run(scenario())


def test_team_chat_needs_a_partner(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            (player,) = await people(server, 1)
            await player.send(type="create", game="jackaroo", seats=2)
            await player.expect("table")
            await player.send(type="chat", channel="team", text="anyone?")
            assert (await player.expect("error"))["code"] == "no_partner"
            await player.close()

    run(scenario())


def test_bots_fill_a_free_table_and_are_labelled(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            (player,) = await people(server, 1)
            await player.send(type="create", game="jackaroo", seats=4)
            await player.expect("table")
            await player.send(type="bots")
            state = await player.expect("table", lambda m: m["table"]["free"] == 0)
            bots = [s for s in state["seats"] if s["bot"]]
            assert len(bots) == 3 and all(s["name"] for s in bots)
            request = await player.expect("seed_request")
            await player.send(type="seed", seed="mine")
            started = await player.expect("table", lambda m: m["table"]["status"] == "playing")
            seeds = started["client_seeds"]
            assert seeds[started["you"]] == "mine" and len(set(seeds)) == 4
            assert started["commitment"] == request["commitment"]
            await player.close()

    run(scenario())


def test_play_now_joins_a_waiting_table_and_the_lobby_is_live(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            watcher, first, second = await people(server, 3)
            await watcher.send(type="lobby")
            assert (await watcher.expect("lobby"))["tables"] == []
            await first.send(type="play_now", game="buraco", seats=2)
            table = (await first.expect("table"))["table"]
            listed = await watcher.expect("lobby", lambda m: bool(m["tables"]))
            assert listed["tables"][0]["id"] == table["id"]
            assert listed["tables"][0]["free"] == 1
            await second.send(type="play_now", game="buraco", seats=2)
            joined = await second.expect("table")
            assert joined["table"]["id"] == table["id"]
            await watcher.expect(
                "lobby", lambda m: m["tables"] and m["tables"][0]["status"] != "waiting"
            )
            for player in (watcher, first, second):
                await player.close()

    run(scenario())


def test_one_table_at_a_time_even_in_a_hurry(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            (player,) = await people(server, 1)
            await player.send(type="create", game="jackaroo", seats=4)
            await player.send(type="create", game="buraco", seats=4)
            await player.send(type="play_now", game="buraco")
            errors = [await player.expect("error") for _ in range(2)]
            assert {e["code"] for e in errors} == {"already_seated"}
            await asyncio.sleep(0.3)
            tables = server.get("/api/tables")["tables"]
            assert len(tables) == 1 and tables[0]["game"] == "jackaroo"
            # Leaving frees the player (and an empty waiting table closes).
            await player.send(type="leave")
            await player.expect("left")
            await player.send(type="create", game="buraco", seats=2)
            assert (await player.expect("table"))["table"]["game"] == "buraco"
            await player.close()

    run(scenario())


def test_a_player_who_left_by_the_grace_may_play_elsewhere(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, grace_seconds=1.0) as server:
            (player,) = await people(server, 1)
            await player.send(type="create", game="jackaroo", seats=2)
            await player.expect("table")
            await player.send(type="bots")
            await player.expect("seed_request")
            await player.close()
            await asyncio.sleep(2.5)
            back = Player(server)
            await back.connect(token=player.token)
            await back.send(type="play_now", game="jackaroo", seats=2)
            state = await back.expect("table")
            assert state["table"]["status"] == "waiting" and state["you"] is not None
            await back.close()

    run(scenario())


def test_a_waiting_table_keeps_its_seats_for_the_grace_after_a_restart(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, waiting_grace_seconds=0.5, grace_seconds=3.0).start()
        try:
            a, b = await people(server, 2)
            await a.send(type="create", game="jackaroo", seats=4)
            table_id = (await a.expect("table"))["table"]["id"]
            await b.send(type="join", table=table_id)
            await b.expect("table")
            server.kill()
            server.start()
            await asyncio.sleep(1.5)
            # Past a reload's grace, within a restart's: both seats are still taken.
            assert server.get(f"/api/tables/{table_id}")["free"] == 2
            back = Player(server, "a")
            await back.connect(token=a.token)
            state = await back.expect("table")
            assert state["table"]["id"] == table_id and state["you"] == 0
            # The one who did not come back loses the seat when the grace runs out.
            await back.expect("table", lambda m: m["table"]["free"] == 3, timeout=5)
            await back.close()
            await asyncio.sleep(1.5)
            # Nobody left: the seat is free again and the empty table closed.
            assert server.get("/api/tables")["tables"] == []
        finally:
            server.stop()

    run(scenario())


def test_a_reload_before_the_first_deal_keeps_the_seat_and_the_host(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, waiting_grace_seconds=1.5) as server:
            host, guest = await people(server, 2)
            await host.send(type="create", game="buraco", seats=4, private=True)
            code = (await host.expect("table"))["table"]["code"]
            await guest.send(type="join", code=code)
            await guest.expect("table")
            await host.close()  # a reload
            again = Player(server, "host")
            await again.connect(token=host.token)
            state = await again.expect("table")
            assert state["you"] == 0 and state["table"]["host"] == host.player_id
            # The guest's connection drops for good: the seat is free after the short grace.
            await guest.close()
            state = await again.expect("table", lambda m: m["table"]["free"] == 3, timeout=5)
            assert [s.get("empty", False) for s in state["seats"]] == [False, True, True, True]
            await again.close()

    run(scenario())
