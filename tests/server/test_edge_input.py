"""Hostile input at the edge: every frame and body is refused cleanly or cleaned, never
able to close another player's socket, fail the server or lock a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.server.conftest import close_all, seat_four, shared_server, to_move
from tests.server.harness import (
    Player,
    Server,
    all_open,
    error_after_raw,
    run,
    running,
    still_open,
)

POISON = '{"v":1,"type":"chat","text":"hi \\ud800 all","id":"poison"}'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory) as server:
        yield server


def post(server: Server, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        server.url + path, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def raw_post(server: Server, headers: dict[str, str], body: bytes) -> tuple[int, float]:
    """POST /api/guest over a bare socket: (the status, the seconds the answer took)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        conn.sendall(
            f"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\n{head}\r\n".encode()
        )
        with contextlib.suppress(OSError):  # the server may answer before the body is sent
            conn.sendall(body)
        reply = b""
        while b"\r\n" not in reply:
            data = conn.recv(4096)
            if not data:
                break
            reply += data
    return int(reply.split(b" ", 2)[1]), time.monotonic() - started


async def one_player(server: Server) -> Player:
    player = Player(server)
    await player.connect()
    return player


# -- lone surrogates ----------------------------------------------------------------------

#: Frames with a lone surrogate elsewhere than in chat text: an id, a key, an action.
SURROGATES_ELSEWHERE = {
    "an-id": '{"v":1,"type":"ping","id":"x\\udc00"}',
    "a-key": '{"v":1,"type":"chat","text":"hi","\\ud800":1}',
    "an-action": '{"v":1,"type":"act","action":"\\udbff","moves":0}',
}

PAIR = '{"v":1,"type":"chat","text":"hi \\ud83d\\ude00"}'


