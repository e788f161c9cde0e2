"""Accounts over REST: registration, names, passwords, logins and their limits, sessions,
the daily grant and the ledger; a guest turning into an account; the OpenAPI description.

Most tests share one server per backend, each with accounts of its own; the login limits
and the idle sessions have a server of their own with tight settings.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from sahrat.server.schema import players
from tests.server.conftest import game_over, play, shared_server
from tests.server.harness import (
    PASSWORD,
    Account,
    Player,
    Reply,
    Server,
    call,
    closed_with,
    hello_reply,
    new_account,
    run,
    unique_name,
)

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

#: Every test client comes from 127.0.0.1: the limits on accounts and logins have a
#: server of their own (``strict``).
OPEN = {"accounts_burst": 100_000, "logins_burst": 100_000, "name_logins_burst": 100_000}

#: Six logins per address and three per name, refilled every ten minutes (not within a
#: test); a session unused for a second and a half has ended.
PER_ADDRESS, PER_NAME, IDLE_SECONDS = 6, 3, 1.5
STRICT = {
    "accounts_burst": 100_000,
    "logins_burst": PER_ADDRESS,
    "logins_every": 600.0,
    "name_logins_burst": PER_NAME,
    "name_logins_every": 600.0,
    "session_idle_seconds": IDLE_SECONDS,
}

#: Passwords a test sends and the server must never write to its log.
MARKUP_PASSWORD = "'; DROP TABLE players;-- <script>alert(1)</script>"
NEW_PASSWORD = "a brand new secret 9"
HUGE_PASSWORD = "megabyte-password-" + "q" * (1 << 20)
SECRETS = (PASSWORD, MARKUP_PASSWORD, NEW_PASSWORD, "x" * 1024, "wrong password 1")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, **OPEN) as server:
        yield server


@pytest.fixture(scope="module")
def strict(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, **STRICT) as server:
        yield server


def login(server: Server, name: str, password: str, source: str = "") -> Reply:
    return call(
        server, "POST", "/api/sessions", {"name": name, "password": password}, source=source
    )


def register(server: Server, name: object, password: object = PASSWORD, token: str = "") -> Reply:
    return call(server, "POST", "/api/accounts", {"name": name, "password": password}, token=token)


def me(server: Server, token: str) -> Reply:
    return call(server, "GET", "/api/me", token=token)


@pytest.fixture(scope="module")
def someone(server: Server) -> Account:
    """An account for the tests that change nothing about it."""
    return new_account(server)


def forged(token: str) -> str:
    """``token`` with its signature's last character changed."""
    return token[:-1] + ("1" if token.endswith("0") else "0")


# -- registration and the new account -----------------------------------------------------


@dataclass
class Registered:
    """A new account as its registration answered, and what it reads at once."""

    reply: Reply
    name: str
    me: Reply
    ledger: Reply
    games: Reply
    login: Reply

    @property
    def token(self) -> str:
        return str(self.reply.body["token"])

    @property
    def id(self) -> str:
        return str(self.reply.body["player"]["id"])


@pytest.fixture(scope="module")
def registered(server: Server) -> Registered:
    name = unique_name("new")
    reply = register(server, name)
    token = reply.body["token"]
    return Registered(
        reply,
        name,
        me(server, token),
        call(server, "GET", "/api/me/ledger", token=token),
        call(server, "GET", "/api/me/games", token=token),
        login(server, name, PASSWORD),
    )


def test_registering_answers_201_with_a_token_and_the_account(registered: Registered) -> None:
    assert registered.reply.status == 201
    assert registered.token
    assert registered.reply.body["player"] == {
        "id": registered.id,
        "name": registered.name,
        "guest": False,
        "balance": 1000,
    }


def test_me_shows_a_new_accounts_starting_grant_and_a_claimable_daily_grant(
    registered: Registered,
) -> None:
    assert registered.me.status == 200
    body = registered.me.body
    assert body["id"] == registered.id and body["guest"] is False
    assert body["balance"] == 1000 and body["games_played"] == 0 and body["table"] is None
    assert body["daily_grant"]["amount"] == 200 and body["daily_grant"]["claimable"] is True
    assert body["daily_grant"]["next_at"] > time.time()


