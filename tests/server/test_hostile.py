"""Bad and hostile input: each gets an error for its sender, nothing changes, the server lives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import seat_four
from tests.server.harness import Player, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("database_url")


async def error_for(player: Player, **message: Any) -> dict[str, Any]:
    await player.send(**message)
    return await player.expect("error")


def test_junk_is_answered_with_errors_and_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, max_message_bytes=16384) as server:
            players = await seat_four(server, "jackaroo")
            before = [p.state for p in players]
            seq = before[0]["seq"]  # type: ignore[index]
            to_move = before[0]["to_move"]  # type: ignore[index]
            mover = next(p for p in players if p.state["you"] == to_move)  # type: ignore[index]
            other = next(p for p in players if p is not mover)

            await other.send_raw("{not json")
            assert (await other.expect("error"))["code"] == "malformed"
            await other.send_raw("[1, 2, 3]")
            assert (await other.expect("error"))["code"] == "malformed"
            await other.send_raw(json.dumps({"type": "act", "action": "x"}))
            assert (await other.expect("error"))["code"] == "bad_version"
            assert (await error_for(other, type="explode"))["code"] == "unknown_type"
            # A one-megabyte frame: refused by size, the connection stays usable.
            await other.send_raw(json.dumps({"v": 1, "type": "chat", "text": "x" * 1_000_000}))
            assert (await other.expect("error"))["code"] == "too_large"
            # Out of turn, with a move the mover could legally play.
            legal = mover.state["legal"]  # type: ignore[index]
            error = await error_for(other, type="act", action=legal[0])
            assert error["code"] == "not_your_turn"
            # The mover: nonsense, an illegal move, a stale position, wrong field types.
            assert (await error_for(mover, type="act", action="zz top"))["code"] == "illegal_move"
            hand = mover.state["view"]["hands"][str(to_move)]  # type: ignore[index]
            foreign = next(c for c in ("AS", "KH", "5D", "7C", "QS", "2H") if c not in hand)
            error = await error_for(mover, type="act", action=f"{foreign} b-t0")
            assert error["code"] == "illegal_move"
            error = await error_for(mover, type="act", action=legal[0], moves=99)
            assert error["code"] == "stale"
            assert (await error_for(mover, type="act", action=7))["code"] == "bad_field"
            assert (await error_for(mover, type="act"))["code"] == "bad_field"
            # A client's id is echoed so it can tell which message was refused.
            error = await error_for(mover, type="act", action="junk", id="m-17")
            assert error["id"] == "m-17"
            # Messages for another table, and host-only messages at a public table.
            error = await error_for(other, type="act", action=legal[0], table="t000000000000")
            assert error["code"] == "not_seated"
            assert (await error_for(other, type="assign", order=[]))["code"] == "not_host"
            assert (await error_for(other, type="sit", seat=0))["code"] == "wrong_phase"

            # Nothing changed: the same sequence number, the same seat to move, and the
            # mover's legal move is still accepted.
            await mover.send(type="act", action=legal[0], moves=0)
            after = await mover.expect("table", lambda m: m["moves"] == 1)
            assert after["seq"] == seq + 1
            assert after["last"][-1]["action"] == legal[0]
            for player in players:
                await player.close()

    run(scenario())


def test_a_forged_token_does_not_get_a_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            owner = Player(server, "owner")
            await owner.connect()
            await owner.send(type="create", game="jackaroo", seats=4)
            await owner.expect("table")
            player_id, _, mac = owner.token.partition(".")  # type: ignore[union-attr]
            forged = f"{player_id}.{'0' * len(mac)}"
            intruder = Player(server, "intruder")
            welcome = await intruder.connect(token=forged)
            assert welcome["player"]["id"] != player_id  # a new guest, not the owner
            assert (await error_for(intruder, type="chat", text="hi"))["code"] == "not_seated"
            assert (await error_for(intruder, type="leave"))["code"] == "not_seated"
            # The real token brings the owner back to the seat.
            again = Player(server, "owner-again")
            welcome = await again.connect(token=owner.token)
            assert welcome["player"]["id"] == player_id
            state = await again.expect("table")
            assert state["you"] == 0
            for player in (owner, intruder, again):
                await player.close()

    run(scenario())


def test_messages_before_hello_and_bad_creates(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            from websockets.asyncio.client import connect

            async with connect(server.ws_url) as ws:
                await ws.send(json.dumps({"v": 1, "type": "create", "game": "jackaroo"}))
                reply = json.loads(await ws.recv())
                assert reply["type"] == "error" and reply["code"] == "not_authenticated"
            player = Player(server)
            await player.connect()
            for bad in (
                {"game": "chess"},
                {"game": "jackaroo", "seats": 3},
                {"game": "jackaroo", "options": {"preset": "nope"}},
                {"game": "buraco", "options": {"target": 7}},
                {"game": "jackaroo", "turn_seconds": 0.1},
                {"game": "jackaroo", "seats": "4"},
            ):
                error = await error_for(player, type="create", **bad)
                assert error["code"] == "bad_field", bad
            assert server.get("/api/tables")["tables"] == []
            await player.close()

    run(scenario())


def test_a_flood_is_throttled_and_the_server_stays_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, messages_per_second=20.0, message_burst=40) as server:
            flooder = Player(server, "flooder")
            await flooder.connect()
            calm = Player(server, "calm")
            await calm.connect()
            for _ in range(2000):
                await flooder.send(type="ping")
            # The flood was refused (rate_limited) and then cut off.
            refused = await flooder.expect("error", lambda m: m["code"] == "rate_limited")
            assert refused["code"] == "rate_limited"
            await flooder.expect("_closed", timeout=10)
            # Everyone else is served as usual.
            await calm.send(type="ping", id=1)
            assert (await calm.expect("pong"))["id"] == 1
            assert server.get("/api/health")["ok"]
            await calm.close()
            await flooder.close()

    run(scenario())
