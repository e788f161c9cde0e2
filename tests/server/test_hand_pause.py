"""After a Buraco hand the next one waits while the people read its summary.

A real server, a person (a scripted WebSocket client) and a bot at a two-seat
Buraco table. When the hand ends the seats are told when play resumes (a
``pause`` message); until then no bot plays and the next turn's clock does not
run; a pause under way when the server is killed starts again after the restart.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import close_all, hand_over, people, play, shared_server
from tests.server.harness import Player, Server, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

PAUSE = 2.0
#: A short clock, so that a person who does not play is played for soon after the pause.
SETTINGS = {"hand_pause_seconds": PAUSE, "turn_seconds": 2.0, "min_turn_seconds": 1.0}


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, **SETTINGS) as server:
        yield server


async def hand_against_a_bot(server: Server) -> tuple[Player, dict[str, Any]]:
    """A person plays a Buraco hand against a bot; the table message that ends it."""
    (player,) = await people(server, 1)
    await player.send(type="create", game="buraco", seats=2)
    await player.expect("table")
    await player.send(type="bots")
    await player.expect("seed_request")
    await player.send(type="seed", seed="seed-p0")
    return player, await play(player, hand_over, random.Random(5))


def sent(player: Player, kind: str) -> list[dict[str, Any]]:
    """Every message of ``kind`` the player has received so far."""
    messages = [json.loads(text) for text in player.received]
    return [m for m in messages if m["type"] == kind]


async def first_move_after(player: Player, moves: int) -> dict[str, Any]:
    """The first table message with a move after ``moves`` (the person plays nothing: a
    bot moves, or the clock runs out and the person is played for)."""
    return await player.expect("table", lambda m: m["moves"] > moves, timeout=60)


def test_the_next_hand_waits_for_the_summary(server: Server) -> None:
    async def scenario() -> None:
        player, ended = await hand_against_a_bot(server)
        assert ended["table"]["status"] == "playing", "the match ended with its first hand"
        (pause,) = sent(player, "pause")
        assert pause["table"] == ended["table"]["id"] and pause["seconds"] == PAUSE
        hand_end = ended["last"][-1]["at"]
        assert pause["resumes_at"] == pytest.approx(hand_end + PAUSE, abs=1.0)
        if ended["to_move"] == ended["you"]:
            # The person's clock starts when the pause ends, not when the hand ended.
            assert ended["deadline"] >= pause["resumes_at"] + ended["table"]["turn_seconds"] - 0.01
        nxt = await first_move_after(player, ended["moves"])
        # Nothing is played in the new hand before the pause is over (the pause's timer
        # runs on the monotonic clock, the stamps are wall-clock: a millisecond apart).
        assert nxt["last"][-1]["at"] >= pause["resumes_at"] - 0.005
        await close_all(player)

    run(scenario(), timeout=240)


def test_no_pause_when_the_setting_is_zero(tmp_path: Path, database_url: str) -> None:
    with running(tmp_path / "server", database_url, **{**SETTINGS, "hand_pause_seconds": 0}) as srv:

        async def scenario() -> None:
            player, ended = await hand_against_a_bot(srv)
            assert ended["table"]["status"] == "playing"
            nxt = await first_move_after(player, ended["moves"])
            assert sent(player, "pause") == [] and nxt["moves"] > ended["moves"]
            await close_all(player)

        run(scenario(), timeout=240)


def test_a_pause_under_way_at_a_crash_starts_again(tmp_path: Path, database_url: str) -> None:
    # A pause much longer than the clock: without it the new hand would have its first
    # move within a second or two of the restart, whoever is to move.
    long_pause = 5.0
    settings = {**SETTINGS, "hand_pause_seconds": long_pause, "turn_seconds": 1.0}
    server = Server(tmp_path / "server", database_url, grace_seconds=60.0, **settings)
    server.start()
    try:

        async def before() -> tuple[str | None, dict[str, Any]]:
            player, ended = await hand_against_a_bot(server)
            assert sent(player, "pause")
            server.kill()  # within the pause: the new hand has no move yet
            await close_all(player)
            return player.token, ended

        token, ended = run(before(), timeout=240)
        restarted = time.time()
        server.start()

        async def after() -> None:
            player = Player(server, "p0")
            await player.connect(token)
            nxt = await first_move_after(player, ended["moves"])
            # The pause began again at the restart (the reconnection came after it).
            assert nxt["last"][-1]["at"] >= restarted + long_pause
            # The player who came back during it was told when it ends, for the countdown.
            (pause,) = sent(player, "pause")
            assert pause["resumes_at"] >= restarted + long_pause - 0.5
            await close_all(player)

        run(after(), timeout=120)
    finally:
        server.stop()