def test_the_starting_grant_is_the_first_ledger_entry(registered: Registered) -> None:
    assert registered.ledger.status == 200
    entries = registered.ledger.body["entries"]
    assert [(e["kind"], e["amount"], e["balance"], e["table"]) for e in entries] == [
        ("grant_start", 1000, 1000, None)
    ]
    assert registered.ledger.body["next"] is None


def test_a_new_account_has_played_no_games(registered: Registered) -> None:
    assert registered.games.status == 200
    assert registered.games.body == {"games": [], "next": None}


def test_logging_in_answers_200_with_a_new_token_for_the_same_player(
    registered: Registered,
) -> None:
    assert registered.login.status == 200
    assert registered.login.body["player"] == registered.reply.body["player"]
    assert registered.login.body["token"] != registered.token


def test_an_accounts_token_brings_the_account_over_the_socket(
    server: Server, registered: Registered
) -> None:
    async def scenario() -> dict[str, Any]:
        player, reply = await hello_reply(server, registered.token)
        await player.close()
        return reply

    welcome = run(scenario())
    assert welcome["type"] == "welcome"
    assert welcome["player"] == {
        "id": registered.id,
        "name": registered.name,
        "guest": False,
        "balance": 1000,
    }


def test_the_login_name_matches_however_it_is_spelled(server: Server) -> None:
    account = new_account(server, unique_name("Spell"))
    reply = login(server, account.name.upper(), account.password)
    assert reply.status == 200 and reply.body["player"]["id"] == account.id


def test_coins_lists_the_stakes_the_fee_and_the_grants(server: Server) -> None:
    assert call(server, "GET", "/api/coins").body == {
        "stakes": [50, 100, 250, 500, 1000],
        "fee_percent": 10,
        "starting_grant": 1000,
        "daily_grant": 200,
    }


def test_registering_while_signed_in_to_an_account_is_409_already_registered(
    server: Server,
    someone: Account,
) -> None:
    reply = register(server, unique_name(), token=someone.token)
    assert (reply.status, reply.code) == (409, "already_registered")


SIGNED_IN = [
    ("GET", "/api/me"),
    ("GET", "/api/sessions"),
    ("DELETE", "/api/sessions"),
    ("DELETE", "/api/sessions/current"),
    ("DELETE", "/api/sessions/s0000000000000000"),
    ("PUT", "/api/me/password"),
    ("POST", "/api/me/daily-grant"),
    ("GET", "/api/me/ledger"),
    ("GET", "/api/me/games"),
]


@pytest.mark.parametrize(("method", "path"), SIGNED_IN)
def test_an_accounts_route_refuses_a_request_without_a_token_with_401(
    server: Server, method: str, path: str
) -> None:
    body = {"old": PASSWORD, "new": NEW_PASSWORD} if method == "PUT" else None
    reply = call(server, method, path, body)
    assert (reply.status, reply.code) == (401, "bad_token")


# -- the daily grant and the ledger -------------------------------------------------------


@dataclass
class Claimed:
    account: Account
    first: Reply
    second: Reply
    me: Reply
    ledger: Reply


@pytest.fixture(scope="module")
def claimed(server: Server) -> Claimed:
    """A new account claims the daily grant twice."""
    account = new_account(server)
    first = call(server, "POST", "/api/me/daily-grant", token=account.token)
    second = call(server, "POST", "/api/me/daily-grant", token=account.token)
    return Claimed(
        account,
        first,
        second,
        me(server, account.token),
        call(server, "GET", "/api/me/ledger", token=account.token),
    )


def test_the_daily_grant_is_given(claimed: Claimed) -> None:
    assert claimed.first.status == 200
    assert claimed.first.body == {"granted": 200, "balance": 1200}


def test_a_second_daily_grant_the_same_day_is_409_already_claimed(claimed: Claimed) -> None:
    assert (claimed.second.status, claimed.second.code) == (409, "already_claimed")
    assert claimed.second.body["next_at"] > time.time()


def test_a_refused_daily_grant_gives_nothing(claimed: Claimed) -> None:
    assert claimed.me.body["balance"] == 1200


def test_me_says_the_daily_grant_is_claimed(claimed: Claimed) -> None:
    assert claimed.me.body["daily_grant"]["claimable"] is False


