"""Dropped connections, the grace period, heartbeats, the clock, and a server killed mid-game."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sahrat.records import STEPS, verify
from tests.server.conftest import (
    close_all,
    database,
    game_over,
    play_all,
    seat_four,
    shared_server,
)
from tests.server.harness import Player, Server, error_for, run, running, within

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Turns of 30 s unless a table says otherwise (down to 0.5 s); the autopilot thinks in a
    # worker process, as in production.
    settings = {"turn_seconds": 30.0, "min_turn_seconds": 0.5, "search_workers": 1}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


# -- back within the grace ----------------------------------------------------------------


@dataclass
class Dropped:
    players: list[Player]  # the four, the leaver's closed connection among them
    leaver: Player
    seat: int
    hand: list[str]  # the leaver's hand when it left
    seen: dict[str, Any]  # what another seat was shown once the leaver was gone


async def dropped(server: Server) -> Dropped:
    """Four at a Jackaroo table; a chat line; then one seat's connection closes."""
    players = await seat_four(server, "jackaroo")
    leaver = players[1]
    assert leaver.state is not None
    seat = leaver.state["you"]
    hand = leaver.state["view"]["hands"][str(seat)]
    await players[0].send(type="chat", text="مرحبا")
    await leaver.expect("chat")
    await leaver.close()
    seen = await players[0].expect("table", lambda m: not m["seats"][seat]["connected"], timeout=5)
    return Dropped(players, leaver, seat, hand, seen)


@dataclass
class Returned:
    welcome: dict[str, Any]
    history: dict[str, Any]  # the chat history the returning socket is sent
    state: dict[str, Any]  # the table it is sent
    others_saw: dict[str, Any] | None  # another seat's table showing it connected again


def returned(server: Server) -> tuple[Dropped, Returned]:
    """The seat that dropped comes back with its token, well within the grace."""

    async def scenario() -> tuple[Dropped, Returned]:
        gone = await dropped(server)
        back = Player(server, "back")
        welcome = await back.connect(token=gone.leaver.token)
        history = await back.expect("chat_history")
        state = await back.expect("table")
        others_saw = await within(
            gone.players[0].expect("table", lambda m: m["seats"][gone.seat]["connected"])
        )
        await close_all(*gone.players, back)
        return gone, Returned(welcome, history, state, others_saw)

    return run(scenario())  # type: ignore[no-any-return]


def test_a_dropped_seat_shows_disconnected_and_not_as_a_bot(server: Server) -> None:
    async def scenario() -> None:
        gone = await dropped(server)
        assert not gone.seen["seats"][gone.seat]["bot"]
        await close_all(*gone.players)

    run(scenario())


def test_a_token_brings_the_same_player_back(server: Server) -> None:
    gone, back = returned(server)
    assert back.welcome["player"]["id"] == gone.leaver.player_id


def test_a_player_back_within_the_grace_is_sent_the_chat_history(server: Server) -> None:
    _, back = returned(server)
    assert [m["text"] for m in back.history["messages"]] == ["مرحبا"]


def test_a_player_back_within_the_grace_has_the_same_seat(server: Server) -> None:
    gone, back = returned(server)
    assert back.state["you"] == gone.seat


def test_a_player_back_within_the_grace_has_the_same_hand(server: Server) -> None:
    gone, back = returned(server)
    assert back.state["view"]["hands"][str(gone.seat)] == gone.hand


def test_the_others_see_a_returning_seat_connected_again(server: Server) -> None:
    _, back = returned(server)
    assert back.others_saw is not None


# -- after the grace ----------------------------------------------------------------------


@dataclass
class Replaced:
    bot_seat: dict[str, Any] | None  # the seat as another seat saw it once a bot took it
    came_back: dict[str, Any]  # the error that answers the player who comes back later


