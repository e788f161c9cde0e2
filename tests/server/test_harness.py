"""The test harness itself: a scenario that fails half-way leaves no socket open, so its
ResourceWarning cannot fail whichever later test the garbage collector runs in."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tests.server.harness import Player, run, running


def test_a_failed_scenario_closes_the_sockets_it_opened(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        players: list[Player] = []

        async def scenario() -> None:
            players.append(Player(server, "left-open"))
            await players[0].connect()
            raise RuntimeError("the scenario failed")

        with pytest.raises(RuntimeError):
            run(scenario())
        gc.collect()  # with warnings as errors, an unclosed socket fails here
        assert players[0].ws is not None and players[0].ws.state.name == "CLOSED"