def test_the_ledger_lists_the_newest_entry_first(claimed: Claimed) -> None:
    entries = claimed.ledger.body["entries"]
    assert [(e["kind"], e["amount"], e["balance"]) for e in entries] == [
        ("grant_daily", 200, 1200),
        ("grant_start", 1000, 1000),
    ]
    assert entries[0]["at"] >= entries[1]["at"]


def test_ledger_pages_of_one_give_every_entry_once(server: Server, claimed: Claimed) -> None:
    seen: list[dict[str, Any]] = []
    before = ""
    for _ in range(5):
        page = call(server, "GET", f"/api/me/ledger?limit=1{before}", token=claimed.account.token)
        assert page.status == 200 and len(page.body["entries"]) == 1
        seen += page.body["entries"]
        if page.body["next"] is None:
            break
        before = f"&before={page.body['next']}"
    assert seen == claimed.ledger.body["entries"]


def test_a_guest_has_no_daily_grant(server: Server) -> None:
    guest = call(server, "POST", "/api/guest", {})
    reply = call(server, "POST", "/api/me/daily-grant", token=guest.body["token"])
    assert (reply.status, reply.code) == (403, "guest_no_coins")


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=101", "limit=ten", "before=x", "before=nan", "limit=1e9"]
)
def test_a_ledger_page_out_of_bounds_is_422(server: Server, claimed: Claimed, query: str) -> None:
    reply = call(server, "GET", f"/api/me/ledger?{query}", token=claimed.account.token)
    assert (reply.status, reply.code) == (422, "bad_field")


# -- names --------------------------------------------------------------------------------

REFUSED_NAMES = {
    "one letter": ("N", "name_too_short"),
    "empty": ("", "name_too_short"),
    "21 letters": ("N" * 21, "name_too_long"),
    "markup": ("<b>Nora</b>", "name_bad_character"),
    "sql": ("';DROP TABLE players", "name_bad_character"),
    "emoji": ("Nora😀", "name_bad_character"),
    "tatweel": ("نــورة", "name_bad_character"),
    "cyrillic look-alikes": ("Nоrа", "name_bad_character"),  # о and а are Cyrillic
    "zero-width joiner": ("No\u200dra", "name_bad_character"),
    "right-to-left override": ("\u202eNora", "name_bad_character"),
    "an underscore": ("Nora_K", "name_bad_character"),
    "a tab": ("Nora\tK", "name_bad_character"),
    "leading space": (" Nora", "name_spaces"),
    "trailing space": ("Nora ", "name_spaces"),
    "double space": ("Nora  K", "name_spaces"),
    "a number": (12345, "bad_field"),
    "null": (None, "bad_field"),
}


@pytest.mark.parametrize(("name", "code"), REFUSED_NAMES.values(), ids=REFUSED_NAMES.keys())
def test_a_name_against_the_rules_is_refused_with_422_and_its_code(
    server: Server, name: object, code: str
) -> None:
    reply = register(server, name)
    assert (reply.status, reply.code) == (422, code)


def test_a_refused_registration_leaves_its_name_free(server: Server) -> None:
    name = unique_name()
    assert register(server, name, "short").status == 422
    assert register(server, name).status == 201


LOOK_ALIKES = {
    "the same": ("Layla", "Layla"),
    "case": ("Nora", "NORA"),
    "hamza on alef": ("أحمد", "احمد"),
    "teh marbuta": ("نورة", "نوره"),
    "arabic-indic digit": ("لاعب3", "لاعب٣"),
    "persian yeh": ("علي", "علی"),
    "alef maksura": ("مصطفى", "مصطفي"),
    "full-width latin": ("Samir", "Ｓａｍｉｒ"),
}


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_name_that_looks_like_a_taken_one_is_409_name_taken(
    server: Server, first: str, second: str
) -> None:
    assert register(server, first).status == 201
    reply = register(server, second)
    assert (reply.status, reply.code) == (409, "name_taken")


def test_a_name_is_kept_in_its_nfkc_form(server: Server) -> None:
    reply = register(server, "Ｋａｒｉｍ ７")
    assert reply.status == 201 and reply.body["player"]["name"] == "Karim 7"


