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
from pathlib import Path
from typing import Any

from tests.server.conftest import seat_four
from tests.server.harness import Player, Server, running

POISON = '{"v":1,"type":"chat","text":"hi \\ud800 all","id":"poison"}'


async def still_open(*players: Player) -> None:
    """Each socket answers a ping: it is open and its reader is alive."""
    for player in players:
        await player.send(type="ping", id="alive")
        await player.expect("pong", lambda m: m.get("id") == "alive", timeout=5)


async def error_after_raw(player: Player, data: str | bytes) -> dict[str, Any]:
    await player.send_raw(data)
    return await player.expect("error", timeout=5)


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


def test_a_lone_surrogate_in_chat_or_id_drops_nobody(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            players = await seat_four(server, "jackaroo")
            poisoner, *others = players
            error = await error_after_raw(poisoner, POISON)
            assert error["code"] == "malformed" and "surrogate" in error["message"]
            error = await error_after_raw(poisoner, '{"v":1,"type":"ping","id":"x\\udc00"}')
            assert error["code"] == "malformed"
            # A key, a name and a token carry the same refusal.
            for frame in (
                '{"v":1,"type":"chat","text":"hi","\\ud800":1}',
                '{"v":1,"type":"act","action":"\\udbff","moves":0}',
            ):
                assert (await error_after_raw(poisoner, frame))["code"] == "malformed"
            await asyncio.sleep(2)
            await still_open(*players)
            # A surrogate *pair* is one character (an emoji): accepted and delivered.
            await poisoner.send_raw('{"v":1,"type":"chat","text":"hi \\ud83d\\ude00"}')
            for player in players:
                line = await player.expect("chat", timeout=5)
                assert line["text"] == "hi \U0001f600"
            for player in players:
                await player.close()
            # Reconnecting works and the history holds no trace of the refused line.
            back = Player(server, "p1")
            await back.connect(token=others[0].token)
            history = await back.expect("chat_history")
            assert [m["text"] for m in history["messages"]] == ["hi \U0001f600"]
            await still_open(back)
            await back.close()

    asyncio_run(scenario())


def test_a_bad_line_stored_by_older_code_is_cleaned_at_restore(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = Server(tmp_path).start()
        try:
            players = await seat_four(server, "buraco")
            table_id = players[0].state["table"]["id"] if players[0].state else ""
            server.kill()
            # What the server wrote before input was cleaned: a lone surrogate, controls and
            # a direction override in stored chat lines, and one with nothing left in it.
            db = sqlite3.connect(tmp_path / "sahrat.db")
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
            back = []
            for old in players:
                player = Player(server, old.name)
                await player.connect(token=old.token)
                history = await player.expect("chat_history")
                assert [(m["name"], m["text"]) for m in history["messages"]] == [("p1", "hi all")]
                state = await player.expect("table")
                assert state["table"]["status"] == "playing"
                back.append(player)
            await asyncio.sleep(1.5)
            await still_open(*back)
            assert all(not s.get("bot") for s in back[0].state["seats"])  # type: ignore[index]
        finally:
            server.stop()

    asyncio_run(scenario())


def test_deep_json_is_malformed_and_the_socket_stays(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            player = Player(server)
            await player.connect()
            frames = [
                "[" * 5000 + "]" * 5000,
                '{"a":' * 2500 + "1" + "}" * 2500,
                '{"v":1,"type":"create","game":"jackaroo","options":'
                + "[" * 3000
                + "]" * 3000
                + "}",
                # Brackets inside strings do not count; an unterminated string is still bad.
                '{"v":1,"type":"ping","id":"' + "[" * 40 + '"' + "}" * 40,
            ]
            for frame in frames:
                error = await error_after_raw(player, frame)
                assert error["code"] == "malformed", error
            # Brackets inside a string are text, not nesting.
            await player.send_raw('{"v":1,"type":"ping","id":"' + "[{" * 30 + '"}')
            assert (await player.expect("pong"))["id"] == "[{" * 30
            await still_open(player)
            await player.close()

    asyncio_run(scenario())


def test_envelopes_are_exact(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            player = Player(server)
            await player.connect()
            cases = {
                '{"v":true,"type":"ping"}': "bad_version",
                '{"v":1.0,"type":"ping"}': "bad_version",
                '{"v":"1","type":"ping"}': "bad_version",
                '{"v":1,"type":"ping","x":NaN}': "malformed",
                '{"v":1,"type":"ping","x":Infinity}': "malformed",
                '{"v":1,"type":"ping","x":1e999}': "malformed",
                '{"v":1,"type":"ping","type":"chat"}': "malformed",
                '{"v":1,"type":"ping","id":true}': "bad_field",
            }
            for frame, code in cases.items():
                error = await error_after_raw(player, frame)
                assert error["code"] == code, (frame, error)
            valid = '{"v":1,"type":"ping","id":"b"}'
            for encoded in (valid.encode("utf-16"), valid.encode("utf-16-le"), b"\xff\xfe{}"):
                assert (await error_after_raw(player, encoded))["code"] == "malformed"
            assert (await error_after_raw(player, b"\xef\xbb\xbf" + valid.encode()))[
                "code"
            ] == "malformed"  # no byte-order mark either
            # UTF-8 bytes are the protocol's text: a binary frame in UTF-8 is answered.
            await player.send_raw(valid.encode())
            assert (await player.expect("pong"))["id"] == "b"
            await still_open(player)
            await player.close()

    asyncio_run(scenario())


def test_chat_and_names_lose_control_and_direction_characters(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            players = await seat_four(server, "jackaroo")
            sender = players[0]
            lines = {
                "a\x00b\x07c\x1b[31m": "abc[31m",
                "\u202eخالد 100\u202c": "خالد 100",
                "\u2066x\u2069 \u200by\u200e\u200f\u061c": "x y",
                # The joiners Arabic-script names and emoji need are kept.
                "می\u200cخواهم": "می\u200cخواهم",
                "\U0001f469\u200d\U0001f4bb": "\U0001f469\u200d\U0001f4bb",
                # NFC: e + combining acute is é; dozens of marks are cut to four.
                "cafe\u0301 " + "x" + "\u0301" * 30: "café x" + "\u0301" * 4,
                "مَرْحَبًا   بِكُمْ\n\tall": "مَرْحَبًا بِكُمْ all",
            }
            for text, shown in lines.items():
                await sender.send(type="chat", text=text)
                for player in players:
                    line = await player.expect("chat", timeout=5)
                    assert line["text"] == shown, (text, line)
            await sender.send(type="chat", text="\u202e\u200b\x00\x07 ", id="empty")
            error = await sender.expect("error")
            assert error["code"] == "bad_field" and error["id"] == "empty"
            await still_open(*players)
            for player in players:
                await player.close()
            named = Player(server, "\u202eevil\u200b\x00 name\u2066")
            welcome = await named.connect()
            assert welcome["player"]["name"] == "evil name"
            await named.close()

    asyncio_run(scenario())


def test_rest_bodies_are_bounded_and_decoded(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        status, _, body = post(server, "/api/guest", b"[" * 100_000 + b"]" * 100_000)
        assert status == 413  # 200 KB: larger than any body the API takes
        status, _, body = post(server, "/api/guest", b'{"name":' * 2000 + b"1" + b"}" * 2000)
        assert status == 400 and b"nested" in body
        for bad in (b'{"name":"\\ud800"}', b"\xff\xfe{}", b'{"name":NaN}', b"{"):
            status, _, body = post(server, "/api/guest", bad)
            assert status == 400, (bad, status, body)
        status, _, body = post(server, "/api/guest", b"[1]")
        assert status == 422
        status, _, body = post(server, "/api/guest", '{"name":"\u202eعلي\\u0000"}'.encode())
        assert status == 200 and json.loads(body)["player"]["name"] == "علي"
        # A 32 MB body is refused from its declared length, before it is read.
        status, took = _raw_post(server, {"Content-Length": str(32 << 20)}, b"{" * 1024)
        assert status == 413 and took < 5
        # Without a declared length the stream is cut once it passes the limit.
        chunk = b"x" * 16384
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(64))
        status, took = _raw_post(server, {"Transfer-Encoding": "chunked"}, chunked)
        assert status == 413
        assert server.get("/api/health")["ok"]


def _raw_post(server: Server, headers: dict[str, str], body: bytes) -> tuple[int, float]:
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


def test_new_guests_and_tables_are_limited_per_address(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = {"guests_burst": 3, "guests_every": 60.0, "tables_burst": 2, "tables_every": 60.0}
        with running(tmp_path, **limits) as server:
            status, _, _ = post(server, "/api/guest", b"")
            assert status == 200
            first = Player(server)
            await first.connect()
            second = Player(server)
            await second.connect()
            # The fourth new guest from this address waits; REST says so with Retry-After.
            status, headers, _ = post(server, "/api/guest", b"")
            assert status == 429 and 1 <= int(headers["retry-after"]) <= 60
            third = Player(server)
            third.ws = await _connect(server)
            third._reader = asyncio.create_task(third._read())
            await third.send(type="hello", id="h")
            error = await third.expect("error")
            assert error["code"] == "too_many" and error["id"] == "h"
            # Known players are not new guests: a reconnect with a token always works.
            again = Player(server)
            await again.connect(token=first.token)
            for game in ("jackaroo", "buraco"):
                player = first if game == "jackaroo" else second
                await player.send(type="create", game=game, seats=4)
                await player.expect("table")
            await again.send(type="leave")
            await again.expect("left", timeout=5)
            await again.send(type="create", game="jackaroo", seats=4, id="c")
            error = await again.expect("error")
            assert error["code"] == "too_many" and error["id"] == "c"
            await still_open(first, second, third, again)
            for player in (first, second, third, again):
                await player.close()

    asyncio_run(scenario())


async def _connect(server: Server) -> Any:
    from websockets.asyncio.client import connect

    return await connect(server.ws_url)


def asyncio_run(coroutine: Any) -> None:
    from tests.server.harness import run

    run(coroutine)


def test_actions_are_taken_only_in_their_exact_notation(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            for game in ("jackaroo", "buraco"):
                players = await seat_four(server, game)
                state = players[0].state
                assert state is not None
                mover = next(p for p in players if p.state and p.state["you"] == state["to_move"])
                assert mover.state is not None
                action = mover.state["legal"][0]
                spellings = {" " + action, action + " ", action + "\n", action.replace(" ", "  ")}
                spellings |= {action.upper(), action.lower(), action.swapcase()}
                spellings.discard(action)
                for spelling in sorted(spellings):
                    await mover.send(type="act", action=spelling, moves=0, id="x")
                    error = await mover.expect("error")
                    assert error["code"] == "illegal_move", (game, spelling, error)
                await mover.send(type="act", action=action, moves=0)
                for player in players:
                    await player.expect("table", lambda m: m["moves"] == 1, timeout=5)
                for player in players:
                    await player.send(type="leave")
                    await player.close()

    asyncio_run(scenario())
