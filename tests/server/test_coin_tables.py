"""Coin tables over the WebSocket: who may sit at one and with which stake, "play now" with
a stake, the stakes taken when the table fills, whole games settled by the rules (the
house's fee, the winners' shares, nothing for a winner who left), the players' ledgers
and histories, and the ledger's audit afterwards.

Every test's players are registered accounts of their own (or guests) on one server per
backend; the whole games are played once each by fixtures, one test per thing checked.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from sahrat.server.schema import entries, transfers
from tests.server.conftest import game_over, play, shared_server
from tests.server.harness import (
    Account,
    Player,
    Server,
    balance_of,
    call,
    error_for,
    listed_with,
    new_account,
    run,
)

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

STAKE = 100
#: A stake the server offers that no new account can pay (the starting grant is 1000).
TOO_DEAR = 2000
SETTINGS = {
    "stakes": f"50,{STAKE},250,500,1000,{TOO_DEAR}",
    # Every client comes from 127.0.0.1.
    "accounts_burst": 100_000,
    "logins_burst": 100_000,
}
FEE_PERCENT = 10


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend, **SETTINGS) as server:
        yield server


@pytest.fixture(scope="module")
def holder(server: Server) -> Account:
    """An account for tests whose requests are refused (nothing changes for it)."""
    return new_account(server)


# -- helpers ------------------------------------------------------------------------------


async def online(server: Server, account: Account) -> Player:
    player = Player(server)
    await player.connect(token=account.token)
    return player


async def guest(server: Server) -> Player:
    player = Player(server, "guest")
    await player.connect()
    return player


async def create(player: Player, stake: int | None = STAKE, seats: int = 2) -> dict[str, Any]:
    """A new Jackaroo table of ``player``'s: its first ``table`` message."""
    fields: dict[str, Any] = {"game": "jackaroo", "seats": seats}
    if stake is not None:
        fields["stake"] = stake
    await player.send(type="create", **fields)
    return await player.expect("table")


async def join(player: Player, table: str) -> dict[str, Any]:
    await player.send(type="join", table=table)
    return await player.expect("table", lambda m: m["table"]["id"] == table)


async def seed_and_start(players: list[Player]) -> None:
    """The table is full: every seat sends its seed and the game starts."""
    for player in players:
        await player.expect("seed_request")
        await player.send(type="seed", seed=f"seed-{player.player_id}")
    for player in players:
        await player.expect("table", lambda m: m["table"]["status"] == "playing")


async def leave(player: Player) -> None:
    await player.send(type="leave")
    await player.expect("left")


async def finished(player: Player) -> dict[str, Any]:
    """The ``table`` message of the game's end, with its settlement."""
    return await player.expect("table", lambda m: m["table"]["status"] == "finished", timeout=60)


def settlement(stake: int, seats: list[int], winners: list[int], left: set[int]) -> dict[int, int]:
    """What each seat is paid by the rules: the house takes 10 % of the pot, rounded
    down; the winners share the rest equally in whole coins; a winner who left gets
    nothing (with no winner, every seat shares as a winner)."""
    pot = stake * len(seats)
    sharing = winners or seats
    share = (pot - pot * FEE_PERCENT // 100) // len(sharing)
    return {seat: share for seat in sharing if seat not in left}


def ledger(server: Server, token: str, query: str = "") -> dict[str, Any]:
    reply = call(server, "GET", f"/api/me/ledger{query}", token=token)
    assert reply.status == 200, reply
    return dict(reply.body)


def games(server: Server, token: str) -> list[dict[str, Any]]:
    reply = call(server, "GET", "/api/me/games", token=token)
    assert reply.status == 200, reply
    return list(reply.body["games"])


def house_share(server: Server, table: str) -> int:
    """What the house received at the table's settlement, read from the database."""
    url = server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}"
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            found = c.execute(
                select(entries.c.amount)
                .join(transfers, transfers.c.id == entries.c.transfer_id)
                .where(transfers.c.key == f"settle:{table}", entries.c.account_id == "house")
            ).scalar()
    finally:
        engine.dispose()
    return int(found or 0)


# -- a coin table in the lobby ------------------------------------------------------------


@dataclass
class Listed:
    table: dict[str, Any]  # the creator's first table message
    lobby: list[dict[str, Any]]  # GET /api/tables while it waits
    me: dict[str, Any]  # the creator's /api/me while it waits
    balance_after: int  # once the creator left the waiting table
    lobby_after: list[dict[str, Any]]


