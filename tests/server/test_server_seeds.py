"""Seeds the server fills in are derived from the commitment (fairness.md §1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sahrat.fairness import derived_seed
from tests.server.harness import Player, run, running


def test_bots_and_silent_seats_get_their_derived_seeds(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path, seed_seconds=2.0, grace_seconds=0.3) as server:
            people = [Player(server, f"p{i}") for i in range(3)]
            for player in people:
                await player.connect()
            await people[0].send(type="create", game="jackaroo", seats=4)
            table_id = (await people[0].expect("table"))["table"]["id"]
            for player in people[1:]:
                await player.send(type="join", table=table_id)
                await player.expect("table")
            await people[0].send(type="bots")  # the fourth seat is a bot
            requests = [await p.expect("seed_request") for p in people]
            committed = requests[0]["commitment"]
            # A seed of one's own may not pose as a derived one.
            await people[0].send(type="seed", seed="bot-" + "0" * 32, id="s")
            error = await people[0].expect("error")
            assert error["code"] == "bad_field" and error["id"] == "s"
            await people[0].send(type="seed", seed="mine")
            # p1 never answers; p2's connection drops and a bot takes the seat before the
            # deadline (its seed was not sent either).
            await people[2].close()
            state = await people[0].expect(
                "table", lambda m: m["table"]["status"] == "playing", timeout=10
            )
            seats = [s["seat"] for s in state["seats"]]
            seeds = state["client_seeds"]
            assert seats == [0, 1, 2, 3]
            assert seeds[0] == "mine"
            for index in (1, 2, 3):
                assert seeds[index] == derived_seed(committed, index), index
            assert [s.get("bot", False) for s in state["seats"]] == [False, False, True, True]
            for player in people[:2]:
                await player.close()
            await asyncio.sleep(0)

    run(scenario())
