"""Whole games through the protocol: four scripted people, a real server, a real database.

Every message a seat receives is checked for what it may not see: another
seat's cards, or the server seed before the end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sahrat.records import STEPS, verify
from tests.server.conftest import game_over, hand_over, play_all, seat_four
from tests.server.harness import Player, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("database_url")


def assert_sees_only_its_own(player: Player, seat: int, seed_hex: str | None) -> None:
    """No message to ``player`` shows another seat's hand, or the seed before the end."""
    for text in player.received:
        message = json.loads(text)
        if seed_hex is not None and "result" not in message:
            assert seed_hex not in text, "the server seed leaked before the end"
        view = message.get("view")
        if not view:
            continue
        assert view["seat"] == seat
        if "hands" in view:  # Jackaroo: the position object, other hands as counts
            for other, hand in view["hands"].items():
                if int(other) != seat:
                    assert isinstance(hand, int), f"seat {seat} saw seat {other}'s cards"
            assert isinstance(view.get("stock", 0), int)
        else:  # Buraco: only the seat's own hand, and no morto's cards
            assert isinstance(view["hand"], list)
            assert all(isinstance(n, int) for n in view["hand_sizes"])
            assert all(isinstance(n, int) for n in view["morto_sizes"])


def test_four_people_play_a_whole_jackaroo_game(tmp_path: Path, database_url: str) -> None:
    async def scenario() -> tuple[list[Player], list[dict[str, Any]]]:
        with running(tmp_path, database_url) as server:
            players = await seat_four(server, "jackaroo", options={"preset": "sahrat"})
            # While the game runs, its record shows no shuffle, deal or seed.
            table_id = players[0].state["table"]["id"]  # type: ignore[index]
            running_record = server.get(f"/api/records/{table_id}")
            assert running_record["shuffles"] == [] and running_record["deals"] == []
            assert "server_seed" not in running_record
            finals = await play_all(players, game_over)
            for player in players:  # every seat is shown the seed at the end
                shown = await player.expect("table", lambda m: "server_seed" in m)
                assert shown["table"]["status"] == "finished"
            record = server.get(f"/api/records/{table_id}")
            for player in players:
                await player.close()
            return players, [*finals, record]

    players, results = run(scenario(), timeout=240)
    finals, record = results[:4], results[4]
    winners = finals[0]["result"]["winners"]
    assert all(f["result"]["winners"] == winners for f in finals)
    assert len(winners) == 2 and winners[0] % 2 == winners[1] % 2
    # The record proves the shuffle and replays to the same result.
    checks = verify(record)
    assert [c.ok for c in checks] == [True] * STEPS, checks
    assert record["result"]["winners"] == winners
    assert record["commitment"] == finals[0]["commitment"]
    assert all(record["server_seed"] in "".join(p.received) for p in players)
    assert record["client_seeds"] == [f"seed-p{i}" for i in range(4)]
    moves = [entry for entry in record["log"] if entry["seat"] is not None]
    assert len(moves) == finals[0]["moves"]
    for player, final in zip(players, finals, strict=True):
        assert_sees_only_its_own(player, final["you"], record["server_seed"])


def test_four_people_play_a_whole_buraco_hand(tmp_path: Path, database_url: str) -> None:
    async def scenario() -> tuple[list[Player], list[dict[str, Any]]]:
        with running(tmp_path, database_url) as server:
            players = await seat_four(server, "buraco")
            finals = await play_all(players, hand_over, seed=7)
            for player in players:
                await player.close()
            return players, finals

    players, finals = run(scenario(), timeout=240)
    results = [f["view"]["results"][0] for f in finals if f["view"]["results"]]
    assert len(results) == 4 and all(r == results[0] for r in results)
    totals = results[0]["totals"]
    assert len(totals) == 2
    # Each seat saw its own hand only; every view is the engine's view for that seat.
    for player, final in zip(players, finals, strict=True):
        assert_sees_only_its_own(player, final["you"], None)
        assert final["view"]["seat"] == final["you"]


def test_a_seat_sees_its_own_hand_and_legal_moves_on_its_turn(tmp_path: Path) -> None:
    async def scenario() -> list[Any]:
        with running(tmp_path) as server:
            players = await seat_four(server, "jackaroo")
            states = [player.state for player in players]
            for player in players:
                await player.close()
            return states

    states = run(scenario())
    to_move = states[0]["to_move"]
    for state in states:
        me = state["you"]
        assert len(state["view"]["hands"][str(me)]) == 5  # the first deal: five each
        assert ("legal" in state) == (me == to_move)
        assert state["deadline"] is not None
        assert state["client_seeds"] == [f"seed-p{i}" for i in range(4)]