@pytest.fixture(scope="module")
def listed(server: Server) -> Listed:
    """An account opens a 2-seat coin table of 100, then leaves it before anyone comes."""
    account = new_account(server)

    async def scenario() -> Listed:
        player = await online(server, account)
        table = await create(player)
        lobby = call(server, "GET", "/api/tables").body["tables"]
        me = call(server, "GET", "/api/me", token=account.token).body
        await leave(player)
        await player.close()
        lobby_after = call(server, "GET", "/api/tables").body["tables"]
        return Listed(table, lobby, me, balance_of(server, account.token), lobby_after)

    return run(scenario())  # type: ignore[no-any-return]


def test_a_coin_table_is_of_kind_coin_with_its_stake_and_pot(listed: Listed) -> None:
    summary = listed.table["table"]
    assert (summary["kind"], summary["stake"], summary["pot"]) == ("coin", STAKE, 2 * STAKE)


def test_the_lobby_lists_a_coin_table_with_its_stake_and_pot(listed: Listed) -> None:
    entry = next(t for t in listed.lobby if t["id"] == listed.table["table"]["id"])
    assert (entry["kind"], entry["stake"], entry["pot"]) == ("coin", STAKE, 2 * STAKE)


def test_a_waiting_coin_table_takes_no_coins_yet(listed: Listed) -> None:
    assert listed.me["balance"] == 1000


def test_me_names_the_coin_table_one_waits_at(listed: Listed) -> None:
    assert listed.me["table"] == listed.table["table"]["id"]


def test_leaving_a_waiting_coin_table_costs_nothing(listed: Listed) -> None:
    assert listed.balance_after == 1000


def test_a_coin_table_left_before_anyone_came_leaves_the_lobby(listed: Listed) -> None:
    assert listed.table["table"]["id"] not in [t["id"] for t in listed.lobby_after]


# -- who may sit at a coin table, with which stake ----------------------------------------


@pytest.mark.parametrize("how", ["create", "join", "play_now"])
def test_a_guest_is_refused_a_coin_table_with_guest_no_coins(server: Server, how: str) -> None:
    account = new_account(server) if how == "join" else None

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        visitor = await guest(server)
        owner = None
        if how == "create":
            error = await error_for(visitor, type="create", game="jackaroo", seats=2, stake=STAKE)
        elif how == "play_now":
            error = await error_for(visitor, type="play_now", game="jackaroo", seats=2, stake=STAKE)
        else:
            assert account is not None
            owner = await online(server, account)
            table = (await create(owner))["table"]["id"]
            error = await error_for(visitor, type="join", table=table)
        seated = listed_with(server, visitor.player_id)
        if owner is not None:
            await leave(owner)
            await owner.close()
        await visitor.close()
        return error, seated

    error, seated = run(scenario())
    assert error["code"] == "guest_no_coins"
    assert seated == []


#: A number the server does not offer is ``bad_stake``; a value that is no integer at all
#: is refused by the message's schema, ``bad_field``, as any field of the wrong type is.
BAD_STAKES = {"7": 7, "-100": -100, "10**30": 10**30, "'100'": "100", "true": True}


@pytest.mark.parametrize("how", ["create", "play_now"])
@pytest.mark.parametrize("stake", BAD_STAKES.values(), ids=BAD_STAKES.keys())
def test_a_stake_the_server_does_not_offer_is_refused_with_a_named_error(
    server: Server, holder: Account, how: str, stake: object
) -> None:
    async def scenario() -> dict[str, Any]:
        player = await online(server, holder)
        error = await error_for(player, type=how, game="jackaroo", seats=2, stake=stake)
        await player.close()
        return error

    expected = "bad_stake" if type(stake) is int else "bad_field"
    assert run(scenario())["code"] == expected


def test_a_refused_stake_opens_no_table(server: Server, holder: Account) -> None:
    async def scenario() -> None:
        player = await online(server, holder)
        await error_for(player, type="create", game="jackaroo", seats=2, stake=7)
        await error_for(player, type="play_now", game="jackaroo", seats=2, stake=7)
        await player.close()

    run(scenario())
    assert listed_with(server, holder.id) == []


