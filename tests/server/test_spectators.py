"""Spectators on a real server: what they may watch, what they are refused, what the seats
see of them, and watching again after a restart (``docs/protocol.md`` §2 watch)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import close_all, database, people, seat_four, shared_server
from tests.server.harness import Player, Server, error_for, run

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, autofill_seconds=0.0) as server:
        yield server


async def playing_table(server: Server) -> tuple[list[Player], str]:
    """Four people playing Jackaroo at a public table."""
    players = await seat_four(server, "jackaroo")
    assert players[0].state is not None
    return players, players[0].state["table"]["id"]


async def move_once(players: list[Player]) -> None:
    """The seat to move plays its first legal move; everyone sees it."""
    state = players[0].state
    assert state is not None
    mover = next(p for p in players if p.state and p.state["you"] == state["to_move"])
    assert mover.state is not None
    moves = mover.state["moves"]
    await mover.send(type="act", action=mover.state["legal"][0], moves=moves)
    for player in players:
        await player.expect("table", lambda m: m["moves"] > moves)


def test_a_late_spectator_gets_the_position_at_once_without_any_hand(server: Server) -> None:
    async def scenario() -> None:
        players, table_id = await playing_table(server)
        await move_once(players)
        (spectator,) = await people(server, 1)
        await spectator.send(type="watch", table=table_id)
        history = await spectator.expect("chat_history")
        state = await spectator.expect("table")
        assert history["spectator"] is True and history["channels"] == []
        assert state["spectator"] is True and state["you"] is None
        assert state["moves"] == 1 and "legal" not in state
        assert all(isinstance(n, int) for n in state["view"]["hands"].values())
        assert state["watching"] == 1
        await close_all(spectator, *players)

    run(scenario())


def test_the_seats_see_how_many_watch(server: Server) -> None:
    async def scenario() -> None:
        players, table_id = await playing_table(server)
        spectators = await people(server, 2)
        for count, spectator in enumerate(spectators, 1):
            await spectator.send(type="watch", table=table_id)
            for player in players:
                await player.expect("table", lambda m, c=count: m["watching"] == c)
        await spectators[0].send(type="unwatch")
        assert (await spectators[0].expect("unwatched"))["table"] == table_id
        for player in players:
            await player.expect("table", lambda m: m["watching"] == 1)
        await spectators[1].close()
        for player in players:
            await player.expect("table", lambda m: m["watching"] == 0)
        await close_all(spectators[0], *players)

    run(scenario())


SPECTATOR_REFUSED = [
    ({"type": "act", "action": "x"}, "spectator"),
    ({"type": "seed", "seed": "abc"}, "spectator"),
    ({"type": "sit", "seat": 0}, "spectator"),
    ({"type": "leave"}, "spectator"),
    ({"type": "bots"}, "spectator"),
    ({"type": "start"}, "spectator"),
    ({"type": "turn_time", "seconds": 30}, "spectator"),
    ({"type": "rematch"}, "spectator"),
    ({"type": "react", "reaction": "wave"}, "spectator"),
    ({"type": "chat", "text": "hello"}, "spectator"),  # spectator chat is off here
    ({"type": "chat", "text": "psst", "channel": "team"}, "spectator"),
]


def test_a_spectator_can_never_act_and_nothing_changes(server: Server) -> None:
    async def scenario() -> None:
        players, table_id = await playing_table(server)
        (spectator,) = await people(server, 1)
        await spectator.send(type="watch", table=table_id)
        before = await spectator.expect("table")
        for message, code in SPECTATOR_REFUSED:
            error = await error_for(spectator, **message)
            assert error["code"] == code, message
        await asyncio.sleep(0.3)
        for player in players:
            assert player.state is not None and player.state["seq"] == before["seq"]
            assert not [m for m in player.drain() if m["type"] == "chat"]
        # A move still reaches the spectator, who is still watching.
        await move_once(players)
        after = await spectator.expect("table", lambda m: m["moves"] == before["moves"] + 1)
        assert after["spectator"] is True
        await close_all(spectator, *players)

    run(scenario())


def test_a_spectator_hears_the_table_chat_but_not_the_team_chat(server: Server) -> None:
    async def scenario() -> None:
        players, table_id = await playing_table(server)
        (spectator,) = await people(server, 1)
        await spectator.send(type="watch", table=table_id)
        await spectator.expect("table")
        await players[0].send(type="chat", channel="team", text="secret plan")
        await players[0].send(type="chat", text="good luck")
        line = await spectator.expect("chat")
        assert line["text"] == "good luck"
        await asyncio.sleep(0.3)
        assert not [m for m in spectator.drain() if m["type"] == "chat"]
        await close_all(spectator, *players)

    run(scenario())


def test_watching_is_not_sitting_and_a_seat_ends_it(server: Server) -> None:
    async def scenario() -> None:
        players, table_id = await playing_table(server)
        (spectator,) = await people(server, 1)
        await spectator.send(type="watch", table=table_id)
        await spectator.expect("table")
        await spectator.send(type="create", game="buraco", seats=2)
        mine = await spectator.expect("table", lambda m: m.get("spectator") is None)
        assert mine["you"] is not None and mine["table"]["id"] != table_id
        assert (await error_for(spectator, type="unwatch"))["code"] == "not_watching"
        for player in players:
            await player.expect("table", lambda m: m["watching"] == 0)
        # Seated at a live table, one cannot watch another.
        assert (await error_for(spectator, type="watch", table=table_id))["code"] == (
            "already_seated"
        )
        await close_all(spectator, *players)

    run(scenario())


def test_bad_watch_requests_are_refused(server: Server) -> None:
    async def scenario() -> None:
        (viewer,) = await people(server, 1)
        for message, code in [
            ({"type": "watch"}, "bad_field"),
            ({"type": "watch", "table": "tnope"}, "no_such_table"),
            ({"type": "watch", "code": "NOPE99"}, "no_such_table"),
            ({"type": "watch", "table": 5}, "bad_field"),
            ({"type": "unwatch"}, "not_watching"),
        ]:
            assert (await error_for(viewer, **message))["code"] == code, message
        await viewer.close()

    run(scenario())


def test_a_private_table_is_watched_by_its_code_if_its_host_allows(server: Server) -> None:
    async def scenario() -> None:
        host, guest, spectator = await people(server, 3)
        await host.send(type="create", game="buraco", seats=2, private=True)
        first = await host.expect("table")
        table_id, code = first["table"]["id"], first["table"]["code"]
        assert first["spectators"] == {"allow": False, "chat": False}
        await guest.send(type="join", code=code)
        await guest.expect("table")
        refused = await error_for(spectator, type="watch", table=table_id)
        assert refused["code"] == "no_such_table"  # never by its id
        assert (await error_for(spectator, type="watch", code=code))["code"] == "not_watchable"
        assert (await error_for(guest, type="spectators", allow=True))["code"] == "not_host"
        await host.send(type="spectators", allow=True, chat=True)
        await host.expect("table", lambda m: m["spectators"] == {"allow": True, "chat": True})
        await spectator.send(type="watch", code=code.lower())
        history = await spectator.expect("chat_history")
        assert history["channels"] == ["table"]
        await spectator.expect("table")
        await spectator.send(type="chat", text="go go")
        for person in (host, guest, spectator):
            line = await person.expect("chat")
            assert line["text"] == "go go" and line["seat"] == -1
        refused = await error_for(spectator, type="chat", channel="team", text="x")
        assert refused["code"] == "spectator"
        # Closed to spectators again: the spectator is told and sent nothing more.
        await host.send(type="spectators", allow=False)
        assert (await spectator.expect("unwatched"))["reason"] == "not_watchable"
        await close_all(host, guest, spectator)

    run(scenario())


def test_a_public_table_created_with_spectator_chat_lets_spectators_write(
    server: Server,
) -> None:
    async def scenario() -> None:
        host, spectator = await people(server, 2)
        await host.send(type="create", game="buraco", seats=2, spectator_chat=True)
        first = await host.expect("table")
        assert first["spectators"] == {"allow": True, "chat": True}
        await spectator.send(type="watch", table=first["table"]["id"])
        await spectator.expect("table")
        await spectator.send(type="chat", text="hi all")
        assert (await host.expect("chat"))["name"] == spectator.name
        await close_all(host, spectator)

    run(scenario())


def test_after_a_kill_and_a_restart_a_spectator_watches_again(
    backend: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    async def scenario(server: Server) -> dict[str, Any]:
        players, table_id = await playing_table(server)
        await move_once(players)
        (spectator,) = await people(server, 1)
        await spectator.send(type="watch", table=table_id)
        before = await spectator.expect("table")
        server.kill()
        server.start()
        again = Player(server, spectator.name)
        await again.connect(token=spectator.token)
        await again.send(type="watch", table=table_id)
        after = await again.expect("table")
        await close_all(again, *players)
        assert after["spectator"] is True and after["moves"] == before["moves"]
        assert after["seq"] == before["seq"]
        assert all(isinstance(n, int) for n in after["view"]["hands"].values())
        return after

    with database(backend) as url:
        server = Server(tmp_path_factory.mktemp("restart"), url, grace_seconds=60.0).start()
        try:
            run(scenario(server))
        finally:
            server.stop()
