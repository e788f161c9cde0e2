"""A coin table alone in memory: stakes into escrow at the commitment, a short player
unseated, no bots, a leaver's seat played by the server, the settlement by the rules.

The fake log moves coins as the database's ledger does (all of an event's
transfers or none, never below zero, no key twice), so these tests check
what the table asks the ledger to do; the ledger itself is tested on the real
databases (``tests/server/ledger``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sahrat.server.ledger.transfers import HOUSE, SOURCE, escrow_account, player_account
from sahrat.server.table.state import FINISHED, PLAYING, WAITING
from tests.server.table.fakes import FakeClient, settings
from tests.server.table.tables import (
    Table,
    open_table,
    play_to_end,
    seated,
    settle,
    started,
    until,
)

STAKE = 100


def fund(table: Table, **balances: int) -> None:
    """Give players coins, drawn from the grants' source as the ledger would."""
    for player, coins in balances.items():
        table.log.balances[player_account(player)] = coins
        table.log.balances[SOURCE] = table.log.balances.get(SOURCE, 0) - coins


def balance(table: Table, player: str) -> int:
    return table.log.balances.get(player_account(player), 0)


async def coin_table(tmp_path: Path, seats: int = 2, **changes: Any) -> Table:
    return await open_table("jackaroo", settings(tmp_path, **changes), seats=seats, stake=STAKE)


def run(coroutine: Any) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 60))