@dataclass
class Short:
    create: dict[str, Any]
    play_now: dict[str, Any]
    balance: int
    me_table: str | None
    seated: list[dict[str, Any]]
    lobby_stakes: list[int]


@pytest.fixture(scope="module")
def short(server: Server) -> Short:
    """An account with 1000 coins asks for a table of 2000, by create and by play_now."""
    account = new_account(server)

    async def scenario() -> Short:
        player = await online(server, account)
        fields = {"game": "jackaroo", "seats": 2, "stake": TOO_DEAR}
        by_create = await error_for(player, type="create", **fields)
        by_play_now = await error_for(player, type="play_now", **fields)
        await player.close()
        me = call(server, "GET", "/api/me", token=account.token).body
        tables = call(server, "GET", "/api/tables").body["tables"]
        return Short(
            by_create,
            by_play_now,
            me["balance"],
            me["table"],
            listed_with(server, account.id),
            [t["stake"] for t in tables],
        )

    return run(scenario())  # type: ignore[no-any-return]


@pytest.mark.parametrize("how", ["create", "play_now"])
def test_a_stake_above_the_balance_is_refused_with_what_is_needed_and_had(
    short: Short, how: str
) -> None:
    error = short.create if how == "create" else short.play_now
    assert (error["code"], error["need"], error["have"]) == ("insufficient_coins", TOO_DEAR, 1000)


def test_a_stake_above_the_balance_changes_no_balance(short: Short) -> None:
    assert short.balance == 1000


def test_a_stake_above_the_balance_opens_no_table(short: Short) -> None:
    assert short.me_table is None and short.seated == [] and TOO_DEAR not in short.lobby_stakes


def test_bots_are_refused_at_a_coin_table(server: Server, holder: Account) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        player = await online(server, holder)
        table = (await create(player))["table"]["id"]
        error = await error_for(player, type="bots")
        summary = call(server, "GET", f"/api/tables/{table}").body
        await leave(player)
        await player.close()
        return error, summary

    error, summary = run(scenario())
    assert error["code"] == "no_bots_at_coin_tables"
    assert (summary["status"], summary["free"]) == ("waiting", 1)


# -- play now with a stake ----------------------------------------------------------------


@dataclass
class Matched:
    free: str  # a guest's waiting free table
    dearer: str  # a waiting coin table of 250
    open: str  # a waiting coin table of 100
    staked: str  # where "play now" with a stake of 100 seated its player
    unstaked: str  # where a guest's "play now" without a stake seated it
    fresh: dict[str, Any]  # the table "play now" with a stake of 50 (none waits) opened


@pytest.fixture(scope="module")
def matched(server: Server) -> Matched:
    """Waiting: a guest's free table, coin tables of 250 and 100. One account's play_now
    with 100; a guest's without a stake; another account's with 50."""
    dear, opener, newcomer, loner = (new_account(server) for _ in range(4))

    async def scenario() -> Matched:
        host = await guest(server)
        free = (await create(host, None))["table"]["id"]
        dearer_player = await online(server, dear)
        dearer = (await create(dearer_player, 250))["table"]["id"]
        opener_player = await online(server, opener)
        open_table = (await create(opener_player))["table"]["id"]
        player = await online(server, newcomer)
        await player.send(type="play_now", game="jackaroo", seats=2, stake=STAKE)
        staked = (await player.expect("table"))["table"]["id"]
        visitor = await guest(server)
        await visitor.send(type="play_now", game="jackaroo", seats=2)
        unstaked = (await visitor.expect("table"))["table"]["id"]
        lone = await online(server, loner)
        await lone.send(type="play_now", game="jackaroo", seats=2, stake=50)
        fresh = (await lone.expect("table"))["table"]
        # The full tables play on without their people; the waiting ones close.
        for someone in (player, opener_player, visitor, host, dearer_player, lone):
            await leave(someone)
            await someone.close()
        return Matched(free, dearer, open_table, staked, unstaked, fresh)

    return run(scenario())  # type: ignore[no-any-return]


def test_play_now_with_a_stake_sits_at_the_waiting_coin_table_of_that_stake(
    matched: Matched,
) -> None:
    assert matched.staked == matched.open


def test_play_now_without_a_stake_sits_at_a_free_table_not_a_coin_table(
    matched: Matched,
) -> None:
    assert matched.unstaked == matched.free