def test_an_arabic_name_with_a_space_and_a_digit_is_accepted(server: Server) -> None:
    reply = register(server, "نورة 7")
    assert reply.status == 201 and reply.body["player"]["name"] == "نورة 7"


def test_a_name_of_twenty_characters_is_accepted(server: Server) -> None:
    name = unique_name("n").ljust(20, "z")
    assert register(server, name).status == 201


# -- passwords ----------------------------------------------------------------------------


def stored_hash(server: Server, player: str) -> str:
    url = server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}"
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            found = c.execute(select(players.c.password_hash).where(players.c.id == player))
            return str(found.scalar_one())
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def marked_up(server: Server) -> Account:
    """An account whose password is markup and SQL."""
    return new_account(server, password=MARKUP_PASSWORD)


def test_markup_and_sql_in_a_password_work_as_a_password(
    server: Server, marked_up: Account
) -> None:
    reply = login(server, marked_up.name, MARKUP_PASSWORD)
    assert reply.status == 200 and reply.body["player"]["id"] == marked_up.id


def test_a_password_differing_by_one_character_does_not_log_in(
    server: Server, marked_up: Account
) -> None:
    assert login(server, marked_up.name, MARKUP_PASSWORD[:-1] + "!").status == 401


def test_a_password_is_stored_as_an_argon2id_hash(server: Server, marked_up: Account) -> None:
    stored = stored_hash(server, marked_up.id)
    assert stored.startswith("$argon2id$") and MARKUP_PASSWORD not in stored


REFUSED_PASSWORDS = {
    "seven characters": ("sevench", "password_too_short"),
    "257 bytes": ("p" * 257, "password_too_long"),
    "a kilobyte": ("x" * 1024, "password_too_long"),
    "129 arabic letters, 258 bytes": ("ب" * 129, "password_too_long"),
    "a number": (12345678, "bad_field"),
    "null": (None, "bad_field"),
}


@pytest.mark.parametrize(
    ("password", "code"), REFUSED_PASSWORDS.values(), ids=REFUSED_PASSWORDS.keys()
)
def test_a_password_out_of_bounds_is_refused_with_422_and_its_code(
    server: Server, password: object, code: str
) -> None:
    reply = register(server, unique_name(), password)
    assert (reply.status, reply.code) == (422, code)


@pytest.mark.parametrize("password", ["eight ch", "p" * 256, "ب" * 128], ids=["8", "256", "128ar"])
def test_a_password_within_bounds_is_accepted(server: Server, password: str) -> None:
    account = new_account(server, password=password)
    assert login(server, account.name, password).status == 200


def post_raw(server: Server, path: str, body: bytes) -> tuple[int, float]:
    """POST ``body`` over a bare socket: (the status, the seconds the answer took); the
    server may answer, and stop reading, before the body is all sent."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
        )
        with contextlib.suppress(OSError):
            conn.sendall(body)
        reply = b""
        while b"\r\n" not in reply:
            data = conn.recv(4096)
            if not data:
                break
            reply += data
    return int(reply.split(b" ", 2)[1]), time.monotonic() - started


def test_a_megabyte_body_is_refused_with_413_at_once(server: Server) -> None:
    name = unique_name()
    body = json.dumps({"name": name, "password": HUGE_PASSWORD}).encode()
    status, took = post_raw(server, "/api/accounts", body)
    assert status == 413 and took < 2.0
    assert register(server, name).status == 201  # the name was not taken


# -- logins -------------------------------------------------------------------------------


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(
    server: Server, someone: Account
) -> None:
    wrong_password = login(server, someone.name, "wrong password 1")
    wrong_name = login(server, unique_name(), someone.password)
    assert (wrong_password.status, wrong_password.code) == (401, "wrong_credentials")
    assert (wrong_name.status, wrong_name.body) == (wrong_password.status, wrong_password.body)


def test_a_login_without_a_password_gets_the_same_answer_as_a_wrong_one(
    server: Server, someone: Account
) -> None:
    missing = call(server, "POST", "/api/sessions", {"name": someone.name})
    wrong = login(server, someone.name, "wrong password 1")
    assert (missing.status, missing.body) == (wrong.status, wrong.body)


@dataclass
class Limited:
    past: Reply  # the first login past the limit
    other: Reply  # then a login elsewhere that the limit does not cover


@pytest.fixture(scope="module")
def address_limited(strict: Server) -> Limited:
    """From 127.0.0.2, six logins to six names (wrong passwords), then a seventh; then an
    account's login from 127.0.0.3."""
    account = new_account(strict)
    for _ in range(PER_ADDRESS):
        assert login(strict, unique_name(), "wrong password 1", "127.0.0.2").status == 401
    past = login(strict, account.name, account.password, "127.0.0.2")
    return Limited(past, login(strict, account.name, account.password, "127.0.0.3"))


