"""Rated games for the people tests: accounts' sockets at a table of their own, played
to the end with random legal moves, and the record stored before going on."""

from __future__ import annotations

import asyncio
import random

from tests.server.conftest import game_over, play
from tests.server.harness import Account, Player, Server, call


async def online(server: Server, account: Account | None, name: str = "") -> Player:
    """A socket as ``account`` (a new guest if None)."""
    player = Player(server, name)
    await player.connect(token=None if account is None else account.token)
    return player


async def table_of(
    players: list[Player], game: str = "jackaroo", bots: bool = False, stake: int = 0
) -> str:
    """A new table of ``players`` (the first creates it; with ``bots``, a two-seat table
    the bots fill; with a ``stake``, a coin table), its game started; its id."""
    seats = 2 if bots else len(players)
    create = {"stake": stake} if stake else {}
    await players[0].send(type="create", game=game, seats=seats, **create)
    first = await players[0].expect("table")
    table = str(first["table"]["id"])
    for player in players[1:]:
        await player.send(type="join", table=table)
        await player.expect("table", lambda m: m["table"]["id"] == table)
    if bots:
        await players[0].send(type="bots")
    for player in players:
        await player.expect("seed_request")
        await player.send(type="seed", seed=f"seed-{player.player_id}")
    for player in players:
        await player.expect("table", lambda m: m["table"]["status"] == "playing")
    return table


async def to_the_end(players: list[Player], seed: int) -> None:
    await asyncio.gather(
        *(play(p, game_over, random.Random(seed + i)) for i, p in enumerate(players))
    )


async def finish_table(server: Server, table: str, players: list[Player]) -> None:
    """Close the sockets and wait until the game's record (seed revealed) is stored."""
    for player in players:
        await player.close()
    for _ in range(200):
        reply = call(server, "GET", f"/api/records/{table}")
        if reply.status == 200 and reply.body.get("server_seed"):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no record for {table}")


async def rated_game(server: Server, accounts: list[Account], seed: int) -> str:
    """One whole game between ``accounts``; its table."""
    players = [await online(server, account) for account in accounts]
    table = await table_of(players)
    await to_the_end(players, seed)
    await finish_table(server, table, players)
    return table
