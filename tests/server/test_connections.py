"""Dropped connections, the grace period, heartbeats, the clock, and a server killed mid-game."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from sahrat.records import STEPS, verify
from tests.server.conftest import game_over, play_all, seat_four
from tests.server.harness import Player, Server, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("database_url")


def test_reconnecting_within_the_grace_restores_seat_hand_and_chat(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, grace_seconds=30.0, turn_seconds=30.0) as server:
            players = await seat_four(server, "jackaroo")
            leaver = players[1]
            seat = leaver.state["you"]  # type: ignore[index]
            hand = leaver.state["view"]["hands"][str(seat)]  # type: ignore[index]
            await players[0].send(type="chat", text="مرحبا")
            await leaver.expect("chat")
            await leaver.close()
            # The others see the seat disconnected, not gone.
            state = await players[0].expect(
                "table", lambda m: not m["seats"][seat]["connected"], timeout=5
            )
            assert not state["seats"][seat]["bot"]
            back = Player(server, "back")
            welcome = await back.connect(token=leaver.token)
            assert welcome["player"]["id"] == leaver.player_id
            history = await back.expect("chat_history")
            assert [m["text"] for m in history["messages"]] == ["مرحبا"]
            state = await back.expect("table")
            assert state["you"] == seat
            assert state["view"]["hands"][str(seat)] == hand
            await players[0].expect("table", lambda m: m["seats"][seat]["connected"])
            for player in (*players, back):
                await player.close()

    run(scenario())


def test_after_the_grace_a_bot_takes_the_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, grace_seconds=1.5, turn_seconds=30.0) as server:
            players = await seat_four(server, "jackaroo")
            leaver = players[2]
            seat = leaver.state["you"]  # type: ignore[index]
            await leaver.close()
            state = await players[0].expect("table", lambda m: m["seats"][seat]["bot"], timeout=8)
            assert state["seats"][seat]["connected"]
            # Coming back later finds no seat: the player has left.
            back = Player(server)
            await back.connect(token=leaver.token)
            await back.send(type="chat", text="hello?")
            assert (await back.expect("error"))["code"] == "not_seated"
            for player in (*players, back):
                await player.close()

    run(scenario())


def test_a_silent_drop_is_seen_within_five_seconds(tmp_path: Path) -> None:
    async def scenario() -> float:
        with running(tmp_path, heartbeat_interval=1.0, heartbeat_timeout=3.0) as server:
            players = await seat_four(server, "jackaroo", turn_seconds=60)
            silent = players[3]
            seat = silent.state["you"]  # type: ignore[index]
            # The client stops answering (as a phone losing its network would), without
            # closing anything.
            silent.answer_pings = False
            silent.ws.pause_reading = True  # type: ignore[union-attr]
            started = time.monotonic()
            await players[0].expect(
                "table", lambda m: not m["seats"][seat]["connected"], timeout=10
            )
            seen = time.monotonic() - started
            for player in players:
                await player.close()
            return seen

    assert run(scenario()) < 5.0


def test_the_clock_plays_for_an_idle_seat_and_marks_it_away(tmp_path: Path) -> None:
    async def scenario() -> None:
        # The autopilot thinks in a worker process, as in production.
        with running(tmp_path, turn_seconds=5.0, min_turn_seconds=0.5, search_workers=1) as server:
            owner = Player(server, "idle")
            await owner.connect()
            await owner.send(type="create", game="jackaroo", seats=4, turn_seconds=0.6)
            await owner.expect("table")
            await owner.send(type="bots")
            await owner.send(type="seed", seed="idle-seed")
            # The person never plays: three turns later the seat shows away.
            state = await owner.expect("table", lambda m: m["seats"][m["you"]]["away"], timeout=40)
            mine = [e for e in state["last"] if e["seat"] == state["you"]]
            assert mine and all(e["auto"] for e in mine)
            # Playing again clears it.
            state = await owner.expect("table", lambda m: bool(m.get("legal")), timeout=20)
            await owner.send(type="act", action=state["legal"][0], moves=state["moves"])
            state = await owner.expect(
                "table", lambda m: not m["seats"][m["you"]]["away"], timeout=5
            )
            await owner.close()

    run(scenario(), timeout=90)


def test_a_killed_server_restores_the_game_and_play_goes_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, grace_seconds=30.0, turn_seconds=30.0).start()
        try:
            players = await seat_four(server, "jackaroo")
            table_id = players[0].state["table"]["id"]  # type: ignore[index]
            # Play a few moves, then kill the server without warning.
            stop_after = 12

            def enough(state: dict[str, object]) -> bool:
                return int(state["moves"]) >= stop_after  # type: ignore[call-overload]

            await play_all(players, enough)
            before = {p.player_id: p.state for p in players}
            server.kill()
            for player in players:
                await player.close()
            server.start()
            again = []
            for player in players:
                fresh = Player(server, player.name)
                await fresh.connect(token=player.token)
                again.append(fresh)
            for player in again:
                state = await player.expect("table")
                old = before[player.player_id]
                assert old is not None
                assert state["table"]["id"] == table_id
                assert state["you"] == old["you"]
                # Every accepted move survived the kill, and each hand is as it was.
                assert state["moves"] >= old["moves"]
                if state["moves"] == old["moves"]:
                    assert state["view"] == old["view"]
                assert state["deadline"] is None or state["deadline"] > time.time()
            finals = await play_all(again, game_over, seed=11)
            record = server.get(f"/api/records/{table_id}")
            assert [c.ok for c in verify(record)] == [True] * STEPS
            assert record["result"]["winners"] == finals[0]["result"]["winners"]
            for player in again:
                await player.close()
        finally:
            server.stop()

    run(scenario(), timeout=240)


def test_a_buraco_game_survives_a_kill(tmp_path: Path, database_url: str) -> None:
    async def scenario() -> None:
        server = Server(tmp_path, database_url, turn_seconds=30.0).start()
        try:
            players = await seat_four(server, "buraco")
            await play_all(players, lambda s: int(s["moves"]) >= 6)
            moves = max(p.state["moves"] for p in players)  # type: ignore[index]
            server.kill()
            server.start()
            fresh = Player(server)
            await fresh.connect(token=players[0].token)
            state = await fresh.expect("table")
            assert state["moves"] >= moves - 1  # every move the seats saw was stored first
            assert state["table"]["status"] == "playing"
            await fresh.close()
            for player in players:
                await player.close()
        finally:
            server.stop()

    run(scenario(), timeout=120)


def test_heartbeats_reach_the_client(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, heartbeat_interval=0.3) as server:
            player = Player(server)
            await player.connect()
            await asyncio.sleep(1.2)
            pings = [t for t in player.received if '"ping"' in t]
            assert len(pings) >= 2
            await player.close()

    run(scenario())