def test_the_stakes_move_to_escrow_with_the_commitment(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await coin_table(tmp_path)
        fund(table, p1=1000, p2=150)
        one, two = FakeClient("p1"), FakeClient("p2")
        await seated(table, one, two)
        await until(lambda: table.actor.status != WAITING, "the commitment")
        commit = [i for i, row in enumerate(table.rows) if row.kind == "commit"]
        assert len(commit) == 1
        keys = sorted(table.log.transfers)
        assert keys == [f"stake:{table.actor.id}:0", f"stake:{table.actor.id}:2"]
        assert (balance(table, "p1"), balance(table, "p2")) == (900, 50)
        assert table.log.balances[escrow_account(table.actor.id)] == 2 * STAKE
        await table.actor.stop()

    run(scenario())


def test_a_player_who_cannot_pay_is_unseated_and_nothing_moves(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await coin_table(tmp_path)
        fund(table, p1=1000, p2=99)
        one, two = FakeClient("p1"), FakeClient("p2")
        await seated(table, one, two)
        await until(lambda: "insufficient_coins" in two.errors(), "the short player to be told")
        await settle()
        assert table.actor.status == WAITING
        assert table.actor.table.seat_of("p2") is None and table.actor.table.seat_of("p1") == 0
        assert "commit" not in [row.kind for row in table.rows]
        assert not table.log.transfers
        assert (balance(table, "p1"), balance(table, "p2")) == (1000, 99)
        assert table.host.count("player_unseated") >= 1
        await table.actor.stop()

    run(scenario())


def test_no_bot_sits_at_a_coin_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await coin_table(tmp_path)
        fund(table, p1=1000)
        one = FakeClient("p1")
        await seated(table, one)
        table.send(one, "bots")
        await until(one.errors, "an answer")
        assert one.errors() == ["no_bots_at_coin_tables"]
        assert table.actor.table.free_seats() == [2]
        await table.actor.stop()

    run(scenario())


async def whole_game(tmp_path: Path, seats: int, leavers: tuple[str, ...]) -> Table:
    """A coin game of ``seats`` people who play their first legal move; ``leavers`` leave
    as soon as the game starts (the server plays their seats)."""
    table = await coin_table(tmp_path, seats=seats)
    players = [FakeClient(f"p{n}") for n in range(1, seats + 1)]
    fund(table, **{p.player: 1000 for p in players})
    await seated(table, *players)
    await started(table, *players)
    for client in players:
        if client.player in leavers:
            table.send(client, "leave")
    staying = [p for p in players if p.player not in leavers]
    await play_to_end(table, *staying, timeout=40)
    return table


def test_a_two_seat_game_pays_the_winner_the_pot_less_the_fee(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await whole_game(tmp_path, 2, leavers=())
        winners = table.actor.table.recorder.state.outcome().winners  # type: ignore[union-attr]
        assert len(winners) == 1
        winner = table.actor.table.seats[winners[0]]
        assert winner is not None
        loser = "p2" if winner.player == "p1" else "p1"
        assert balance(table, winner.player) == 1000 - STAKE + 180
        assert balance(table, loser) == 1000 - STAKE
        assert table.log.balances[HOUSE] == 20
        assert table.log.balances[escrow_account(table.actor.id)] == 0
        assert sum(table.log.balances.values()) == 0
        end = table.rows[-1]
        assert end.kind == "end" and end.data["coins"] == {
            "stake": 100, "pot": 200, "fee": 20, "paid": {str(winners[0]): 180}
        }  # fmt: skip
        assert table.log.records[table.actor.id]["coins"] == end.data["coins"]
        await table.actor.stop()

    run(scenario())


def test_a_winner_who_left_gets_nothing_and_the_seat_is_no_bot(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await whole_game(tmp_path, 4, leavers=("p2",))
        state = table.actor.table
        left = [n for n, s in state.seats.items() if s is not None and s.left]
        assert [state.seats[n].player for n in left] == ["p2"]  # type: ignore[union-attr]
        assert not any(s is not None and s.bot for s in state.seats.values())
        winners = set(state.recorder.state.outcome().winners)  # type: ignore[union-attr]
        pot, fee = 4 * STAKE, 40
        for number, seat in state.seats.items():
            assert seat is not None
            share = (pot - fee) // 2 if number in winners and not seat.left else 0
            assert balance(table, seat.player) == 1000 - STAKE + share, seat.player
        paid = sum(balance(table, f"p{n}") - 900 for n in range(1, 5))
        assert table.log.balances[HOUSE] == pot - paid
        results = {r.player: r for r in table.log.results[table.actor.id]}
        assert results["p2"].left and results["p2"].coins == -STAKE
        assert sorted(results) == ["p1", "p2", "p3", "p4"]
        await table.actor.stop()

    run(scenario())


def test_a_table_everyone_left_is_played_to_its_end_and_settled(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await coin_table(tmp_path)
        one, two = FakeClient("p1"), FakeClient("p2")
        fund(table, p1=500, p2=500)
        await seated(table, one, two)
        await started(table, one, two)
        table.send(one, "leave")
        table.send(two, "leave")
        await until(lambda: table.actor.status == FINISHED, "the end", timeout=40)
        # Both left: whoever won gets nothing; the whole pot stays with the house.
        assert (balance(table, "p1"), balance(table, "p2")) == (400, 400)
        assert table.log.balances[HOUSE] == 200
        assert f"settle:{table.actor.id}" in table.log.transfers
        await table.actor.stop()

    run(scenario())


def test_a_restored_coin_table_takes_no_stake_again_and_settles_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await coin_table(tmp_path)
        fund(table, p1=1000, p2=1000)
        one, two = FakeClient("p1"), FakeClient("p2")
        await seated(table, one, two)
        await started(table, one, two)
        await table.actor.stop()
        again = table.restored()
        assert again.table.status == PLAYING and again.table.stake == STAKE
        table.actor = again
        again.start()
        again.resume()
        for client in (one, two):
            client.table = None
            table.send(client, "leave")  # the server plays both seats to the end
        await until(lambda: again.status == FINISHED, "the end", timeout=40)
        kinds = sorted(t.kind for t in table.log.transfers.values())
        assert kinds == ["settle", "stake", "stake"]
        assert sum(table.log.balances.values()) == 0
        await again.stop()

    run(scenario())