def test_play_now_with_a_stake_nobody_waits_at_opens_a_coin_table_of_it(
    matched: Matched,
) -> None:
    fresh = matched.fresh
    assert fresh["id"] not in (matched.free, matched.dearer, matched.open)
    assert (fresh["kind"], fresh["stake"], fresh["pot"]) == ("coin", 50, 100)


# -- two 2-seat games between the same two accounts ---------------------------------------


@dataclass
class Game:
    table: str
    seats: dict[str, int]  # player id -> seat
    winners: list[int]
    end: dict[str, Any]  # the finished table message, as the first account saw it
    at_start: dict[str, int]  # player id -> balance once the table filled
    ledger_at_start: dict[str, dict[str, Any]]  # player id -> newest ledger entry then
    after: dict[str, int]  # player id -> balance after the end

    def paid(self) -> dict[int, int]:
        return settlement(STAKE, sorted(self.seats.values()), self.winners, set())


@dataclass
class Duel:
    accounts: list[Account]
    games: list[Game]


async def coin_game(server: Server, accounts: list[Account], seed: int) -> Game:
    """The first account opens a 2-seat coin table of 100, the second joins; both play
    random legal moves to the end."""
    players = [await online(server, account) for account in accounts]
    table = (await create(players[0]))["table"]["id"]
    await join(players[1], table)
    await seed_and_start(players)
    at_start = {a.id: balance_of(server, a.token) for a in accounts}
    ledger_at_start = {a.id: ledger(server, a.token)["entries"][0] for a in accounts}
    seats = {p.player_id: p.state["you"] for p in players if p.state is not None}
    await asyncio.gather(
        *(play(p, game_over, random.Random(seed + i)) for i, p in enumerate(players))
    )
    ends = [await finished(p) for p in players]
    after = {a.id: balance_of(server, a.token) for a in accounts}
    for player in players:
        await player.close()
    winners = list(ends[0]["result"]["winners"])
    return Game(table, seats, winners, ends[0], at_start, ledger_at_start, after)


@pytest.fixture(scope="module")
def duel(server: Server) -> Duel:
    """Two new accounts play two coin games of 100; each opens one."""
    first, second = new_account(server), new_account(server)

    async def scenario() -> Duel:
        one = await coin_game(server, [first, second], 1)
        two = await coin_game(server, [second, first], 11)
        return Duel([first, second], [one, two])

    return run(scenario())  # type: ignore[no-any-return]


def test_each_balance_drops_by_the_stake_when_the_table_fills(duel: Duel) -> None:
    assert duel.games[0].at_start == {a.id: 1000 - STAKE for a in duel.accounts}


def test_the_ledger_shows_the_stake_taken_when_the_table_fills(duel: Duel) -> None:
    game = duel.games[0]
    for account in duel.accounts:
        entry = game.ledger_at_start[account.id]
        assert (entry["kind"], entry["amount"], entry["balance"], entry["table"]) == (
            "stake",
            -STAKE,
            1000 - STAKE,
            game.table,
        )


def test_a_two_seat_game_has_one_winner(duel: Duel) -> None:
    for game in duel.games:
        assert len(game.winners) == 1 and game.winners[0] in game.seats.values()


def test_the_winner_receives_the_pot_less_the_fee_and_the_loser_loses_the_stake(
    duel: Duel,
) -> None:
    game = duel.games[0]
    for player, seat in game.seats.items():
        assert game.after[player] == (1080 if seat in game.winners else 900), player


def test_the_finished_table_tells_the_coins_paid_and_each_seats_net(duel: Duel) -> None:
    for game in duel.games:
        coins = game.end["coins"]
        seats = sorted(game.seats.values())
        assert (coins["stake"], coins["pot"], coins["fee"]) == (STAKE, 2 * STAKE, 20)
        assert coins["paid"] == {str(s): n for s, n in game.paid().items()}
        assert coins["net"] == {str(s): game.paid().get(s, 0) - STAKE for s in seats}


def test_the_house_takes_the_fee(server: Server, duel: Duel) -> None:
    for game in duel.games:
        assert house_share(server, game.table) == 20


def test_balances_follow_the_rules_game_after_game(duel: Duel) -> None:
    for before, game in zip([None, *duel.games], duel.games, strict=False):
        for player, seat in game.seats.items():
            start = 1000 if before is None else before.after[player]
            assert game.after[player] == start - STAKE + game.paid().get(seat, 0), player


