"""Whole games through the protocol: four scripted people, a real server, a real database.

A whole Jackaroo game and a whole Buraco hand are each played once per database (module
fixtures); every test then checks one thing about what the seats received and what the
server recorded: another seat's cards are never shown, nor the server seed before the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from sahrat.records import STEPS, verify
from tests.server.conftest import (
    close_all,
    game_over,
    hand_over,
    play_all,
    seat_four,
    shared_server,
)
from tests.server.harness import Player, Server, run

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend) as server:
        yield server


@dataclass
class Played:
    """What each of four seats received during a game, and what the server recorded."""

    finals: list[dict[str, Any]]  # each seat's last table message (with the result)
    received: list[list[str]]  # every message each seat received, as sent
    record: dict[str, Any] | None = None  # the record once the game is over
    running_record: dict[str, Any] | None = None  # the record while the game ran
    ended: list[dict[str, Any]] | None = None  # each seat's table that showed the seed

    def views(self) -> Iterator[tuple[int, dict[str, Any], str]]:
        """(seat, message, text) for every message with a view, for every seat."""
        for final, texts in zip(self.finals, self.received, strict=True):
            for text in texts:
                message = json.loads(text)
                if message.get("view"):
                    yield final["you"], message, text


@pytest.fixture(scope="module")
def jackaroo_game(server: Server) -> Played:
    async def scenario() -> Played:
        players = await seat_four(server, "jackaroo", options={"preset": "sahrat"})
        table_id = players[0].state["table"]["id"]  # type: ignore[index]
        running_record = server.get(f"/api/records/{table_id}")
        finals = await play_all(players, game_over)
        ended = [await p.expect("table", lambda m: "server_seed" in m) for p in players]
        record = server.get(f"/api/records/{table_id}")
        await close_all(*players)
        return Played(finals, [p.received for p in players], record, running_record, ended)

    return run(scenario(), timeout=240)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def buraco_hand(server: Server) -> Played:
    async def scenario() -> Played:
        players = await seat_four(server, "buraco")
        finals = await play_all(players, hand_over, seed=7)
        await close_all(*players)
        return Played(finals, [p.received for p in players])

    return run(scenario(), timeout=240)  # type: ignore[no-any-return]


# -- a whole Jackaroo game ----------------------------------------------------------------


def test_a_running_games_record_shows_no_shuffle_or_deal(jackaroo_game: Played) -> None:
    running = jackaroo_game.running_record
    assert running is not None
    assert running["shuffles"] == [] and running["deals"] == []


def test_a_running_games_record_keeps_the_server_seed_secret(jackaroo_game: Played) -> None:
    assert jackaroo_game.running_record is not None
    assert "server_seed" not in jackaroo_game.running_record


def test_no_seat_is_sent_the_server_seed_before_the_end(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    seed_hex = jackaroo_game.record["server_seed"]
    for texts in jackaroo_game.received:
        for text in texts:
            if "result" not in json.loads(text):
                assert seed_hex not in text, "the server seed leaked before the end"


def test_every_seat_is_shown_the_finished_table_with_the_server_seed(
    jackaroo_game: Played,
) -> None:
    assert jackaroo_game.ended is not None
    for shown in jackaroo_game.ended:
        assert shown["table"]["status"] == "finished"


def test_the_seed_every_seat_is_shown_is_the_records(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    seed_hex = jackaroo_game.record["server_seed"]
    assert all(seed_hex in "".join(texts) for texts in jackaroo_game.received)


def test_every_seat_is_told_the_same_winners(jackaroo_game: Played) -> None:
    winners = jackaroo_game.finals[0]["result"]["winners"]
    assert all(f["result"]["winners"] == winners for f in jackaroo_game.finals)


def test_a_four_seat_jackaroo_game_is_won_by_a_partnership(jackaroo_game: Played) -> None:
    winners = jackaroo_game.finals[0]["result"]["winners"]
    assert len(winners) == 2 and winners[0] % 2 == winners[1] % 2


def test_the_record_proves_the_shuffle_and_replays_to_its_result(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    checks = verify(jackaroo_game.record)
    assert [c.ok for c in checks] == [True] * STEPS, checks


def test_the_record_names_the_winners_the_seats_were_told(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    winners = jackaroo_game.finals[0]["result"]["winners"]
    assert jackaroo_game.record["result"]["winners"] == winners


def test_the_record_keeps_the_commitment_the_seats_were_shown(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    assert jackaroo_game.record["commitment"] == jackaroo_game.finals[0]["commitment"]


def test_the_record_keeps_the_seed_each_seat_sent(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    assert jackaroo_game.record["client_seeds"] == [f"seed-p{i}" for i in range(4)]


def test_the_record_logs_every_move_the_table_counted(jackaroo_game: Played) -> None:
    assert jackaroo_game.record is not None
    moves = [entry for entry in jackaroo_game.record["log"] if entry["seat"] is not None]
    assert len(moves) == jackaroo_game.finals[0]["moves"]


def test_every_jackaroo_view_is_the_view_of_the_seat_it_is_sent_to(
    jackaroo_game: Played,
) -> None:
    for seat, message, _ in jackaroo_game.views():
        assert message["view"]["seat"] == seat


def test_no_jackaroo_seat_sees_another_seats_cards_or_the_stock(jackaroo_game: Played) -> None:
    for seat, message, _ in jackaroo_game.views():
        view = message["view"]
        # The position object shows the other hands as counts, and the stock as a count.
        for other, hand in view["hands"].items():
            if int(other) != seat:
                assert isinstance(hand, int), f"seat {seat} saw seat {other}'s cards"
        assert isinstance(view.get("stock", 0), int)


# -- a whole Buraco hand ------------------------------------------------------------------


def test_every_seat_is_told_the_same_result_of_the_hand(buraco_hand: Played) -> None:
    results = [f["view"]["results"][0] for f in buraco_hand.finals if f["view"]["results"]]
    assert len(results) == 4 and all(r == results[0] for r in results)


def test_the_result_of_a_hand_totals_both_sides(buraco_hand: Played) -> None:
    results = [f["view"]["results"][0] for f in buraco_hand.finals if f["view"]["results"]]
    totals = results[0]["totals"]
    assert len(totals) == 2


def test_every_buraco_view_is_the_view_of_the_seat_it_is_sent_to(buraco_hand: Played) -> None:
    for seat, message, _ in buraco_hand.views():
        assert message["view"]["seat"] == seat
    for final in buraco_hand.finals:
        assert final["view"]["seat"] == final["you"]


def test_no_buraco_seat_sees_another_hand_or_a_morto(buraco_hand: Played) -> None:
    for _, message, _ in buraco_hand.views():
        view = message["view"]
        assert isinstance(view["hand"], list)
        assert all(isinstance(n, int) for n in view["hand_sizes"])
        assert all(isinstance(n, int) for n in view["morto_sizes"])


# -- the first deal -----------------------------------------------------------------------


def first_deal(server: Server) -> list[dict[str, Any]]:
    """Each seat's table message once four people have sent their seeds."""

    async def scenario() -> list[dict[str, Any]]:
        players: list[Player] = await seat_four(server, "jackaroo")
        states = [player.state for player in players]
        await close_all(*players)
        return [state for state in states if state is not None]

    states: list[dict[str, Any]] = run(scenario())
    assert len(states) == 4
    return states


def test_each_seat_sees_its_own_five_cards_after_the_first_deal(server: Server) -> None:
    for state in first_deal(server):
        assert len(state["view"]["hands"][str(state["you"])]) == 5


def test_only_the_seat_to_move_is_sent_its_legal_moves(server: Server) -> None:
    states = first_deal(server)
    to_move = states[0]["to_move"]
    for state in states:
        assert ("legal" in state) == (state["you"] == to_move)


def test_the_first_turn_runs_on_a_clock(server: Server) -> None:
    for state in first_deal(server):
        assert state["deadline"] is not None


def test_every_seat_is_shown_the_seeds_the_seats_sent(server: Server) -> None:
    for state in first_deal(server):
        assert state["client_seeds"] == [f"seed-p{i}" for i in range(4)]
