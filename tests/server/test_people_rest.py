"""Profiles, one's own name and avatar, friends and blocks over REST, and the refusals:
each refused request answers its named error and changes nothing. The friends' Python
interface (``friends_of``, ``is_blocked``) is checked on the server's own database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine

from sahrat.server.people import friends
from sahrat.server.people.profiles import AVATARS
from sahrat.server.people.service import People
from sahrat.server.store import Store
from tests.server.conftest import shared_server
from tests.server.harness import (
    PASSWORD,
    Account,
    Reply,
    Server,
    call,
    new_account,
    run,
    unique_name,
)

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

SETTINGS = {"accounts_burst": 100_000, "logins_burst": 100_000, "name_logins_burst": 100_000}
#: Friend requests one player may send at once on this module's server.
BURST = 4


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {**SETTINGS, "friend_requests_burst": BURST}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


@pytest.fixture
def engine(server: Server) -> Iterator[Engine]:
    engine = create_engine(server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}")
    yield engine
    engine.dispose()


def ask(server: Server, sender: Account, **body: Any) -> Reply:
    return call(server, "POST", "/api/friends", body, token=sender.token)


def lists(server: Server, account: Account) -> dict[str, list[str]]:
    """The account's friend lists as ids."""
    reply = call(server, "GET", "/api/friends", token=account.token)
    assert reply.status == 200, reply
    return {kind: [p["id"] for p in people] for kind, people in reply.body.items()}


EMPTY: dict[str, list[str]] = {"friends": [], "incoming": [], "outgoing": [], "blocked": []}


# -- friends ------------------------------------------------------------------------------


def test_a_request_by_name_is_listed_both_ways(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    reply = ask(server, a, name=b.name.upper())
    assert (reply.status, reply.body["status"], reply.body["player"]["id"]) == (
        201, "requested", b.id)  # fmt: skip
    assert lists(server, a)["outgoing"] == [b.id]
    assert lists(server, b)["incoming"] == [a.id]


def test_an_accepted_request_makes_friends_both_ways(server: Server, engine: Engine) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, player=b.id)
    assert call(server, "PUT", f"/api/friends/requests/{a.id}", token=b.token).status == 204
    assert (lists(server, a)["friends"], lists(server, b)["friends"]) == ([b.id], [a.id])
    assert lists(server, a)["outgoing"] == lists(server, b)["incoming"] == []
    assert friends.friends_of(engine, a.id) == {b.id}
    assert friends.friends_of(engine, b.id) == {a.id}


