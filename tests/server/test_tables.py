"""Tables: private tables and their host, bots, play now, the lobby, chat in both channels,
seats kept through a reload or a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import close_all, database, people, shared_server
from tests.server.harness import (
    Player,
    Server,
    error_for,
    listed_with,
    run,
    running,
    within,
)

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # A turn time may be as short as 1 s; chat lines up to 50 characters, 5 a minute; a
    # dropped seat at a waiting table is kept for 1.5 s.
    settings = {
        "min_turn_seconds": 1.0,
        "chat_max_chars": 50,
        "chat_per_minute": 5,
        "waiting_grace_seconds": 1.5,
    }
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


# -- private tables and their host --------------------------------------------------------


@dataclass
class Private:
    host: Player
    guests: list[Player]
    state: dict[str, Any]  # the host's first table message

    @property
    def everyone(self) -> list[Player]:
        return [self.host, *self.guests]

    @property
    def order(self) -> list[str]:
        """Who sits where, seat by seat, as they joined."""
        return [p.player_id for p in self.everyone]


async def private_table(server: Server) -> Private:
    """A host at a new private Jackaroo table, three guests not yet at it."""
    host, *guests = await people(server, 4)
    await host.send(type="create", game="jackaroo", seats=4, private=True)
    return Private(host, guests, await host.expect("table"))


async def full_private_table(server: Server) -> tuple[Private, dict[str, Any]]:
    """The private table with every guest joined by its code in lower case; the host's
    table message once it is full."""
    private = await private_table(server)
    for guest in private.guests:
        await guest.send(type="join", code=private.state["table"]["code"].lower())
        await guest.expect("table")
    full = await private.host.expect("table", lambda m: m["table"]["free"] == 0)
    return private, full


async def partners_swapped(server: Server) -> tuple[Private, list[str], dict[str, Any]]:
    """The full private table after the host swapped seats 1 and 2: the first guest now
    sits opposite the host, as partner. (The table, the order sent, the host's table
    showing the first guest at seat 2.)"""
    private, _ = await full_private_table(server)
    order = private.order
    order[1], order[2] = order[2], order[1]
    await private.host.send(type="assign", order=order)
    assigned = await private.host.expect(
        "table", lambda m: m["seats"][2]["player"] == private.guests[0].player_id
    )
    return private, order, assigned


async def started_by_host(private: Private) -> dict[str, Any]:
    """The host starts; every seat sends a seed; the first guest's table once playing."""
    await private.host.send(type="start")
    for player in private.everyone:
        await player.expect("seed_request")
        await player.send(type="seed", seed="s" + player.name)
    return await private.guests[0].expect("table", lambda m: m["table"]["status"] == "playing")


def test_a_private_table_has_a_six_character_code_and_its_creator_as_host(
    server: Server,
) -> None:
    async def scenario() -> None:
        private = await private_table(server)
        assert private.state["table"]["host"] == private.host.player_id
        assert len(private.state["table"]["code"]) == 6
        await close_all(*private.everyone)

    run(scenario())


def test_a_private_table_is_not_listed_in_the_lobby(server: Server) -> None:
    async def scenario() -> None:
        private = await private_table(server)
        listed = [t["id"] for t in server.get("/api/tables")["tables"]]
        assert private.state["table"]["id"] not in listed
        assert listed_with(server, private.host.player_id) == []
        await close_all(*private.everyone)

    run(scenario())


def test_a_private_table_cannot_be_joined_by_its_id(server: Server) -> None:
    async def scenario() -> None:
        private = await private_table(server)
        table_id = private.state["table"]["id"]
        error = await error_for(private.guests[0], type="join", table=table_id)
        assert error["code"] == "no_such_table"
        await close_all(*private.everyone)

    run(scenario())


def test_a_private_table_is_joined_by_its_code_in_any_case(server: Server) -> None:
    async def scenario() -> None:
        private, full = await full_private_table(server)
        for guest in private.guests:
            assert guest.state is not None
            assert guest.state["table"]["id"] == full["table"]["id"]
        await close_all(*private.everyone)

    run(scenario())