def test_the_record_of_a_coin_game_has_its_settlement(server: Server, duel: Duel) -> None:
    for game in duel.games:
        record = call(server, "GET", f"/api/records/{game.table}").body
        paid = {str(s): n for s, n in game.paid().items()}
        assert record["coins"] == {"stake": STAKE, "pot": 2 * STAKE, "fee": 20, "paid": paid}


def test_the_ledger_pays_the_winner_its_share(server: Server, duel: Duel) -> None:
    last = duel.games[-1]
    winner = next(a for a in duel.accounts if last.seats[a.id] in last.winners)
    entry = ledger(server, winner.token)["entries"][0]
    assert (entry["kind"], entry["amount"], entry["table"]) == ("payout", 180, last.table)
    assert entry["balance"] == last.after[winner.id]


def test_a_loser_has_no_payout_for_the_game(server: Server, duel: Duel) -> None:
    last = duel.games[-1]
    loser = next(a for a in duel.accounts if last.seats[a.id] not in last.winners)
    tables = [(e["kind"], e["table"]) for e in ledger(server, loser.token)["entries"]]
    assert ("payout", last.table) not in tables and ("stake", last.table) in tables


@pytest.mark.parametrize("size", [1, 2])
def test_ledger_pages_give_every_entry_once_with_its_running_balance(
    server: Server, duel: Duel, size: int
) -> None:
    account = duel.accounts[0]
    seen: list[dict[str, Any]] = []
    query = f"?limit={size}"
    for _ in range(20):
        page = ledger(server, account.token, query)
        assert 1 <= len(page["entries"]) <= size
        seen += page["entries"]
        if page["next"] is None:
            break
        query = f"?limit={size}&before={page['next']}"
    assert seen == ledger(server, account.token, "?limit=100")["entries"]
    assert len({e["id"] for e in seen}) == len(seen) >= 3
    assert seen[0]["balance"] == duel.games[-1].after[account.id]
    for newer, older in itertools.pairwise(seen):
        assert newer["balance"] == older["balance"] + newer["amount"]
    assert seen[-1] == {**seen[-1], "kind": "grant_start", "amount": 1000, "balance": 1000}


def test_my_games_list_each_coin_game_with_its_result_stake_and_coins(
    server: Server, duel: Duel
) -> None:
    for account in duel.accounts:
        listed = [
            (g["table"], g["result"], g["stake"], g["coins"], g["left"])
            for g in games(server, account.token)
        ]
        expected = [
            (
                game.table,
                "won" if game.seats[account.id] in game.winners else "lost",
                STAKE,
                game.paid().get(game.seats[account.id], 0) - STAKE,
                False,
            )
            for game in reversed(duel.games)
        ]
        assert listed == expected


def test_a_games_record_replay_and_verify_links_answer_200(server: Server, duel: Duel) -> None:
    account = duel.accounts[0]
    for game in games(server, account.token):
        for link in ("record", "replay", "verify"):
            path = game[link].split("#")[0]
            assert call(server, "GET", path).status == 200, game[link]


# -- a 4-seat game that two players leave, one of each side -------------------------------


@dataclass
class Deserted:
    accounts: dict[int, Account]  # by seat
    left: set[int]  # the seats whose players left mid-game
    winners: list[int]
    end: dict[str, Any]  # the finished table message, as a player who stayed saw it
    at_start: dict[int, int]  # by seat: balances once the table filled
    after: dict[int, int]  # by seat: balances after the end
    histories: dict[int, dict[str, Any]]  # by seat: the game in /api/me/games
    elsewhere: dict[str, Any]  # a leaver's next table, opened while the game went on
    table: str


LEAVE_AFTER_MOVES = 8