def test_logins_from_one_address_past_its_limit_get_429_with_retry_after(
    address_limited: Limited,
) -> None:
    past = address_limited.past
    assert (past.status, past.code) == (429, "too_many")
    assert int(past.headers["retry-after"]) >= 1


def test_another_address_still_logs_in_once_one_is_limited(address_limited: Limited) -> None:
    assert address_limited.other.status == 200


@pytest.fixture(scope="module")
def name_limited(strict: Server) -> tuple[Limited, Reply]:
    """From 127.0.0.4, three wrong passwords for an account, then its right one; another
    account's login from there; the first account's right password from 127.0.0.5."""
    account, other = new_account(strict), new_account(strict)
    for _ in range(PER_NAME):
        assert login(strict, account.name, "wrong password 1", "127.0.0.4").status == 401
    past = login(strict, account.name, account.password, "127.0.0.4")
    elsewhere = login(strict, account.name.upper(), account.password, "127.0.0.5")
    return Limited(past, login(strict, other.name, other.password, "127.0.0.4")), elsewhere


def test_logins_to_one_name_past_its_limit_get_429_even_with_the_right_password(
    name_limited: tuple[Limited, Reply],
) -> None:
    past = name_limited[0].past
    assert (past.status, past.code) == (429, "too_many")
    assert int(past.headers["retry-after"]) >= 1


def test_a_names_limit_holds_from_another_address_and_spelling(
    name_limited: tuple[Limited, Reply],
) -> None:
    assert (name_limited[1].status, name_limited[1].code) == (429, "too_many")


def test_another_name_still_logs_in_once_one_is_limited(
    name_limited: tuple[Limited, Reply],
) -> None:
    assert name_limited[0].other.status == 200


# -- sessions -----------------------------------------------------------------------------


def session_ids(server: Server, token: str) -> dict[str, bool]:
    """The open sessions of the token's account: their ids, and which is the caller's."""
    reply = call(server, "GET", "/api/sessions", token=token)
    assert reply.status == 200, reply
    return {s["id"]: s["current"] for s in reply.body["sessions"]}


def test_two_logins_are_listed_as_sessions_with_the_callers_marked_current(
    server: Server,
) -> None:
    account = new_account(server)
    first = login(server, account.name, account.password).body["token"]
    login(server, account.name, account.password)
    sessions = session_ids(server, first)
    assert len(sessions) == 3  # the registration's and two logins'
    assert sum(sessions.values()) == 1
    assert first.startswith(next(s for s, current in sessions.items() if current))


@dataclass
class Revoked:
    status: int  # what the revoke answered
    me: Reply  # the revoked token's /api/me afterwards
    close_code: int | None  # of the revoked session's socket
    survivor: Reply  # the revoking session's /api/me afterwards


@pytest.fixture(scope="module")
def revoked(server: Server) -> Revoked:
    """An account logs in again, with a socket open on that login; the registration's
    session revokes the login's."""
    account = new_account(server)
    second = login(server, account.name, account.password).body["token"]

    async def scenario() -> Revoked:
        player = Player(server)
        await player.connect(token=second)
        target = next(s for s, current in session_ids(server, second).items() if current)
        status = call(server, "DELETE", f"/api/sessions/{target}", token=account.token).status
        code = await closed_with(player)
        return Revoked(status, me(server, second), code, me(server, account.token))

    return run(scenario())  # type: ignore[no-any-return]


def test_revoking_a_session_answers_204(revoked: Revoked) -> None:
    assert revoked.status == 204