def test_a_full_private_table_waits_for_its_host(server: Server) -> None:
    async def scenario() -> None:
        private, full = await full_private_table(server)
        assert full["table"]["status"] == "waiting"
        await close_all(*private.everyone)

    run(scenario())


def test_only_the_host_assigns_seats(server: Server) -> None:
    async def scenario() -> None:
        private, _ = await full_private_table(server)
        error = await error_for(private.guests[0], type="assign", order=private.order)
        assert error["code"] == "not_host"
        await close_all(*private.everyone)

    run(scenario())


def test_an_assignment_must_name_every_player_at_the_table(server: Server) -> None:
    async def scenario() -> None:
        private, _ = await full_private_table(server)
        error = await error_for(private.host, type="assign", order=private.order[:3])
        assert error["code"] == "bad_field"
        await close_all(*private.everyone)

    run(scenario())


def test_a_turn_time_below_the_minimum_is_refused(server: Server) -> None:
    async def scenario() -> None:
        private, _ = await full_private_table(server)
        error = await error_for(private.host, type="turn_time", seconds=0.2)
        assert error["code"] == "bad_field"
        await close_all(*private.everyone)

    run(scenario())


def test_the_host_assigns_partners(server: Server) -> None:
    async def scenario() -> None:
        private, _, assigned = await partners_swapped(server)
        assert assigned["seats"][2]["player"] == private.guests[0].player_id
        assert assigned["seats"][1]["player"] == private.guests[1].player_id
        await close_all(*private.everyone)

    run(scenario())


def test_the_host_changes_the_turn_time(server: Server) -> None:
    async def scenario() -> None:
        private, _, _ = await partners_swapped(server)
        await private.host.send(type="turn_time", seconds=25)
        state = await private.host.expect("table", lambda m: m["table"]["turn_seconds"] == 25)
        assert state["table"]["turn_seconds"] == 25
        await close_all(*private.everyone)

    run(scenario())


def test_only_the_host_starts_a_private_table(server: Server) -> None:
    async def scenario() -> None:
        private, _, _ = await partners_swapped(server)
        assert (await error_for(private.guests[0], type="start"))["code"] == "not_host"
        await close_all(*private.everyone)

    run(scenario())


def test_a_private_game_starts_with_the_seats_the_host_gave(server: Server) -> None:
    async def scenario() -> None:
        private, _, _ = await partners_swapped(server)
        started = await started_by_host(private)
        assert started["you"] == 2  # the seat the host gave, partner of seat 0
        await close_all(*private.everyone)

    run(scenario())


def test_seats_are_not_assigned_once_the_game_has_started(server: Server) -> None:
    async def scenario() -> None:
        private, order, _ = await partners_swapped(server)
        await started_by_host(private)
        # The rules stay as chosen (the host may still change the turn time).
        error = await error_for(private.host, type="assign", order=order)
        assert error["code"] == "wrong_phase"
        await close_all(*private.everyone)

    run(scenario())


# -- chat ---------------------------------------------------------------------------------


async def full_buraco_table(server: Server) -> dict[int, Player]:
    """Four people at a new public Buraco table, by seat."""
    players = await people(server, 4)
    await players[0].send(type="create", game="buraco", seats=4)
    table_id = (await players[0].expect("table"))["table"]["id"]
    for player in players[1:]:
        await player.send(type="join", table=table_id)
        await player.expect("table")
    seated = {}
    for player in players:
        state = await player.expect("table", lambda m: m["table"]["free"] == 0)
        seated[state["you"]] = player
    return seated


