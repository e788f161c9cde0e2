"""Bad and hostile input: each gets an error for its sender, nothing changes, the server lives."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.server.conftest import close_all, people, seat_four, shared_server, to_move
from tests.server.harness import (
    Player,
    Server,
    error_after_raw,
    error_for,
    listed_with,
    run,
    still_open,
)

#: On SQLite and on PostgreSQL.
pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, max_message_bytes=16384) as server:
        yield server


@pytest.fixture(scope="module")
def throttled(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the production rate limit: 20 messages a second, bursts of 40."""
    settings = {"messages_per_second": 20.0, "message_burst": 40}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


# -- junk at a table in play --------------------------------------------------------------


@dataclass
class Dealt:
    """Four people at a Jackaroo table just dealt: the one to move and another."""

    players: list[Player]
    mover: Player
    other: Player
    state: dict[str, Any]  # the mover's table

    @property
    def legal(self) -> list[str]:
        return list(self.state["legal"])

    @property
    def foreign(self) -> str:
        """A card the mover does not hold."""
        hand = self.state["view"]["hands"][str(self.state["you"])]
        return next(c for c in ("AS", "KH", "5D", "7C", "QS", "2H") if c not in hand)


async def dealt(server: Server) -> Dealt:
    players = await seat_four(server, "jackaroo")
    mover = to_move(players)
    other = next(p for p in players if p is not mover)
    assert mover.state is not None
    return Dealt(players, mover, other, mover.state)


@dataclass(frozen=True)
class Junk:
    """A message one of the seats sends, and the error code it must get."""

    sender: str  # "mover" or "other"
    frame: Callable[[Dealt], str | dict[str, Any]]  # raw text, or the fields of a message
    code: str


JUNK = {
    "not-json": Junk("other", lambda d: "{not json", "malformed"),
    "a-json-array": Junk("other", lambda d: "[1, 2, 3]", "malformed"),
    "no-version": Junk(
        "other", lambda d: json.dumps({"type": "act", "action": "x"}), "bad_version"
    ),
    "an-unknown-type": Junk("other", lambda d: {"type": "explode"}, "unknown_type"),
    # A one-megabyte frame: refused by its size.
    "a-megabyte-frame": Junk(
        "other",
        lambda d: json.dumps({"v": 1, "type": "chat", "text": "x" * 1_000_000}),
        "too_large",
    ),
    # Out of turn, with a move the mover could legally play.
    "a-legal-move-out-of-turn": Junk(
        "other", lambda d: {"type": "act", "action": d.legal[0]}, "not_your_turn"
    ),
    "nonsense-as-a-move": Junk(
        "mover", lambda d: {"type": "act", "action": "zz top"}, "illegal_move"
    ),
    "a-card-not-held-in-no-notation": Junk(
        "mover", lambda d: {"type": "act", "action": f"{d.foreign} b-t0"}, "illegal_move"
    ),
    "a-card-not-held": Junk(
        "mover", lambda d: {"type": "act", "action": f"{d.foreign} discard"}, "illegal_move"
    ),
    "a-move-from-an-older-position": Junk(
        "mover", lambda d: {"type": "act", "action": d.legal[0], "moves": 99}, "stale"
    ),
    "an-action-that-is-no-string": Junk(
        "mover", lambda d: {"type": "act", "action": 7}, "bad_field"
    ),
    "an-act-without-an-action": Junk("mover", lambda d: {"type": "act"}, "bad_field"),
    "a-move-for-another-table": Junk(
        "other",
        lambda d: {"type": "act", "action": d.legal[0], "table": "t000000000000"},
        "not_seated",
    ),
    "assign-at-a-public-table": Junk(
        "other", lambda d: {"type": "assign", "order": []}, "not_host"
    ),
    "sit-once-the-game-has-started": Junk(
        "other", lambda d: {"type": "sit", "seat": 0}, "wrong_phase"
    ),
}


async def refused(d: Dealt, junk: Junk) -> dict[str, Any]:
    """Send the junk from its seat; the error that answers it."""
    sender = d.mover if junk.sender == "mover" else d.other
    frame = junk.frame(d)
    if isinstance(frame, str):
        return await error_after_raw(sender, frame)
    return await error_for(sender, **frame)