def test_two_requests_that_cross_make_friends(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    reply = ask(server, b, name=a.name)
    assert (reply.status, reply.body["status"]) == (200, "friends")
    assert lists(server, a)["friends"] == [b.id]


def test_the_socket_sides_interface_answers_from_the_database(server: Server) -> None:
    a, b, c = new_account(server), new_account(server), new_account(server)
    ask(server, a, name=b.name)
    ask(server, b, name=a.name)
    call(server, "PUT", f"/api/blocks/{a.id}", token=c.token)
    store = Store(server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}")
    people = People(store)

    async def asked() -> tuple[set[str], set[str], bool, bool]:
        friends_of_a, friends_of_c = await people.friends_of(a.id), await people.friends_of(c.id)
        return friends_of_a, friends_of_c, await people.is_blocked(c.id, a.id), \
            await people.is_blocked(a.id, c.id)  # fmt: skip

    try:
        assert run(asked()) == ({b.id}, set(), True, False)
    finally:
        store.close()


def test_a_refused_request_is_gone_for_both(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    assert call(server, "DELETE", f"/api/friends/requests/{a.id}", token=b.token).status == 204
    assert lists(server, a) == lists(server, b) == EMPTY


def test_removing_a_friend_ends_it_both_ways(server: Server, engine: Engine) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    ask(server, b, name=a.name)
    assert call(server, "DELETE", f"/api/friends/{a.id}", token=b.token).status == 204
    assert lists(server, a) == lists(server, b) == EMPTY
    assert friends.friends_of(engine, a.id) == set()


def test_a_request_to_oneself_is_422_and_changes_nothing(server: Server) -> None:
    a = new_account(server)
    reply = ask(server, a, name=a.name)
    assert (reply.status, reply.code) == (422, "cannot_friend_self")
    assert lists(server, a) == EMPTY


def test_a_second_request_is_409_already_requested(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    reply = ask(server, a, player=b.id)
    assert (reply.status, reply.code) == (409, "already_requested")
    assert lists(server, b)["incoming"] == [a.id]


def test_a_request_to_a_friend_is_409_already_friends(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    ask(server, b, name=a.name)
    assert ask(server, a, name=b.name).code == "already_friends"


def test_a_request_to_nobody_is_404_no_such_player(server: Server) -> None:
    a = new_account(server)
    for body in ({"name": unique_name("ghost")}, {"player": "p0000"}, {"name": 7}, {}):
        reply = ask(server, a, **body)
        assert (reply.status, reply.code) == (404, "no_such_player"), body
    assert lists(server, a) == EMPTY


def test_answering_no_request_is_404(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    for method in ("PUT", "DELETE"):
        reply = call(server, method, f"/api/friends/requests/{b.id}", token=a.token)
        assert (reply.status, reply.code) == (404, "no_such_request")
    reply = call(server, "DELETE", f"/api/friends/{b.id}", token=a.token)
    assert (reply.status, reply.code) == (404, "not_friends")


def test_blocking_ends_the_friendship_and_stops_requests_both_ways(
    server: Server, engine: Engine
) -> None:
    a, b = new_account(server), new_account(server)
    ask(server, a, name=b.name)
    ask(server, b, name=a.name)
    assert call(server, "PUT", f"/api/blocks/{b.id}", token=a.token).status == 204
    assert lists(server, a) == {**EMPTY, "blocked": [b.id]}
    assert lists(server, b) == EMPTY
    assert (ask(server, a, name=b.name).code, ask(server, b, name=a.name).code) == (
        "you_blocked_them", "blocked")  # fmt: skip
    assert ask(server, b, name=a.name).status == 403
    assert lists(server, b) == EMPTY
    assert friends.is_blocked(engine, a.id, b.id) and not friends.is_blocked(engine, b.id, a.id)
    assert friends.blocked_between(engine, b.id, a.id)


def test_unblocking_lets_requests_through_again(server: Server, engine: Engine) -> None:
    a, b = new_account(server), new_account(server)
    call(server, "PUT", f"/api/blocks/{b.id}", token=a.token)
    assert call(server, "DELETE", f"/api/blocks/{b.id}", token=a.token).status == 204
    assert not friends.is_blocked(engine, a.id, b.id)
    assert ask(server, b, name=a.name).status == 201
    again = call(server, "DELETE", f"/api/blocks/{b.id}", token=a.token)
    assert (again.status, again.code) == (404, "not_blocked")


def test_blocking_twice_or_oneself_is_refused(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    call(server, "PUT", f"/api/blocks/{b.id}", token=a.token)
    twice = call(server, "PUT", f"/api/blocks/{b.id}", token=a.token)
    self_block = call(server, "PUT", f"/api/blocks/{a.id}", token=a.token)
    assert (twice.status, twice.code) == (409, "already_blocked")
    assert (self_block.status, self_block.code) == (422, "cannot_block_self")
    assert lists(server, a)["blocked"] == [b.id]


def test_friend_requests_past_the_limit_get_429_and_change_nothing(server: Server) -> None:
    a = new_account(server)
    others = [new_account(server) for _ in range(BURST + 1)]
    answers = [ask(server, a, name=o.name).status for o in others]
    assert answers == [201] * BURST + [429]
    assert int(ask(server, a, name=others[-1].name).headers["retry-after"]) >= 1
    assert lists(server, others[-1])["incoming"] == []


def test_a_guest_has_no_friends(server: Server) -> None:
    guest = call(server, "POST", "/api/guest", {"name": "visitor"}).body["token"]
    b = new_account(server)
    for method, path, body in (("GET", "/api/friends", None),
                               ("POST", "/api/friends", {"name": b.name}),
                               ("PUT", f"/api/blocks/{b.id}", None)):  # fmt: skip
        reply = call(server, method, path, body, token=guest)
        assert (reply.status, reply.code) == (403, "guest"), path
    assert lists(server, b) == EMPTY


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/friends"), ("POST", "/api/friends"), ("PATCH", "/api/me"),
     ("PUT", "/api/blocks/p1"), ("DELETE", "/api/friends/p1")],
)  # fmt: skip
def test_the_friend_routes_need_a_session(server: Server, method: str, path: str) -> None:
    reply = call(server, method, path, {"name": "x"})
    assert (reply.status, reply.code) == (401, "bad_token")


def test_a_body_that_is_not_an_object_is_422(server: Server) -> None:
    a = new_account(server)
    reply = call(server, "POST", "/api/friends", ["list"], token=a.token)
    assert (reply.status, reply.code) == (422, "bad_field")


# -- profiles, names and avatars ----------------------------------------------------------


def test_a_new_accounts_profile(server: Server) -> None:
    a = new_account(server)
    profile = call(server, "GET", f"/api/players/{a.name}", token=a.token).body
    assert (profile["id"], profile["name"], profile["games"], profile["last_games"]) == (
        a.id, a.name, {}, [])  # fmt: skip
    assert profile["avatar"] in AVATARS and profile["you"] is True
    assert profile["avatars"] == list(AVATARS) and profile["name_change_at"] is None


def test_someone_elses_profile_has_nothing_of_ones_own(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    profile = call(server, "GET", f"/api/players/{b.id}", token=a.token).body
    assert profile["you"] is False and "avatars" not in profile and "name_change_at" not in profile


def test_nobody_and_a_guest_have_no_profile(server: Server) -> None:
    guest = call(server, "POST", "/api/guest", {"name": "visitor"}).body["player"]["id"]
    for who in (unique_name("ghost"), guest):
        reply = call(server, "GET", f"/api/players/{who}")
        assert (reply.status, reply.code) == (404, "no_such_player")


def test_choosing_an_avatar_shows_on_the_profile_and_in_friends_lists(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    reply = call(server, "PATCH", "/api/me", {"avatar": "moon"}, token=a.token)
    assert (reply.status, reply.body["avatar"]) == (200, "moon")
    ask(server, a, name=b.name)
    incoming = call(server, "GET", "/api/friends", token=b.token).body["incoming"]
    assert incoming[0]["avatar"] == "moon"


def test_an_unknown_avatar_is_422_and_changes_nothing(server: Server) -> None:
    a = new_account(server)
    before = call(server, "GET", f"/api/players/{a.id}").body["avatar"]
    for body in ({"avatar": "skull"}, {"avatar": None}, {"avatar": "moon", "colour": "red"}, {}):
        reply = call(server, "PATCH", "/api/me", body, token=a.token)
        assert reply.status == 422, body
    assert call(server, "GET", f"/api/players/{a.id}").body["avatar"] == before


def test_a_new_name_is_the_accounts_name_everywhere(server: Server) -> None:
    a = new_account(server)
    new = unique_name("renamed")
    reply = call(server, "PATCH", "/api/me", {"name": new}, token=a.token)
    assert (reply.status, reply.body["name"]) == (200, new)
    assert reply.body["name_change_at"] > 0
    assert call(server, "GET", "/api/me", token=a.token).body["name"] == new
    assert call(server, "POST", "/api/sessions", {"name": new, "password": PASSWORD}).status == 200
    old = call(server, "POST", "/api/sessions", {"name": a.name, "password": PASSWORD})
    assert old.status == 401
    # The old name is free again.
    assert call(server, "POST", "/api/accounts", {"name": a.name, "password": PASSWORD}).status \
        == 201  # fmt: skip


def test_a_second_name_change_within_30_days_is_409(server: Server) -> None:
    a = new_account(server)
    first = unique_name("first")
    call(server, "PATCH", "/api/me", {"name": first}, token=a.token)
    reply = call(server, "PATCH", "/api/me", {"name": unique_name("second")}, token=a.token)
    assert (reply.status, reply.code) == (409, "name_too_soon")
    assert reply.body["next_at"] > 0
    assert call(server, "GET", "/api/me", token=a.token).body["name"] == first


def test_a_taken_name_is_409_and_changes_nothing(server: Server) -> None:
    a, b = new_account(server), new_account(server)
    reply = call(server, "PATCH", "/api/me", {"name": b.name.upper()}, token=a.token)
    assert (reply.status, reply.code) == (409, "name_taken")
    assert call(server, "GET", "/api/me", token=a.token).body["name"] == a.name
    # The refusal did not use up the month's change.
    assert call(server, "PATCH", "/api/me", {"name": unique_name()}, token=a.token).status == 200


@pytest.mark.parametrize(
    ("name", "code"),
    [("x", "name_too_short"), ("n" * 21, "name_too_long"), (" lead", "name_spaces"),
     ("bad<b>", "name_bad_character"), (12, "bad_field")],
)  # fmt: skip
def test_a_name_against_the_rules_is_422_and_changes_nothing(
    server: Server, name: object, code: str
) -> None:
    a = new_account(server)
    before = call(server, "GET", f"/api/players/{a.id}").body
    avatar = next(x for x in AVATARS if x != before["avatar"])
    reply = call(server, "PATCH", "/api/me", {"name": name, "avatar": avatar}, token=a.token)
    assert (reply.status, reply.code) == (422, code)
    assert call(server, "GET", f"/api/players/{a.id}").body == before


def test_a_guest_cannot_change_a_profile(server: Server) -> None:
    guest = call(server, "POST", "/api/guest", {"name": "visitor"}).body["token"]
    reply = call(server, "PATCH", "/api/me", {"avatar": "sun"}, token=guest)
    assert (reply.status, reply.code) == (403, "guest")


# -- leaderboards: bad input --------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "status"),
    [("period=year", 422), ("by=losses", 422), ("page=0", 422), ("page=-1", 422),
     ("page=two", 422), ("limit=0", 422), ("limit=101", 422), ("page=99999999999", 422)],
)  # fmt: skip
def test_a_bad_leaderboard_query_is_refused(server: Server, query: str, status: int) -> None:
    reply = call(server, "GET", f"/api/leaderboards/jackaroo?{query}")
    assert (reply.status, reply.code) == (status, "bad_field")


def test_an_unknown_games_leaderboard_is_404(server: Server) -> None:
    reply = call(server, "GET", "/api/leaderboards/chess")
    assert (reply.status, reply.code) == (404, "no_such_game")


def test_an_empty_leaderboard_has_one_empty_page(server: Server) -> None:
    board = call(server, "GET", "/api/leaderboards/buraco?period=week&by=wins").body
    assert (board["entries"], board["pages"], board["total"], board["me"]) == ([], 1, 0, None)


PEOPLE_ROUTES = [
    ("/api/leaderboards/{game}", "get"),
    ("/api/players/{who}", "get"),
    ("/api/me", "patch"),
    ("/api/me", "get"),
    ("/api/friends", "get"),
    ("/api/friends", "post"),
    ("/api/friends/requests/{player_id}", "put"),
    ("/api/friends/requests/{player_id}", "delete"),
    ("/api/friends/{player_id}", "delete"),
    ("/api/blocks/{player_id}", "put"),
    ("/api/blocks/{player_id}", "delete"),
]


@pytest.mark.parametrize(("path", "method"), PEOPLE_ROUTES)
def test_the_openapi_description_lists_every_people_route(
    server: Server, path: str, method: str
) -> None:
    paths = call(server, "GET", "/openapi.json").body["paths"]
    assert method in paths[path]