def test_a_lone_surrogate_in_chat_is_malformed_and_said_to_be(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        error = await error_after_raw(players[0], POISON)
        assert error["code"] == "malformed" and "surrogate" in error["message"]
        await close_all(*players)

    run(scenario())


@pytest.mark.parametrize("where", list(SURROGATES_ELSEWHERE))
def test_a_lone_surrogate_anywhere_in_a_frame_is_malformed(server: Server, where: str) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        error = await error_after_raw(players[0], SURROGATES_ELSEWHERE[where])
        assert error["code"] == "malformed"
        await close_all(*players)

    run(scenario())


def test_a_lone_surrogate_drops_nobody(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        for frame in (POISON, *SURROGATES_ELSEWHERE.values()):
            await error_after_raw(players[0], frame)
        await asyncio.sleep(2)
        await still_open(*players)
        await close_all(*players)

    run(scenario())


def test_a_surrogate_pair_is_one_character_and_is_delivered(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        await players[0].send_raw(PAIR)
        for player in players:
            line = await player.expect("chat", timeout=5)
            assert line["text"] == "hi \U0001f600"
        await close_all(*players)

    run(scenario())


def test_a_line_refused_for_a_surrogate_leaves_no_trace_in_the_history(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        await error_after_raw(players[0], POISON)
        await players[0].send_raw(PAIR)
        for player in players:
            await player.expect("chat", timeout=5)
        await close_all(*players)
        # Reconnecting works and the history holds no trace of the refused line.
        back = Player(server, "p1")
        await back.connect(token=players[1].token)
        history = await back.expect("chat_history")
        assert [m["text"] for m in history["messages"]] == ["hi \U0001f600"]
        await still_open(back)
        await back.close()

    run(scenario())


@dataclass
class Restored:
    histories: list[list[tuple[str, str]]]  # each seat's chat history, (name, text)
    states: list[dict[str, Any]]  # the table each seat is sent on its return
    seats: list[dict[str, Any]]  # the seats 1.5 s later
    alive: bool  # every socket still answered then


@pytest.fixture(scope="module")
def restored(tmp_path_factory: pytest.TempPathFactory) -> Restored:
    """A Buraco table whose stored chat holds lines written before input was cleaned: the
    server is killed, the lines put in its database, and it starts again."""

    async def scenario(server: Server) -> Restored:
        players = await seat_four(server, "buraco")
        table_id = players[0].state["table"]["id"] if players[0].state else ""
        server.kill()
        # What the server wrote before input was cleaned: a lone surrogate, controls and
        # a direction override in stored chat lines, and one with nothing left in it.
        db = sqlite3.connect(server.data_dir / "sahrat.db")
        (seq,) = db.execute(
            "SELECT max(seq) FROM events WHERE table_id = ?", (table_id,)
        ).fetchone()
        for offset, text in enumerate(["hi \ud800 all\x07", "\u202e\u200b\x00"]):
            line = {"channel": "table", "seat": 1, "name": "p1\u202e", "text": text}
            data = json.dumps({**line, "to": [0, 1, 2, 3], "at": time.time()})
            db.execute(
                "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, seq + 1 + offset, "chat", data, time.time()),
            )
        db.commit()
        db.close()
        server.start()
        back, histories, states = [], [], []
        for old in players:
            player = Player(server, old.name)
            await player.connect(token=old.token)
            history = await player.expect("chat_history")
            histories.append([(m["name"], m["text"]) for m in history["messages"]])
            states.append(await player.expect("table"))
            back.append(player)
        await asyncio.sleep(1.5)
        alive = await all_open(*back)
        seats = back[0].state["seats"]  # type: ignore[index]
        await close_all(*back)
        return Restored(histories, states, seats, alive)

    server = Server(tmp_path_factory.mktemp("restored")).start()
    try:
        return run(scenario(server))  # type: ignore[no-any-return]
    finally:
        server.stop()


def test_chat_stored_by_older_code_is_cleaned_at_restore(restored: Restored) -> None:
    for history in restored.histories:
        assert history == [("p1", "hi all")]


def test_a_table_with_such_chat_is_restored_playing(restored: Restored) -> None:
    for state in restored.states:
        assert state["table"]["status"] == "playing"


def test_such_chat_closes_no_socket_after_the_restore(restored: Restored) -> None:
    assert restored.alive


def test_every_seat_keeps_its_person_after_such_a_restore(restored: Restored) -> None:
    assert all(not s.get("bot") for s in restored.seats)


# -- deep JSON ----------------------------------------------------------------------------

DEEP = {
    "arrays": "[" * 5000 + "]" * 5000,
    "objects": '{"a":' * 2500 + "1" + "}" * 2500,
    "options": '{"v":1,"type":"create","game":"jackaroo","options":'
    + "[" * 3000
    + "]" * 3000
    + "}",
}

#: Brackets inside strings do not count; an unterminated string is still bad.
UNTERMINATED = '{"v":1,"type":"ping","id":"' + "[" * 40 + '"' + "}" * 40


@pytest.mark.parametrize("nested", list(DEEP))
def test_json_nested_too_deep_is_malformed(server: Server, nested: str) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        error = await error_after_raw(player, DEEP[nested])
        assert error["code"] == "malformed", error
        await player.close()

    run(scenario())


def test_an_unterminated_string_of_brackets_is_malformed(server: Server) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        error = await error_after_raw(player, UNTERMINATED)
        assert error["code"] == "malformed", error
        await player.close()

    run(scenario())


def test_brackets_inside_a_string_are_text_not_nesting(server: Server) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        await player.send_raw('{"v":1,"type":"ping","id":"' + "[{" * 30 + '"}')
        assert (await player.expect("pong"))["id"] == "[{" * 30
        await player.close()

    run(scenario())


def test_deep_json_leaves_the_socket_open(server: Server) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        for frame in (*DEEP.values(), UNTERMINATED):
            await error_after_raw(player, frame)
        await still_open(player)
        await player.close()

    run(scenario())


# -- envelopes ----------------------------------------------------------------------------

ENVELOPES = {
    "version-true": ('{"v":true,"type":"ping"}', "bad_version"),
    "version-1.0": ('{"v":1.0,"type":"ping"}', "bad_version"),
    "version-string": ('{"v":"1","type":"ping"}', "bad_version"),
    "nan": ('{"v":1,"type":"ping","x":NaN}', "malformed"),
    "infinity": ('{"v":1,"type":"ping","x":Infinity}', "malformed"),
    "out-of-float-range": ('{"v":1,"type":"ping","x":1e999}', "malformed"),
    "a-repeated-key": ('{"v":1,"type":"ping","type":"chat"}', "malformed"),
    "a-boolean-id": ('{"v":1,"type":"ping","id":true}', "bad_field"),
}

VALID = '{"v":1,"type":"ping","id":"b"}'

NOT_UTF8 = {
    "utf-16": VALID.encode("utf-16"),
    "utf-16-le": VALID.encode("utf-16-le"),
    "invalid-bytes": b"\xff\xfe{}",
}


@pytest.mark.parametrize("envelope", list(ENVELOPES))
def test_an_inexact_envelope_is_refused(server: Server, envelope: str) -> None:
    async def scenario() -> None:
        frame, code = ENVELOPES[envelope]
        player = await one_player(server)
        error = await error_after_raw(player, frame)
        assert error["code"] == code, (frame, error)
        await player.close()

    run(scenario())


@pytest.mark.parametrize("encoding", list(NOT_UTF8))
def test_a_binary_frame_not_in_utf8_is_malformed(server: Server, encoding: str) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        assert (await error_after_raw(player, NOT_UTF8[encoding]))["code"] == "malformed"
        await player.close()

    run(scenario())


def test_a_binary_frame_with_a_byte_order_mark_is_malformed(server: Server) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        error = await error_after_raw(player, b"\xef\xbb\xbf" + VALID.encode())
        assert error["code"] == "malformed"
        await player.close()

    run(scenario())


def test_a_binary_frame_in_utf8_is_answered(server: Server) -> None:
    async def scenario() -> None:
        # UTF-8 bytes are the protocol's text.
        player = await one_player(server)
        await player.send_raw(VALID.encode())
        assert (await player.expect("pong"))["id"] == "b"
        await player.close()

    run(scenario())


def test_inexact_envelopes_leave_the_socket_open(server: Server) -> None:
    async def scenario() -> None:
        player = await one_player(server)
        frames = [frame for frame, _ in ENVELOPES.values()]
        for frame in (*frames, *NOT_UTF8.values(), b"\xef\xbb\xbf" + VALID.encode()):
            await error_after_raw(player, frame)
        await still_open(player)
        await player.close()

    run(scenario())


# -- chat and names are cleaned -----------------------------------------------------------

#: What is sent → what everyone is shown.
CLEANED = {
    "controls": ("a\x00b\x07c\x1b[31m", "abc[31m"),
    "a-direction-override": ("\u202eخالد 100\u202c", "خالد 100"),
    "isolates-and-marks": ("\u2066x\u2069 \u200by\u200e\u200f\u061c", "x y"),
    # The joiners Arabic-script names and emoji need are kept.
    "a-zero-width-non-joiner": ("می\u200cخواهم", "می\u200cخواهم"),
    "a-zero-width-joiner": ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),
    # NFC: e + combining acute is é; dozens of marks are cut to four.
    "combining-marks": ("cafe\u0301 " + "x" + "\u0301" * 30, "café x" + "\u0301" * 4),
    "whitespace": ("مَرْحَبًا   بِكُمْ\n\tall", "مَرْحَبًا بِكُمْ all"),
}

EMPTY_ONCE_CLEANED = "\u202e\u200b\x00\x07 "


@pytest.mark.parametrize("text", list(CLEANED))
def test_a_chat_line_is_cleaned_before_anyone_is_shown_it(server: Server, text: str) -> None:
    async def scenario() -> None:
        sent, shown = CLEANED[text]
        players = await seat_four(server, "jackaroo")
        await players[0].send(type="chat", text=sent)
        for player in players:
            line = await player.expect("chat", timeout=5)
            assert line["text"] == shown, (sent, line)
        await close_all(*players)

    run(scenario())


def test_a_chat_line_with_nothing_left_once_cleaned_is_refused(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        await players[0].send(type="chat", text=EMPTY_ONCE_CLEANED, id="empty")
        error = await players[0].expect("error")
        assert error["code"] == "bad_field" and error["id"] == "empty"
        await close_all(*players)

    run(scenario())


def test_cleaned_chat_leaves_every_socket_open(server: Server) -> None:
    async def scenario() -> None:
        players = await seat_four(server, "jackaroo")
        for sent, _ in CLEANED.values():
            await players[0].send(type="chat", text=sent)
            for player in players:
                await player.expect("chat", timeout=5)
        await players[0].send(type="chat", text=EMPTY_ONCE_CLEANED, id="empty")
        await players[0].expect("error")
        await still_open(*players)
        await close_all(*players)

    run(scenario())


def test_a_name_loses_control_and_direction_characters(server: Server) -> None:
    async def scenario() -> None:
        named = Player(server, "\u202eevil\u200b\x00 name\u2066")
        welcome = await named.connect()
        assert welcome["player"]["name"] == "evil name"
        await named.close()

    run(scenario())


# -- REST bodies --------------------------------------------------------------------------

#: Bodies that are not clean JSON.
UNCLEAN = {
    "a-lone-surrogate": b'{"name":"\\ud800"}',
    "not-utf8": b"\xff\xfe{}",
    "nan": b'{"name":NaN}',
    "cut-short": b"{",
}

LARGE = b"[" * 100_000 + b"]" * 100_000  # 200 KB: larger than any body the API takes
NESTED = b'{"name":' * 2000 + b"1" + b"}" * 2000
CHUNK = b"x" * 16384
CHUNKED = b"".join(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK) for _ in range(64))


def test_a_body_over_the_limit_is_refused_with_413(server: Server) -> None:
    status, _, _ = post(server, "/api/guest", LARGE)
    assert status == 413


def test_a_body_nested_too_deep_is_refused_with_400_saying_so(server: Server) -> None:
    status, _, body = post(server, "/api/guest", NESTED)
    assert status == 400 and b"nested" in body


@pytest.mark.parametrize("body", list(UNCLEAN))
def test_a_body_that_is_not_clean_json_is_refused_with_400(server: Server, body: str) -> None:
    status, _, answer = post(server, "/api/guest", UNCLEAN[body])
    assert status == 400, (UNCLEAN[body], status, answer)


def test_a_body_of_the_wrong_shape_is_refused_with_422(server: Server) -> None:
    status, _, _ = post(server, "/api/guest", b"[1]")
    assert status == 422


def test_a_name_in_a_body_is_cleaned(server: Server) -> None:
    status, _, body = post(server, "/api/guest", '{"name":"\u202eعلي\\u0000"}'.encode())
    assert status == 200 and json.loads(body)["player"]["name"] == "علي"


def test_a_body_declared_too_large_is_refused_before_it_is_read(server: Server) -> None:
    # 32 MB, by its declared length.
    status, took = raw_post(server, {"Content-Length": str(32 << 20)}, b"{" * 1024)
    assert status == 413 and took < 5


def test_a_chunked_body_is_cut_once_it_passes_the_limit(server: Server) -> None:
    # Without a declared length the stream is cut once it passes the limit.
    status, _ = raw_post(server, {"Transfer-Encoding": "chunked"}, CHUNKED)
    assert status == 413


def test_the_server_stays_up_after_bad_bodies(server: Server) -> None:
    for body in (LARGE, NESTED, *UNCLEAN.values(), b"[1]"):
        post(server, "/api/guest", body)
    raw_post(server, {"Content-Length": str(32 << 20)}, b"{" * 1024)
    raw_post(server, {"Transfer-Encoding": "chunked"}, CHUNKED)
    assert server.get("/api/health")["ok"]


# -- new guests and tables per address ----------------------------------------------------


@dataclass
class Limited:
    rest: tuple[int, dict[str, str]]  # the status and headers of the REST guest past the limit
    hello: dict[str, Any]  # the error that answers a hello past the limit
    known: tuple[str, str]  # (the player a token named, the player its hello brought back)
    create: dict[str, Any]  # the error that answers a create past the table limit
    alive: bool  # every socket still answered at the end


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Limited:
    """A server allowing 3 new guests and 2 new tables per address: a guest by REST and two
    by hello, then one more of each; a known player's hello; three new tables."""

    async def scenario(server: Server) -> Limited:
        status, _, _ = post(server, "/api/guest", b"")
        assert status == 200
        first = await one_player(server)
        second = await one_player(server)
        # The fourth new guest from this address waits.
        status, headers, _ = post(server, "/api/guest", b"")
        third = Player(server)
        third.ws = await connect(server.ws_url)
        third._reader = asyncio.create_task(third._read())
        await third.send(type="hello", id="h")
        hello = await third.expect("error")
        # Known players are not new guests: a reconnect with a token.
        again = Player(server)
        await again.connect(token=first.token)
        for player, game in ((first, "jackaroo"), (second, "buraco")):
            await player.send(type="create", game=game, seats=4)
            await player.expect("table")
        await again.send(type="leave")
        await again.expect("left", timeout=5)
        await again.send(type="create", game="jackaroo", seats=4, id="c")
        create = await again.expect("error")
        alive = await all_open(first, second, third, again)
        await close_all(first, second, third, again)
        return Limited((status, headers), hello, (first.player_id, again.player_id), create, alive)

    limits = {"guests_burst": 3, "guests_every": 60.0, "tables_burst": 2, "tables_every": 60.0}
    with running(tmp_path_factory.mktemp("limited"), **limits) as server:
        return run(scenario(server))  # type: ignore[no-any-return]


def test_rest_refuses_a_guest_past_the_limit_with_429_and_retry_after(limited: Limited) -> None:
    status, headers = limited.rest
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 60


def test_hello_refuses_a_new_guest_past_the_limit(limited: Limited) -> None:
    assert limited.hello["code"] == "too_many" and limited.hello["id"] == "h"


def test_a_hello_with_a_known_token_is_never_limited(limited: Limited) -> None:
    named, brought_back = limited.known
    assert brought_back == named


def test_a_new_table_past_the_limit_is_refused(limited: Limited) -> None:
    assert limited.create["code"] == "too_many" and limited.create["id"] == "c"


def test_the_limits_close_no_socket(limited: Limited) -> None:
    assert limited.alive


# -- the exact notation of actions --------------------------------------------------------

RESPELLINGS: dict[str, Callable[[str], str]] = {
    "leading-space": lambda action: " " + action,
    "trailing-space": lambda action: action + " ",
    "trailing-newline": lambda action: action + "\n",
    "doubled-spaces": lambda action: action.replace(" ", "  "),
    "upper-case": str.upper,
    "lower-case": str.lower,
    "swapped-case": str.swapcase,
}

#: Buraco's first actions (draw, take) are single lower-case words: no spaces to double,
#: nothing to put in lower case.
BURACO_RESPELLINGS = ["leading-space", "trailing-space", "trailing-newline", "upper-case",
                      "swapped-case"]  # fmt: skip


@pytest.mark.parametrize(
    ("game", "respelling"),
    [("jackaroo", r) for r in RESPELLINGS] + [("buraco", r) for r in BURACO_RESPELLINGS],
)
def test_an_action_in_another_spelling_is_an_illegal_move(
    server: Server, game: str, respelling: str
) -> None:
    async def scenario() -> None:
        players = await seat_four(server, game)
        mover = to_move(players)
        assert mover.state is not None
        respell = RESPELLINGS[respelling]
        action = next(a for a in mover.state["legal"] if respell(a) != a)
        await mover.send(type="act", action=respell(action), moves=0, id="x")
        error = await mover.expect("error")
        assert error["code"] == "illegal_move", (game, respell(action), error)
        assert error["reason"]["code"] == "not_an_action"
        for player in players:
            await player.send(type="leave")
        await close_all(*players)

    run(scenario())


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_the_exact_notation_is_taken_after_other_spellings_were_refused(
    server: Server, game: str
) -> None:
    async def scenario() -> None:
        players = await seat_four(server, game)
        mover = to_move(players)
        assert mover.state is not None
        action = mover.state["legal"][0]
        spellings = {respell(action) for respell in RESPELLINGS.values()} - {action}
        for spelling in sorted(spellings):
            await mover.send(type="act", action=spelling, moves=0, id="x")
            await mover.expect("error")
        await mover.send(type="act", action=action, moves=0)
        for player in players:
            await player.expect("table", lambda m: m["moves"] == 1, timeout=5)
        for player in players:
            await player.send(type="leave")
        await close_all(*players)

    run(scenario())