@pytest.mark.parametrize("kind", list(JUNK))
def test_junk_is_answered_with_the_error_for_its_kind(server: Server, kind: str) -> None:
    async def scenario() -> None:
        d = await dealt(server)
        assert (await refused(d, JUNK[kind]))["code"] == JUNK[kind].code
        await close_all(*d.players)

    run(scenario())


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("nonsense-as-a-move", "not_an_action"),
        ("a-card-not-held-in-no-notation", "not_an_action"),
        ("a-card-not-held", "card_not_held"),
    ],
)
def test_an_illegal_move_is_told_its_reason(server: Server, kind: str, code: str) -> None:
    async def scenario() -> None:
        d = await dealt(server)
        error = await refused(d, JUNK[kind])
        params = {"card": d.foreign} if code == "card_not_held" else {}
        assert error["reason"] == {"code": code, "params": params}
        await close_all(*d.players)

    run(scenario())


def test_a_connection_stays_usable_after_a_frame_too_large(server: Server) -> None:
    async def scenario() -> None:
        d = await dealt(server)
        await refused(d, JUNK["a-megabyte-frame"])
        await still_open(d.other)
        await close_all(*d.players)

    run(scenario())


def test_an_error_echoes_the_id_of_the_message_it_answers(server: Server) -> None:
    async def scenario() -> None:
        d = await dealt(server)
        # A client's id is echoed so it can tell which message was refused.
        error = await error_for(d.mover, type="act", action="junk", id="m-17")
        assert error["id"] == "m-17"
        await close_all(*d.players)

    run(scenario())


def test_refused_junk_changes_nothing(server: Server) -> None:
    async def scenario() -> None:
        d = await dealt(server)
        seq = d.state["seq"]
        for junk in JUNK.values():
            await refused(d, junk)
        # The same sequence number, the same seat to move, and the mover's legal move is
        # still accepted.
        await d.mover.send(type="act", action=d.legal[0], moves=0)
        after = await d.mover.expect("table", lambda m: m["moves"] == 1)
        assert after["seq"] == seq + 1
        assert after["last"][-1]["action"] == d.legal[0]
        await close_all(*d.players)

    run(scenario())


# -- sessions -----------------------------------------------------------------------------


@dataclass
class Forged:
    owner: Player  # the player whose token was forged, at a table of its own
    forged: str  # the owner's token with its signature replaced


async def forged_token(server: Server) -> Forged:
    owner = Player(server, "owner")
    await owner.connect()
    await owner.send(type="create", game="jackaroo", seats=4)
    await owner.expect("table")
    session, _, mac = owner.token.partition(".")  # type: ignore[union-attr]
    return Forged(owner, f"{session}.{'0' * len(mac)}")


async def refused_hello(player: Player, token: str) -> dict[str, Any]:
    """Say hello with ``token``; the error the server answers with."""
    player.ws = await connect(player.server.ws_url)
    await player.ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
    while True:
        reply: dict[str, Any] = json.loads(await player.ws.recv())
        if reply["type"] != "ping":
            return reply


def test_a_forged_token_is_refused_and_authenticates_nobody(server: Server) -> None:
    async def scenario() -> None:
        forged = await forged_token(server)
        intruder = Player(server, "intruder")
        reply = await refused_hello(intruder, forged.forged)
        assert reply["type"] == "error" and reply["code"] == "bad_token"
        assert intruder.ws is not None
        await intruder.ws.send(json.dumps({"v": 1, "type": "leave"}))
        after = json.loads(await intruder.ws.recv())
        assert after["code"] == "not_authenticated"
        await intruder.ws.close()
        await close_all(forged.owner)

    run(scenario())


def test_a_token_of_an_unknown_player_or_session_is_refused(server: Server) -> None:
    async def scenario() -> None:
        owner = Player(server, "owner")
        await owner.connect()
        # Signed properly, but for a player that does not exist: tampering with the id
        # breaks the signature, so the server refuses it either way.
        session, _, mac = (owner.token or "").partition(".")
        # Another last character (never the same one: that would be the owner's token).
        other = "1" if session.endswith("0") else "0"
        for token in (f"p0000000000000000.{mac}", f"{session[:-1]}{other}.{mac}", "x" * 300):
            intruder = Player(server, "intruder")
            reply = await refused_hello(intruder, token)
            assert reply["code"] in ("bad_token", "bad_field")
            assert intruder.ws is not None
            await intruder.ws.close()
        await close_all(owner)

    run(scenario())