def test_a_revoked_sessions_token_is_refused_with_401(revoked: Revoked) -> None:
    assert (revoked.me.status, revoked.me.code) == (401, "bad_token")


def test_a_revoked_sessions_socket_is_closed_with_4001(revoked: Revoked) -> None:
    assert revoked.close_code == 4001


def test_revoking_another_session_keeps_ones_own(revoked: Revoked) -> None:
    assert revoked.survivor.status == 200


def test_revoking_an_unknown_session_is_404(server: Server, someone: Account) -> None:
    reply = call(server, "DELETE", "/api/sessions/s0000000000000000", token=someone.token)
    assert (reply.status, reply.code) == (404, "no_such_session")


def test_an_account_cannot_revoke_another_accounts_session(
    server: Server, someone: Account
) -> None:
    owner, intruder = new_account(server), someone
    target = next(iter(session_ids(server, owner.token)))
    reply = call(server, "DELETE", f"/api/sessions/{target}", token=intruder.token)
    assert reply.status == 404 and me(server, owner.token).status == 200


@dataclass
class LoggedOut:
    status: int
    own: Reply  # the logged-out token's /api/me
    other: Reply  # the account's other session's /api/me
    close_code: int | None  # of a socket of the logged-out session


@pytest.fixture(scope="module")
def logged_out(server: Server) -> LoggedOut:
    account = new_account(server)
    second = login(server, account.name, account.password).body["token"]

    async def scenario() -> LoggedOut:
        player = Player(server)
        await player.connect(token=second)
        status = call(server, "DELETE", "/api/sessions/current", token=second).status
        code = await closed_with(player)
        return LoggedOut(status, me(server, second), me(server, account.token), code)

    return run(scenario())  # type: ignore[no-any-return]


def test_logging_out_answers_204(logged_out: LoggedOut) -> None:
    assert logged_out.status == 204


def test_logging_out_ends_the_current_session(logged_out: LoggedOut) -> None:
    assert logged_out.own.status == 401


def test_logging_out_keeps_the_accounts_other_sessions(logged_out: LoggedOut) -> None:
    assert logged_out.other.status == 200


def test_logging_out_closes_the_sessions_socket_with_4001(logged_out: LoggedOut) -> None:
    assert logged_out.close_code == 4001


@dataclass
class OutEverywhere:
    status: int
    tokens: list[Reply]  # /api/me of each of the account's three sessions afterwards
    close_code: int | None  # of a socket of a session other than the caller's
    stranger: Reply  # another account's /api/me afterwards


@pytest.fixture(scope="module")
def out_everywhere(server: Server) -> OutEverywhere:
    account = new_account(server)
    stranger = new_account(server)
    others = [login(server, account.name, account.password).body["token"] for _ in range(2)]

    async def scenario() -> OutEverywhere:
        player = Player(server)
        await player.connect(token=others[0])
        status = call(server, "DELETE", "/api/sessions", token=account.token).status
        code = await closed_with(player)
        tokens = [me(server, t) for t in (account.token, *others)]
        return OutEverywhere(status, tokens, code, me(server, stranger.token))

    return run(scenario())  # type: ignore[no-any-return]


def test_logging_out_everywhere_answers_204(out_everywhere: OutEverywhere) -> None:
    assert out_everywhere.status == 204


def test_logging_out_everywhere_ends_every_session_of_the_account(
    out_everywhere: OutEverywhere,
) -> None:
    assert [r.status for r in out_everywhere.tokens] == [401, 401, 401]


def test_logging_out_everywhere_closes_the_other_sessions_sockets_with_4001(
    out_everywhere: OutEverywhere,
) -> None:
    assert out_everywhere.close_code == 4001


def test_logging_out_everywhere_leaves_other_accounts_signed_in(
    out_everywhere: OutEverywhere,
) -> None:
    assert out_everywhere.stranger.status == 200


@dataclass
class Changed:
    status: int
    other: Reply  # the other session's /api/me afterwards
    close_code: int | None  # of the other session's socket
    current: Reply  # the changing session's /api/me afterwards
    old_login: Reply
    new_login: Reply


