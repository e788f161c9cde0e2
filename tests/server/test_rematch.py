"""Play again with the same seats; bots that fill a free table nobody joins; a free
table its last person leaves closes and leaves the lobby."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import close_all, game_over, people, play, play_all, shared_server
from tests.server.harness import Player, Server, error_for, run

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {"bot_delay": 0.0, "autofill_seconds": 1.0, "finished_linger": 30.0}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


def listed(server: Server) -> list[str]:
    return [t["id"] for t in server.get("/api/tables")["tables"]]


async def against_a_bot(server: Server) -> tuple[Player, dict[str, Any]]:
    """A person plays a bot to the end at a 2-seat Jackaroo table; its last table message."""
    (player,) = await people(server, 1)
    await player.send(type="create", game="jackaroo", seats=2)
    await player.expect("table")
    await player.send(type="bots")
    await player.expect("seed_request")
    await player.send(type="seed", seed="seed-p0")
    return player, await play(player, game_over, random.Random(7))


def test_a_person_and_a_bot_play_again_at_once(server: Server) -> None:
    async def scenario() -> None:
        player, end = await against_a_bot(server)
        old = end["table"]["id"]
        await player.send(type="rematch")
        told = await player.expect("rematch", lambda m: m["next"] is not None)
        new = await player.expect("table", lambda m: m["table"]["id"] == told["next"])
        assert new["rematch_of"] == old and new["you"] == end["you"]
        assert new["table"]["status"] in ("waiting", "seeding", "playing")
        await player.expect("seed_request")  # the new game starts without anyone pressing
        await close_all(player)

    run(scenario())


def test_two_people_play_again_when_both_accept(server: Server) -> None:
    async def scenario() -> None:
        players = await people(server, 2)
        await players[0].send(type="create", game="jackaroo", seats=2)
        table_id = (await players[0].expect("table"))["table"]["id"]
        await players[1].send(type="join", table=table_id)
        for player in players:
            await player.expect("seed_request")
            await player.send(type="seed", seed=f"seed-{player.name}")
        ends = await play_all(players, game_over)
        seats = [end["you"] for end in ends]
        await players[0].send(type="rematch")
        waiting = await players[1].expect("rematch")
        assert waiting["accepted"] == [seats[0]] and waiting["waiting"] == [seats[1]]
        assert waiting["next"] is None
        await players[1].send(type="rematch")
        for player, seat in zip(players, seats, strict=True):
            told = await player.expect("rematch", lambda m: m["next"] is not None)
            new = await player.expect("table", lambda m, t=told: m["table"]["id"] == t["next"])
            assert new["you"] == seat and new["rematch_of"] == table_id
        await close_all(*players)

    run(scenario())


def test_a_rematch_during_the_game_is_refused(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game="jackaroo", seats=2)
        await player.expect("table")
        error = await error_for(player, type="rematch")
        assert error["code"] == "wrong_phase"
        await close_all(player)

    run(scenario())


def test_bots_fill_a_free_table_nobody_joins(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="play_now", game="jackaroo", seats=4)
        first = await player.expect("table")
        assert first["table"]["free"] == 3
        full = await player.expect("table", lambda m: m["table"]["free"] == 0, timeout=10)
        assert sum(1 for seat in full["seats"] if seat.get("bot")) == 3
        await close_all(player)

    run(scenario())


def test_a_free_game_its_last_person_leaves_closes_and_leaves_the_lobby(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game="buraco", seats=2)
        table_id = (await player.expect("table"))["table"]["id"]
        await player.send(type="bots")
        await player.expect("table", lambda m: m["table"]["status"] == "playing", timeout=10)
        assert table_id in listed(server)
        await player.send(type="leave")
        await player.expect("left")
        assert table_id not in listed(server)
        error = await error_for(player, type="join", table=table_id)
        assert error["code"] == "no_such_table"
        await close_all(player)

    run(scenario())