def test_after_a_refused_token_a_hello_without_one_is_a_new_guest_with_no_seat(
    server: Server,
) -> None:
    async def scenario() -> None:
        forged = await forged_token(server)
        intruder = Player(server, "intruder")
        await refused_hello(intruder, forged.forged)
        assert intruder.ws is not None
        await intruder.ws.close()
        fresh = Player(server, "intruder")
        welcome = await fresh.connect()
        assert welcome["player"]["id"] != forged.owner.player_id
        assert (await error_for(fresh, type="chat", text="hi"))["code"] == "not_seated"
        await close_all(forged.owner, fresh)

    run(scenario())


def test_the_real_token_brings_the_owner_back_to_the_seat(server: Server) -> None:
    async def scenario() -> None:
        forged = await forged_token(server)
        intruder = Player(server, "intruder")
        await refused_hello(intruder, forged.forged)
        assert intruder.ws is not None
        await intruder.ws.close()
        again = Player(server, "owner-again")
        welcome = await again.connect(token=forged.owner.token)
        assert welcome["player"]["id"] == forged.owner.player_id
        assert (await again.expect("table"))["you"] == 0
        await close_all(forged.owner, again)

    run(scenario())


def test_a_message_before_hello_is_not_authenticated(server: Server) -> None:
    async def scenario() -> None:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"v": 1, "type": "create", "game": "jackaroo"}))
            reply = json.loads(await ws.recv())
        assert reply["type"] == "error" and reply["code"] == "not_authenticated"

    run(scenario())


# -- bad creates --------------------------------------------------------------------------

BAD_CREATES = {
    "an-unknown-game": {"game": "chess"},
    "three-seats": {"game": "jackaroo", "seats": 3},
    "an-unknown-preset": {"game": "jackaroo", "options": {"preset": "nope"}},
    "a-target-buraco-has-not": {"game": "buraco", "options": {"target": 7}},
    "a-turn-time-too-short": {"game": "jackaroo", "turn_seconds": 0.1},
    "seats-as-a-string": {"game": "jackaroo", "seats": "4"},
}


@pytest.mark.parametrize("kind", list(BAD_CREATES))
def test_a_create_with_a_bad_field_is_refused(server: Server, kind: str) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        error = await error_for(player, type="create", **BAD_CREATES[kind])
        assert error["code"] == "bad_field", BAD_CREATES[kind]
        await player.close()

    run(scenario())


def test_refused_creates_make_no_table(server: Server) -> None:
    async def scenario() -> None:
        (player,) = await people(server, 1)
        for bad in BAD_CREATES.values():
            await error_for(player, type="create", **bad)
        assert listed_with(server, player.player_id) == []
        assert server.get("/api/me", player.token)["table"] is None
        await player.close()

    run(scenario())


# -- a flood ------------------------------------------------------------------------------


async def flood(server: Server) -> tuple[Player, Player]:
    """A flooder sends 2000 pings at once; a calm player is connected too."""
    flooder = Player(server, "flooder")
    await flooder.connect()
    calm = Player(server, "calm")
    await calm.connect()
    for _ in range(2000):
        await flooder.send(type="ping")
    return flooder, calm


def test_a_flood_is_answered_with_rate_limited(throttled: Server) -> None:
    async def scenario() -> None:
        flooder, calm = await flood(throttled)
        error = await flooder.expect("error", lambda m: m["code"] == "rate_limited")
        assert error["code"] == "rate_limited"
        await close_all(calm, flooder)

    run(scenario())


def test_a_socket_that_keeps_flooding_is_closed(throttled: Server) -> None:
    async def scenario() -> None:
        flooder, calm = await flood(throttled)
        # Reading the 2000 answers before the close is the slow part on a busy machine.
        closed = await flooder.expect("_closed", timeout=30)
        assert closed["type"] == "_closed"
        await close_all(calm, flooder)

    run(scenario())


def test_others_are_served_during_a_flood(throttled: Server) -> None:
    async def scenario() -> None:
        flooder, calm = await flood(throttled)
        await calm.send(type="ping", id=1)
        assert (await calm.expect("pong"))["id"] == 1
        assert throttled.get("/api/health")["ok"]
        await close_all(calm, flooder)

    run(scenario())