@pytest.fixture(scope="module")
def replaced(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Replaced:
    """A seat's connection closes at a server with a 1.5 s grace; the player comes back
    after it."""

    async def scenario(server: Server) -> Replaced:
        players = await seat_four(server, "jackaroo")
        leaver = players[2]
        seat = leaver.state["you"]  # type: ignore[index]
        await leaver.close()
        state = await within(
            players[0].expect("table", lambda m: m["seats"][seat]["bot"], timeout=8)
        )
        back = Player(server)
        await back.connect(token=leaver.token)
        came_back = await error_for(back, type="chat", text="hello?")
        await close_all(*players, back)
        return Replaced(None if state is None else state["seats"][seat], came_back)

    settings = {"grace_seconds": 1.5, "turn_seconds": 30.0}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        return run(scenario(server))  # type: ignore[no-any-return]


def test_after_the_grace_a_bot_takes_the_seat(replaced: Replaced) -> None:
    assert replaced.bot_seat is not None


def test_a_bot_that_took_a_seat_shows_connected(replaced: Replaced) -> None:
    assert replaced.bot_seat is not None
    assert replaced.bot_seat["connected"]


def test_a_player_back_after_the_grace_has_no_seat(replaced: Replaced) -> None:
    assert replaced.came_back["code"] == "not_seated"


# -- heartbeats ---------------------------------------------------------------------------


def test_a_silent_drop_is_seen_within_five_seconds(tmp_path: Path, database_url: str) -> None:
    async def scenario() -> float:
        settings = {"heartbeat_interval": 1.0, "heartbeat_timeout": 3.0}
        with running(tmp_path, database_url, **settings) as server:
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
            await close_all(*players)
            return seen

    assert run(scenario()) < 5.0


def test_heartbeats_reach_the_client(tmp_path: Path, database_url: str) -> None:
    async def scenario() -> None:
        with running(tmp_path, database_url, heartbeat_interval=0.3) as server:
            player = Player(server)
            await player.connect()
            await asyncio.sleep(1.2)
            pings = [t for t in player.received if '"ping"' in t]
            assert len(pings) >= 2
            await player.close()

    run(scenario())


def test_a_client_that_answers_only_with_the_browsers_pong_stays(
    tmp_path: Path, database_url: str
) -> None:
    """The pong as the web client writes it (compact JSON) is taken without parsing: it
    still proves the socket alive, and it is answered with nothing."""

    async def scenario() -> None:
        settings = {"heartbeat_interval": 0.3, "heartbeat_timeout": 1.0}
        with running(tmp_path, database_url, **settings) as server:
            player = Player(server)
            await player.connect()
            player.answer_pings = False
            pings_seen = 0
            ends = time.monotonic() + 2.5  # well past the timeout
            while time.monotonic() < ends:
                pings = sum('"ping"' in t for t in player.received)
                if pings > pings_seen:
                    pings_seen = pings
                    await player.send_raw('{"v":1,"type":"pong"}')
                await asyncio.sleep(0.02)
            await player.send(type="ping", id=7)
            reply = await player.expect("pong")
            assert reply["id"] == 7  # still connected
            assert pings_seen >= 4
            assert not [t for t in player.received if '"error"' in t]  # pongs draw nothing
            await player.close()

    run(scenario())


# -- the clock ----------------------------------------------------------------------------


@dataclass
class Idle:
    away: dict[str, Any] | None  # the table once the seat showed away
    back: dict[str, Any] | None  # the table once it no longer did, after the person played


@pytest.fixture(scope="module")
def idle(server: Server) -> Idle:
    """A person with three bots at a table of 0.6 s turns never plays, then plays once."""

    async def scenario() -> Idle:
        owner = Player(server, "idle")
        await owner.connect()
        await owner.send(type="create", game="jackaroo", seats=4, turn_seconds=0.6)
        await owner.expect("table")
        await owner.send(type="bots")
        await owner.send(type="seed", seed="idle-seed")
        away = await within(
            owner.expect("table", lambda m: m["seats"][m["you"]]["away"], timeout=40)
        )
        state = await owner.expect("table", lambda m: bool(m.get("legal")), timeout=20)
        await owner.send(type="act", action=state["legal"][0], moves=state["moves"])
        back = await within(
            owner.expect("table", lambda m: not m["seats"][m["you"]]["away"], timeout=5)
        )
        await owner.close()
        return Idle(away, back)

    return run(scenario(), timeout=90)  # type: ignore[no-any-return]


def test_a_seat_whose_turns_the_clock_played_three_times_shows_away(idle: Idle) -> None:
    assert idle.away is not None


def test_the_turns_the_clock_played_are_marked_auto(idle: Idle) -> None:
    assert idle.away is not None
    mine = [e for e in idle.away["last"] if e["seat"] == idle.away["you"]]
    assert mine and all(e["auto"] for e in mine)


def test_playing_again_clears_away(idle: Idle) -> None:
    assert idle.back is not None


# -- a server killed mid-game -------------------------------------------------------------


@dataclass
class Killed:
    table_id: str
    # For each player: the table it had before the kill, the table it was sent on its
    # return, and the time it came.
    returns: list[tuple[dict[str, Any], dict[str, Any], float]]
    finals: list[dict[str, Any]]  # each seat's last table of the game played on
    record: dict[str, Any]


@pytest.fixture(scope="module")
def killed(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Killed:
    """Four people play a dozen Jackaroo moves; the server is killed without warning and
    started again; they come back with their tokens and play the game to its end."""

    async def scenario(server: Server) -> Killed:
        players = await seat_four(server, "jackaroo")
        table_id = players[0].state["table"]["id"]  # type: ignore[index]
        await play_all(players, lambda state: int(state["moves"]) >= 12)
        before = {p.player_id: p.state for p in players}
        server.kill()
        await close_all(*players)
        server.start()
        again = []
        for player in players:
            fresh = Player(server, player.name)
            await fresh.connect(token=player.token)
            again.append(fresh)
        returns = []
        for player in again:
            state = await player.expect("table")
            old = before[player.player_id]
            assert old is not None
            returns.append((old, state, time.time()))
        finals = await play_all(again, game_over, seed=11)
        record = server.get(f"/api/records/{table_id}")
        await close_all(*again)
        return Killed(table_id, returns, finals, record)

    with database(backend) as url:
        directory = tmp_path_factory.mktemp("killed")
        server = Server(directory, url, grace_seconds=30.0, turn_seconds=30.0).start()
        try:
            return run(scenario(server), timeout=240)  # type: ignore[no-any-return]
        finally:
            server.stop()


def test_after_a_kill_every_player_is_back_at_the_same_table(killed: Killed) -> None:
    for _, state, _ in killed.returns:
        assert state["table"]["id"] == killed.table_id


def test_after_a_kill_every_player_is_back_in_the_same_seat(killed: Killed) -> None:
    for old, state, _ in killed.returns:
        assert state["you"] == old["you"]


def test_every_move_accepted_before_a_kill_survives_it(killed: Killed) -> None:
    for old, state, _ in killed.returns:
        assert state["moves"] >= old["moves"]


def test_every_hand_is_as_it_was_before_the_kill(killed: Killed) -> None:
    for old, state, _ in killed.returns:
        if state["moves"] == old["moves"]:
            assert state["view"] == old["view"]


def test_the_turn_after_a_kill_runs_on_a_fresh_clock(killed: Killed) -> None:
    for _, state, now in killed.returns:
        assert state["deadline"] is None or state["deadline"] > now


def test_a_game_restored_after_a_kill_plays_to_a_record_that_verifies(killed: Killed) -> None:
    assert [c.ok for c in verify(killed.record)] == [True] * STEPS


def test_a_game_restored_after_a_kill_records_the_winners_the_seats_were_told(
    killed: Killed,
) -> None:
    assert killed.record["result"]["winners"] == killed.finals[0]["result"]["winners"]


@dataclass
class KilledBuraco:
    seen: int  # the most moves any seat was shown before the kill
    back: dict[str, Any]  # the table a player is sent after the restart


@pytest.fixture(scope="module")
def killed_buraco(backend: str, tmp_path_factory: pytest.TempPathFactory) -> KilledBuraco:
    """Four people play six Buraco actions; the server is killed and started again."""

    async def scenario(server: Server) -> KilledBuraco:
        players = await seat_four(server, "buraco")
        await play_all(players, lambda s: int(s["moves"]) >= 6)
        seen = max(p.state["moves"] for p in players)  # type: ignore[index]
        server.kill()
        server.start()
        fresh = Player(server)
        await fresh.connect(token=players[0].token)
        back = await fresh.expect("table")
        await close_all(fresh, *players)
        return KilledBuraco(seen, back)

    with database(backend) as url:
        server = Server(tmp_path_factory.mktemp("killed"), url, turn_seconds=30.0).start()
        try:
            return run(scenario(server))  # type: ignore[no-any-return]
        finally:
            server.stop()


def test_every_buraco_action_the_seats_saw_survives_a_kill(killed_buraco: KilledBuraco) -> None:
    # Every move the seats saw was stored first.
    assert killed_buraco.back["moves"] >= killed_buraco.seen - 1


def test_a_buraco_game_is_still_playing_after_a_kill(killed_buraco: KilledBuraco) -> None:
    assert killed_buraco.back["table"]["status"] == "playing"