@pytest.fixture(scope="module")
def changed(server: Server) -> Changed:
    """An account with a second session (a socket open on it) changes its password from
    the first."""
    account = new_account(server)
    second = login(server, account.name, account.password).body["token"]

    async def scenario() -> Changed:
        player = Player(server)
        await player.connect(token=second)
        body = {"old": account.password, "new": NEW_PASSWORD}
        status = call(server, "PUT", "/api/me/password", body, token=account.token).status
        code = await closed_with(player)
        return Changed(
            status,
            me(server, second),
            code,
            me(server, account.token),
            login(server, account.name, account.password),
            login(server, account.name, NEW_PASSWORD),
        )

    return run(scenario())  # type: ignore[no-any-return]


def test_a_password_change_answers_204(changed: Changed) -> None:
    assert changed.status == 204


def test_a_password_change_ends_the_other_sessions(changed: Changed) -> None:
    assert changed.other.status == 401


def test_a_password_change_closes_the_other_sessions_sockets_with_4001(
    changed: Changed,
) -> None:
    assert changed.close_code == 4001


def test_a_password_change_keeps_the_current_session(changed: Changed) -> None:
    assert changed.current.status == 200


def test_the_old_password_no_longer_logs_in(changed: Changed) -> None:
    assert (changed.old_login.status, changed.old_login.code) == (401, "wrong_credentials")


def test_the_new_password_logs_in(changed: Changed) -> None:
    assert changed.new_login.status == 200


def test_a_password_change_with_a_wrong_old_password_is_401_and_changes_nothing(
    server: Server,
    someone: Account,
) -> None:
    body = {"old": "wrong password 1", "new": NEW_PASSWORD}
    reply = call(server, "PUT", "/api/me/password", body, token=someone.token)
    assert (reply.status, reply.code) == (401, "wrong_credentials")
    assert login(server, someone.name, someone.password).status == 200


def test_a_password_change_to_a_short_password_is_422(server: Server, someone: Account) -> None:
    body = {"old": someone.password, "new": "short"}
    reply = call(server, "PUT", "/api/me/password", body, token=someone.token)
    assert (reply.status, reply.code) == (422, "password_too_short")


def test_a_forged_token_is_refused_with_401(server: Server, someone: Account) -> None:
    reply = me(server, forged(someone.token))
    assert (reply.status, reply.code) == (401, "bad_token")


def test_a_forged_tokens_hello_is_answered_bad_token(server: Server, someone: Account) -> None:

    async def scenario() -> dict[str, Any]:
        player, reply = await hello_reply(server, forged(someone.token))
        await player.close()
        return reply

    reply = run(scenario())
    assert (reply["type"], reply["code"]) == ("error", "bad_token")


@dataclass
class Idle:
    before: Reply  # /api/me at once
    after: Reply  # /api/me once the session was idle too long
    hello: dict[str, Any]  # the answer to a hello with the idle token


@pytest.fixture(scope="module")
def idle(strict: Server) -> Idle:
    """On a server whose sessions end after a second and a half unused: a new account's
    token at once, then a second after that."""
    account = new_account(strict)
    before = me(strict, account.token)
    time.sleep(IDLE_SECONDS + 1.0)

    async def hello() -> dict[str, Any]:
        player, reply = await hello_reply(strict, account.token)
        await player.close()
        return reply

    after = me(strict, account.token)
    return Idle(before, after, run(hello()))


def test_a_session_within_its_idle_time_is_served(idle: Idle) -> None:
    assert idle.before.status == 200


def test_a_session_idle_past_its_limit_is_refused_with_401(idle: Idle) -> None:
    assert (idle.after.status, idle.after.code) == (401, "bad_token")


def test_a_session_idle_past_its_limit_says_hello_to_bad_token(idle: Idle) -> None:
    assert (idle.hello["type"], idle.hello.get("code")) == ("error", "bad_token")


# -- a guest becomes an account -----------------------------------------------------------


@dataclass
class Promoted:
    guest: Reply  # the guest's creation
    table: str  # the free game the guest finished
    reply: Reply  # the registration with the guest's token
    close_code: int | None  # of the guest's socket
    me: Reply  # with the account's token
    games: Reply  # with the account's token
    guest_me: Reply  # with the guest's token, afterwards