def test_table_chat_reaches_every_seat_as_plain_text(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        await seated[0].send(type="chat", channel="table", text="<b>السلام</b> عليكم")
        for player in seated.values():
            line = await player.expect("chat")
            assert line["text"] == "<b>السلام</b> عليكم"  # plain text, as sent
            assert line["channel"] == "table" and line["seat"] == 0
        await close_all(*seated.values())

    run(scenario())


def test_team_chat_reaches_both_partners(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        await seated[1].send(type="chat", channel="team", text="خذ الكومة")
        for seat in (1, 3):
            line = await seated[seat].expect("chat")
            assert line["channel"] == "team" and line["text"] == "خذ الكومة"
        await close_all(*seated.values())

    run(scenario())


def test_team_chat_does_not_reach_the_other_side(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        await seated[1].send(type="chat", channel="team", text="خذ الكومة")
        await seated[3].expect("chat")
        await seated[0].send(type="ping", id="after")
        await seated[0].expect("pong")
        await asyncio.sleep(0.3)
        for seat in (0, 2):
            assert not [m for m in seated[seat].drain() if m["type"] == "chat"]
            assert all("خذ الكومة" not in text for text in seated[seat].received)
        await close_all(*seated.values())

    run(scenario())


def test_a_chat_line_over_the_length_limit_is_refused(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        assert (await error_for(seated[2], type="chat", text="x" * 51))["code"] == "chat_too_long"
        await close_all(*seated.values())

    run(scenario())


def test_a_chat_channel_other_than_table_or_team_is_refused(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        error = await error_for(seated[2], type="chat", channel="shout", text="hi")
        assert error["code"] == "bad_field"
        await close_all(*seated.values())

    run(scenario())


def test_a_chat_line_of_spaces_only_is_refused(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        assert (await error_for(seated[2], type="chat", text="   "))["code"] == "bad_field"
        await close_all(*seated.values())

    run(scenario())


def test_chat_past_the_rate_limit_is_refused(server: Server) -> None:
    async def scenario() -> None:
        seated = await full_buraco_table(server)
        for i in range(5):
            await seated[2].send(type="chat", text=f"line {i}")
            await seated[2].expect("chat", lambda m, i=i: m["text"] == f"line {i}")
        error = await error_for(seated[2], type="chat", text="one too many")
        assert error["code"] == "chat_rate"
        await close_all(*seated.values())

    run(scenario())


def test_team_chat_needs_a_partner(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game="jackaroo", seats=2)
        await player.expect("table")
        error = await error_for(player, type="chat", channel="team", text="anyone?")
        assert error["code"] == "no_partner"
        await player.close()

    run(scenario())


# -- bots ---------------------------------------------------------------------------------


@dataclass
class WithBots:
    full: dict[str, Any]  # the table once the bots sat down
    request: dict[str, Any]  # the seed request
    started: dict[str, Any]  # the table once playing


def with_bots(server: Server) -> WithBots:
    """One person at a new public Jackaroo table fills it with bots and sends a seed."""

    async def scenario() -> WithBots:
        (player,) = await people(server, 1)
        await player.send(type="create", game="jackaroo", seats=4)
        await player.expect("table")
        await player.send(type="bots")
        full = await player.expect("table", lambda m: m["table"]["free"] == 0)
        request = await player.expect("seed_request")
        await player.send(type="seed", seed="mine")
        started = await player.expect("table", lambda m: m["table"]["status"] == "playing")
        await player.close()
        return WithBots(full, request, started)

    return run(scenario())  # type: ignore[no-any-return]


def test_bots_fill_every_free_seat_and_are_labelled(server: Server) -> None:
    bots = [s for s in with_bots(server).full["seats"] if s["bot"]]
    assert len(bots) == 3 and all(s["name"] for s in bots)


def test_a_game_with_bots_uses_the_seed_the_person_sent(server: Server) -> None:
    started = with_bots(server).started
    assert started["client_seeds"][started["you"]] == "mine"


def test_every_bot_has_a_seed_of_its_own(server: Server) -> None:
    assert len(set(with_bots(server).started["client_seeds"])) == 4


def test_the_game_starts_under_the_commitment_of_the_seed_request(server: Server) -> None:
    game = with_bots(server)
    assert game.started["commitment"] == game.request["commitment"]


# -- play now and the lobby ---------------------------------------------------------------


@dataclass
class Lobby:
    first: dict[str, Any]  # the lobby message that answered the subscription
    table: dict[str, Any]  # the table play_now opened
    listed: dict[str, Any] | None  # the first change adding a table
    joined: dict[str, Any]  # the table the second play_now joined
    started: dict[str, Any] | None  # the change showing the table started


@pytest.fixture(scope="module")
def lobby(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Lobby:
    """A lobby watcher on a server of its own (so no other table is listed or joined);
    two people send play_now for a 2-seat Buraco table."""

    async def scenario(server: Server) -> Lobby:
        watcher, first, second = await people(server, 3)
        await watcher.send(type="lobby")
        subscribed = await watcher.expect("lobby")
        await first.send(type="play_now", game="buraco", seats=2)
        table = (await first.expect("table"))["table"]
        listed = await within(watcher.expect("lobby_changes", lambda m: bool(m["added"])))
        await second.send(type="play_now", game="buraco", seats=2)
        joined = (await second.expect("table"))["table"]
        started = await within(
            watcher.expect(
                "lobby_changes",
                lambda m: any(t["status"] != "waiting" for t in m["changed"]),
            )
        )
        await close_all(watcher, first, second)
        return Lobby(subscribed, table, listed, joined, started)

    with shared_server(tmp_path_factory, backend) as server:
        return run(scenario(server))  # type: ignore[no-any-return]


def test_the_lobby_answers_a_subscription_at_once(lobby: Lobby) -> None:
    assert lobby.first["tables"] == []
    assert isinstance(lobby.first["version"], int)


def test_play_now_opens_a_table_when_none_is_waiting_and_the_lobby_lists_it(
    lobby: Lobby,
) -> None:
    assert lobby.listed is not None
    assert lobby.listed["added"][0]["id"] == lobby.table["id"]
    assert lobby.listed["version"] == lobby.first["version"] + 1


def test_the_lobby_shows_a_new_tables_free_seats(lobby: Lobby) -> None:
    assert lobby.listed is not None
    assert lobby.listed["added"][0]["free"] == 1


def test_play_now_joins_the_waiting_table_of_its_game(lobby: Lobby) -> None:
    assert lobby.joined["id"] == lobby.table["id"]


def test_the_lobby_tells_its_watchers_when_a_table_starts(lobby: Lobby) -> None:
    assert lobby.started is not None


# -- one table at a time ------------------------------------------------------------------


async def hurried(server: Server) -> tuple[Player, list[dict[str, Any]]]:
    """A player sends create, create and play_now at once; the errors that answer them."""
    (player,) = await people(server, 1)
    await player.send(type="create", game="jackaroo", seats=4)
    await player.send(type="create", game="buraco", seats=4)
    await player.send(type="play_now", game="buraco")
    errors = [await player.expect("error") for _ in range(2)]
    await asyncio.sleep(0.3)
    return player, errors


def test_a_create_or_play_now_while_seated_is_refused_even_in_a_hurry(server: Server) -> None:
    async def scenario() -> None:
        player, errors = await hurried(server)
        assert {e["code"] for e in errors} == {"already_seated"}
        await player.close()

    run(scenario())


def test_only_the_first_of_hurried_creates_makes_a_table(server: Server) -> None:
    async def scenario() -> None:
        player, _ = await hurried(server)
        tables = listed_with(server, player.player_id)
        assert len(tables) == 1 and tables[0]["game"] == "jackaroo"
        await player.close()

    run(scenario())


def test_leaving_a_waiting_table_frees_the_player_for_another(server: Server) -> None:
    async def scenario() -> None:
        player, _ = await hurried(server)
        await player.send(type="leave")
        await player.expect("left")
        await player.send(type="create", game="buraco", seats=2)
        assert (await player.expect("table"))["table"]["game"] == "buraco"
        await player.close()

    run(scenario())


def test_a_waiting_table_its_last_person_leaves_closes(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game="jackaroo", seats=4)
        table_id = (await player.expect("table"))["table"]["id"]
        await player.send(type="leave")
        await player.expect("left")
        assert table_id not in [t["id"] for t in server.get("/api/tables")["tables"]]
        await player.close()

    run(scenario())


# -- seats kept through a reload, the grace, a restart ------------------------------------


async def reloaded_host(server: Server) -> tuple[Player, Player, dict[str, Any]]:
    """The host of a private Buraco table with one guest reloads the page: (the host's new
    connection, the guest, the table it is sent)."""
    host, guest = await people(server, 2)
    await host.send(type="create", game="buraco", seats=4, private=True)
    code = (await host.expect("table"))["table"]["code"]
    await guest.send(type="join", code=code)
    await guest.expect("table")
    await host.close()  # a reload
    again = Player(server, "host")
    await again.connect(token=host.token)
    assert again.player_id == host.player_id
    return again, guest, await again.expect("table")


def test_a_reload_while_waiting_keeps_the_seat(server: Server) -> None:
    async def scenario() -> None:
        again, guest, state = await reloaded_host(server)
        assert state["you"] == 0
        await close_all(again, guest)

    run(scenario())


def test_a_reload_while_waiting_keeps_the_host_role(server: Server) -> None:
    async def scenario() -> None:
        again, guest, state = await reloaded_host(server)
        assert state["table"]["host"] == again.player_id
        await close_all(again, guest)

    run(scenario())


def test_a_seat_dropped_while_waiting_is_freed_after_the_short_grace(server: Server) -> None:
    async def scenario() -> None:
        again, guest, _ = await reloaded_host(server)
        # The guest's connection drops for good: the seat is free after the short grace.
        await guest.close()
        state = await again.expect("table", lambda m: m["table"]["free"] == 3, timeout=5)
        assert [s.get("empty", False) for s in state["seats"]] == [False, True, True, True]
        await again.close()

    run(scenario())


def test_a_player_who_left_by_the_grace_may_play_elsewhere(
    tmp_path: Path, database_url: str
) -> None:
    async def scenario() -> None:
        with running(tmp_path, database_url, grace_seconds=1.0) as server:
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


@dataclass
class Restarted:
    free_after_reload_grace: int  # free seats 1.5 s after the restart
    back: dict[str, Any]  # the table a player back within the grace is sent
    table_id: str
    one_left: dict[str, Any] | None  # the table once the absent seat was freed
    tables_at_the_end: list[dict[str, Any]]  # the lobby once the last person left


@pytest.fixture(scope="module")
def restarted(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Restarted:
    """Two people at a waiting table; the server is killed and started again; one of them
    comes back within the restart's grace, the other never."""

    async def scenario(server: Server) -> Restarted:
        a, b = await people(server, 2)
        await a.send(type="create", game="jackaroo", seats=4)
        table_id = (await a.expect("table"))["table"]["id"]
        await b.send(type="join", table=table_id)
        await b.expect("table")
        server.kill()
        server.start()
        await asyncio.sleep(1.5)
        # Past a reload's grace, within a restart's.
        free = server.get(f"/api/tables/{table_id}")["free"]
        back = Player(server, "a")
        await back.connect(token=a.token)
        state = await back.expect("table")
        one_left = await within(back.expect("table", lambda m: m["table"]["free"] == 3, timeout=5))
        await back.close()
        await asyncio.sleep(1.5)
        return Restarted(free, state, table_id, one_left, server.get("/api/tables")["tables"])

    with database(backend) as url:
        server = Server(
            tmp_path_factory.mktemp("restarted"), url, waiting_grace_seconds=0.5, grace_seconds=3.0
        ).start()
        try:
            return run(scenario(server))  # type: ignore[no-any-return]
        finally:
            server.stop()


def test_after_a_restart_a_waiting_table_keeps_its_seats_past_a_reloads_grace(
    restarted: Restarted,
) -> None:
    assert restarted.free_after_reload_grace == 2


def test_a_player_back_within_the_restarts_grace_has_the_same_seat(restarted: Restarted) -> None:
    assert restarted.back["table"]["id"] == restarted.table_id and restarted.back["you"] == 0


def test_a_seat_not_reclaimed_is_freed_when_the_restarts_grace_ends(restarted: Restarted) -> None:
    assert restarted.one_left is not None


def test_a_restored_waiting_table_with_nobody_left_closes(restarted: Restarted) -> None:
    assert restarted.tables_at_the_end == []