@pytest.fixture(scope="module")
def deserted(server: Server) -> Deserted:
    """Four accounts at a 4-seat coin table of 100 play random legal moves; after eight
    moves the players at seats 0 and 1 (one of each side) leave, and one of them opens a
    free table; the other two play to the end."""
    accounts = [new_account(server) for _ in range(4)]

    async def scenario() -> Deserted:
        players = [await online(server, account) for account in accounts]
        table = (await create(players[0], seats=4))["table"]["id"]
        for player in players[1:]:
            await join(player, table)
        await seed_and_start(players)
        by_seat = {p.state["you"]: p for p in players if p.state is not None}
        account_at = {seat: accounts[players.index(p)] for seat, p in by_seat.items()}
        at_start = {seat: balance_of(server, a.token) for seat, a in account_at.items()}
        elsewhere: dict[str, Any] = {}

        async def desert(player: Player, opens: bool) -> None:
            await play(player, lambda s: s["moves"] >= LEAVE_AFTER_MOVES, random.Random(5))
            await leave(player)
            if opens:
                elsewhere.update(await create(player, None))
                await leave(player)

        await asyncio.gather(
            desert(by_seat[0], True),
            desert(by_seat[1], False),
            *(play(by_seat[seat], game_over, random.Random(20 + seat)) for seat in (2, 3)),
        )
        end = await finished(by_seat[2])
        after = {seat: balance_of(server, a.token) for seat, a in account_at.items()}
        histories = {
            seat: next(g for g in games(server, a.token) if g["table"] == table)
            for seat, a in account_at.items()
        }
        for player in players:
            await player.close()
        return Deserted(
            account_at,
            {0, 1},
            list(end["result"]["winners"]),
            end,
            at_start,
            after,
            histories,
            elsewhere,
            table,
        )

    return run(scenario())  # type: ignore[no-any-return]


def test_every_seat_of_a_four_seat_coin_table_stakes(deserted: Deserted) -> None:
    assert deserted.at_start == dict.fromkeys(range(4), 1000 - STAKE)


def test_the_seats_left_mid_game_show_as_left(deserted: Deserted) -> None:
    assert {s["seat"] for s in deserted.end["seats"] if s["left"]} == deserted.left


def test_a_side_of_two_wins(deserted: Deserted) -> None:
    assert sorted(deserted.winners) in ([0, 2], [1, 3])


def test_a_winner_who_left_gets_nothing(deserted: Deserted) -> None:
    (leaver,) = set(deserted.winners) & deserted.left  # one leaver was on each side
    assert deserted.after[leaver] == 1000 - STAKE
    assert str(leaver) not in deserted.end["coins"]["paid"]


def test_the_winner_who_stayed_gets_half_the_pot_less_the_fee(deserted: Deserted) -> None:
    (stayer,) = set(deserted.winners) - deserted.left
    assert deserted.after[stayer] == 1000 - STAKE + 180


def test_the_losers_lose_their_stake(deserted: Deserted) -> None:
    for seat in set(range(4)) - set(deserted.winners):
        assert deserted.after[seat] == 1000 - STAKE


def test_the_settlement_of_a_game_left_mid_way_follows_the_rules(deserted: Deserted) -> None:
    paid = settlement(STAKE, [0, 1, 2, 3], deserted.winners, deserted.left)
    coins = deserted.end["coins"]
    assert (coins["stake"], coins["pot"], coins["fee"]) == (STAKE, 4 * STAKE, 40)
    assert coins["paid"] == {str(s): n for s, n in paid.items()}
    assert coins["net"] == {str(s): paid.get(s, 0) - STAKE for s in range(4)}


def test_the_house_keeps_the_share_of_a_winner_who_left(server: Server, deserted: Deserted) -> None:
    assert house_share(server, deserted.table) == 40 + 180


def test_a_leavers_history_says_it_left_and_lost_its_stake(deserted: Deserted) -> None:
    for seat in deserted.left:
        history = deserted.histories[seat]
        assert (history["left"], history["stake"], history["coins"]) == (True, STAKE, -STAKE)


def test_a_player_who_left_a_coin_game_may_open_another_table(deserted: Deserted) -> None:
    assert deserted.elsewhere["table"]["id"] != deserted.table
    assert deserted.elsewhere["table"]["kind"] == "free"


# -- last: the ledger's audit -------------------------------------------------------------


def test_the_ledger_audit_finds_the_ledger_balanced(
    server: Server, duel: Duel, deserted: Deserted, matched: Matched
) -> None:
    # After every game of the module (the fixtures are asked for, so they have run).
    where = (
        ["--database-url", server.database_url]
        if server.database_url
        else ["--data-dir", str(server.data_dir)]
    )
    done = subprocess.run(
        [sys.executable, "-m", "sahrat.cli.main", "ledger", "audit", *where],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1].endswith(", balanced")