@pytest.fixture(scope="module")
def promoted(server: Server) -> Promoted:
    """A guest plays a 2-seat Jackaroo game with a bot to its end, then registers under its
    own name with its guest token while its socket is open."""
    name = unique_name("Guest")
    guest = call(server, "POST", "/api/guest", {"name": name})
    token = guest.body["token"]

    async def scenario() -> Promoted:
        player = Player(server)
        await player.connect(token=token)
        await player.send(type="create", game="jackaroo", seats=2)
        table = (await player.expect("table"))["table"]["id"]
        await player.send(type="bots")
        await player.expect("seed_request")
        await player.send(type="seed", seed="guest-seed")
        await play(player, game_over, random.Random(7))
        await player.expect("table", lambda m: m["table"]["status"] == "finished")
        reply = register(server, name, token=token)
        code = await closed_with(player)
        new = reply.body["token"]
        return Promoted(
            guest,
            table,
            reply,
            code,
            me(server, new),
            call(server, "GET", "/api/me/games", token=new),
            me(server, token),
        )

    return run(scenario())  # type: ignore[no-any-return]


def test_a_guest_that_registers_keeps_its_player_id(promoted: Promoted) -> None:
    assert promoted.reply.status == 201
    assert promoted.reply.body["player"]["id"] == promoted.guest.body["player"]["id"]


def test_a_guest_that_registers_under_its_name_keeps_it(promoted: Promoted) -> None:
    assert promoted.me.body["name"] == promoted.guest.body["player"]["name"]


def test_a_guest_that_registers_is_an_account_with_the_starting_grant(
    promoted: Promoted,
) -> None:
    assert promoted.me.body["guest"] is False and promoted.me.body["balance"] == 1000


def test_a_guest_that_registers_keeps_its_finished_games(promoted: Promoted) -> None:
    games = promoted.games.body["games"]
    assert [(g["table"], g["game"], g["stake"], g["coins"]) for g in games] == [
        (promoted.table, "jackaroo", 0, 0)
    ]
    assert games[0]["result"] in ("won", "lost") and promoted.me.body["games_played"] == 1


def test_a_guests_socket_is_closed_with_4001_when_it_registers(promoted: Promoted) -> None:
    assert promoted.close_code == 4001


def test_a_guests_token_no_longer_works_once_it_registered(promoted: Promoted) -> None:
    assert (promoted.guest_me.status, promoted.guest_me.code) == (401, "bad_token")


def test_a_guest_that_registers_under_a_new_name_takes_it(server: Server) -> None:
    guest = call(server, "POST", "/api/guest", {"name": "ضيف قديم"})
    name = unique_name("Renamed")
    reply = register(server, name, token=guest.body["token"])
    assert reply.body["player"] == {
        "id": guest.body["player"]["id"],
        "name": name,
        "guest": False,
        "balance": 1000,
    }


# -- the OpenAPI description --------------------------------------------------------------

ACCOUNT_ROUTES = [
    ("/api/accounts", "post"),
    ("/api/sessions", "post"),
    ("/api/sessions", "get"),
    ("/api/sessions", "delete"),
    ("/api/sessions/current", "delete"),
    ("/api/sessions/{session_id}", "delete"),
    ("/api/me", "get"),
    ("/api/me/password", "put"),
    ("/api/me/daily-grant", "post"),
    ("/api/me/ledger", "get"),
    ("/api/me/games", "get"),
    ("/api/coins", "get"),
]


@pytest.mark.parametrize(("path", "method"), ACCOUNT_ROUTES)
def test_the_openapi_description_lists_every_account_route(
    server: Server, path: str, method: str
) -> None:
    paths = call(server, "GET", "/openapi.json").body["paths"]
    assert method in paths.get(path, {}), f"{method.upper()} {path}"


# -- last: what the log holds -------------------------------------------------------------


def test_no_password_appears_in_the_servers_log(
    server: Server,
    strict: Server,
    registered: Registered,
    marked_up: Account,
    changed: Changed,
    name_limited: tuple[Limited, Reply],
) -> None:
    # Last in the module, after its other tests' passwords went through these servers;
    # the fixtures make sure some did, whichever tests were selected.
    for log in (server.log_text(), strict.log_text()):
        for secret in (*SECRETS, HUGE_PASSWORD[:40]):
            assert secret not in log
