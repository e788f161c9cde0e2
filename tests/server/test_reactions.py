"""Quick reactions and phrases: who receives them, team phrases, bad ids, the rate limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.server.conftest import close_all, people, shared_server
from tests.server.harness import Player, Server, error_for, run

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Three reactions a minute; no bots arrive by themselves at the half-empty tables.
    settings = {"reactions_per_minute": 3, "autofill_seconds": 0.0}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


async def three_at_four(server: Server) -> list[Player]:
    """Three people at a new 4-seat table, in seats 0, 1, 2 (0 and 2 are partners)."""
    players = await people(server, 3)
    await players[0].send(type="create", game="jackaroo", seats=4)
    table_id = (await players[0].expect("table"))["table"]["id"]
    for player in players[1:]:
        await player.send(type="join", table=table_id)
        await player.expect("table")
    return players


def test_a_reaction_reaches_everyone_at_the_table_with_the_seat(server: Server) -> None:
    async def scenario() -> None:
        players = await three_at_four(server)
        await players[1].send(type="react", reaction="clap")
        for player in players:
            got = await player.expect("react")
            assert (got["seat"], got["reaction"], got["channel"]) == (1, "clap", "table")
        await close_all(*players)

    run(scenario())


def test_a_team_phrase_reaches_the_partner_only(server: Server) -> None:
    async def scenario() -> None:
        first, other, partner = await three_at_four(server)
        await first.send(type="react", reaction="well_played", channel="team")
        got = await partner.expect("react")
        assert (got["seat"], got["reaction"], got["channel"]) == (0, "well_played", "team")
        await first.expect("react")
        await asyncio.sleep(0.3)
        assert not [m for m in other.drain() if m["type"] == "react"]
        await close_all(first, other, partner)

    run(scenario())


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"reaction": "kiss"}, "bad_field"),
        ({"reaction": "<b>hi</b>"}, "bad_field"),
        ({"reaction": "clap", "channel": "team"}, "bad_field"),
        ({"reaction": "clap", "channel": "everyone"}, "bad_field"),
        ({"reaction": 5}, "bad_field"),
        ({}, "bad_field"),
    ],
    ids=["unknown", "markup", "emoji-to-team", "bad-channel", "number", "missing"],
)
def test_a_bad_reaction_is_refused_and_sent_to_nobody(
    server: Server, message: dict[str, object], code: str
) -> None:
    async def scenario() -> None:
        players = await three_at_four(server)
        error = await error_for(players[0], type="react", **message)
        assert error["code"] == code
        await asyncio.sleep(0.2)
        assert not [m for p in players for m in p.drain() if m["type"] == "react"]
        await close_all(*players)

    run(scenario())


def test_a_team_phrase_at_two_seats_has_no_partner(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game="buraco", seats=2)
        await player.expect("table")
        error = await error_for(player, type="react", reaction="thanks", channel="team")
        assert error["code"] == "no_partner"
        await close_all(player)

    run(scenario())


def test_reactions_past_the_limit_are_refused(server: Server) -> None:
    async def scenario() -> None:
        players = await three_at_four(server)
        for _ in range(3):
            await players[0].send(type="react", reaction="fire")
            await players[0].expect("react")
        error = await error_for(players[0], type="react", reaction="fire")
        assert error["code"] == "reaction_rate"
        # The limit is each player's own.
        await players[1].send(type="react", reaction="laugh")
        assert await players[1].expect("react", lambda m: m["reaction"] == "laugh")
        await close_all(*players)

    run(scenario())


def test_a_reaction_from_someone_not_seated_is_refused(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        error = await error_for(player, type="react", reaction="clap")
        assert error["code"] == "not_seated"
        await close_all(player)

    run(scenario())
