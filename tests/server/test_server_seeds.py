"""Seeds the server fills in are derived from the commitment (fairness.md §1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from sahrat.fairness import derived_seed
from tests.server.conftest import close_all, people, shared_server
from tests.server.harness import Server, error_for, run


@dataclass
class Seeded:
    posing: dict[str, Any]  # the error that answers a seed posing as a derived one
    committed: str  # the commitment of the seed requests
    state: dict[str, Any]  # the table once playing


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    """Three people and a bot at a table: p0 sends a seed, p1 never does, p2's connection
    drops and a bot takes the seat before the seeds' deadline (its seed was not sent
    either)."""

    async def scenario(server: Server) -> Seeded:
        players = await people(server, 3)
        await players[0].send(type="create", game="jackaroo", seats=4)
        table_id = (await players[0].expect("table"))["table"]["id"]
        for player in players[1:]:
            await player.send(type="join", table=table_id)
            await player.expect("table")
        await players[0].send(type="bots")  # the fourth seat is a bot
        requests = [await p.expect("seed_request") for p in players]
        # A seed of one's own may not pose as a derived one.
        posing = await error_for(players[0], type="seed", seed="bot-" + "0" * 32, id="s")
        await players[0].send(type="seed", seed="mine")
        await players[2].close()
        state = await players[0].expect(
            "table", lambda m: m["table"]["status"] == "playing", timeout=10
        )
        await close_all(*players[:2])
        return Seeded(posing, requests[0]["commitment"], state)

    settings = {"seed_seconds": 2.0, "grace_seconds": 0.3}
    with shared_server(tmp_path_factory, **settings) as server:
        return run(scenario(server))  # type: ignore[no-any-return]


def test_a_seed_posing_as_a_derived_one_is_refused(seeded: Seeded) -> None:
    assert seeded.posing["code"] == "bad_field" and seeded.posing["id"] == "s"


def test_the_seed_a_seat_sent_is_used(seeded: Seeded) -> None:
    assert seeded.state["client_seeds"][0] == "mine"


def test_a_seat_that_sends_no_seed_gets_its_derived_seed(seeded: Seeded) -> None:
    assert seeded.state["client_seeds"][1] == derived_seed(seeded.committed, 1)


def test_a_seat_dropped_while_seeding_gets_its_derived_seed(seeded: Seeded) -> None:
    assert seeded.state["client_seeds"][2] == derived_seed(seeded.committed, 2)


def test_a_bot_gets_its_derived_seed(seeded: Seeded) -> None:
    assert seeded.state["client_seeds"][3] == derived_seed(seeded.committed, 3)


def test_a_seat_dropped_while_seeding_goes_to_a_bot(seeded: Seeded) -> None:
    seats = seeded.state["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert [s.get("bot", False) for s in seats] == [False, False, True, True]
