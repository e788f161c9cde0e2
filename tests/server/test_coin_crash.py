"""Coin tables survive ``kill -9``: the ledger balances after every crash, and every game
that took stakes ends settled exactly once, whatever moment the server died at.

A real server plays 25 coin tables (Jackaroo for two and for four, Buraco for two to
1000) in rounds of three or four at once, each seat a WebSocket client of a registered
account playing random legal moves; some players leave mid-game, some never come back
after a crash. Each round the server is killed with SIGKILL at a seeded moment: while a
table fills, around the last seat's join (the stakes move to escrow then), at a random
move of play, or the instant a seat is shown a game's result before its end is stored
(between the last move and the settlement). After each kill ``sahrat ledger audit`` (the
real command, in a subprocess) checks the database the crash left, the server is started
again on it, and the clients come back with their tokens. At the end every account's
balance is worked out again from the games' logs and records: the grant, less the stakes
taken, plus the shares of the pots by the rules (10% fee rounded down, the winners share
the rest, a winner who left gets nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from sahrat.server.schema import events, game_tables, ledger_accounts, records, transfers
from sahrat.server.store import make_engine
from tests.server.conftest import database
from tests.server.harness import Account, Player, Server, balance_of, new_account, run

#: On SQLite and on PostgreSQL.
pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.long]

GRANT = 1000
FEE_PERCENT = 10
#: Short clocks and graces so that absent players become leavers within a round; no
#: limits on accounts and logins from the test's one address.
SETTINGS: dict[str, object] = {
    "turn_seconds": 2.0,
    "min_turn_seconds": 0.5,
    # Long enough for a client to come back after a restart on a busy machine (a
    # parallel run shares the cores), short enough that the absent become leavers.
    "grace_seconds": 6.0,
    "waiting_grace_seconds": 6.0,
    "finished_linger": 1.0,
    "starting_grant": GRANT,
    "accounts_burst": 100_000,
    "logins_burst": 100_000,
}
ACCOUNTS = 12
Kind = tuple[str, int, dict[str, Any]]
J2: Kind = ("jackaroo", 2, {})
J4: Kind = ("jackaroo", 4, {})
#: The lowest target Buraco offers (``GET /api/games``), so a match ends in a few seconds.
B2: Kind = ("buraco", 2, {"target": 1000})
#: Each round: how the server is killed, and the tables played at once.
ROUNDS: list[tuple[str, list[Kind]]] = [
    ("filling", [J2, J2, J4]),
    ("stakes", [J2, J4, J2]),
    ("playing", [J2, J2, B2]),
    ("end", [J2, J2, J2, J4]),
    ("stakes", [J2, J2, J2]),
    ("end", [J4, J2, B2]),
    ("playing", [J2, J4, J2]),
    ("end", [J2, J2, J4]),
]
#: Rounds of the end kind kill at the first two results shown before the end is stored.
END_KILLS = 2
#: Error codes a seat may be sent in a game that restarts under it (a move sent on a
#: position that moved on, or after the clock played for it); anything else is a failure.
HARMLESS = {"stale", "not_your_turn", "wrong_phase", "not_seated"}


@dataclass
class Slot:
    """One coin table of a round, from its creation to its end."""

    game: str
    seats: int
    options: dict[str, Any]
    stake: int
    accounts: list[Account]
    #: Players who send ``leave`` once the game has reached this many moves.
    leave_at: dict[str, int]
    table: str | None = None
    creating: bool = False
    created: asyncio.Event = field(default_factory=asyncio.Event)
    #: Players who were told they left (their ``left`` event is stored).
    left: set[str] = field(default_factory=set)
    #: Players who never came back after a kill.
    vanished: set[str] = field(default_factory=set)
    #: Players who saw the finished table.
    finished: set[str] = field(default_factory=set)
    #: What a finished table's message told the seats about the pot.
    coins: dict[str, Any] | None = None

    def active(self) -> list[Account]:
        gone = self.left | self.vanished | self.finished
        return [a for a in self.accounts if a.id not in gone]


@dataclass
class Kill:
    mode: str
    round: int
    table: str | None = None
    #: For a kill around the last join or the result: had the stakes (the settlement)
    #: been stored when the server died?
    stored: bool | None = None
    #: Coin tables by status in the database the crash left.
    statuses: dict[str, int] = field(default_factory=dict)


@dataclass
class Crashed:
    backend: str
    seconds: float
    slots: list[Slot]
    kills: list[Kill]
    #: ``(after kill n / restart n / the end, exit status, last line)``.
    audits: list[tuple[str, int, str]]
    errors: Counter[str]
    #: Every coin table in the database: status, stakes and settlements taken.
    tables: dict[str, tuple[str, int, int]]
    #: Per table that took stakes: the seat -> player of the stakes, winners, seats left.
    games: dict[str, tuple[int, dict[int, str], list[int], set[int]]]
    balances: dict[str, int]  # ledger accounts
    me: dict[str, int]  # GET /api/me
    house: int
    #: Full tables a restart left waiting (see :meth:`Scenario.expect_begun`).
    stuck: list[str]


# -- the server and the database --------------------------------------------------------


def audit(server: Server) -> tuple[int, str]:
    """``sahrat ledger audit`` on the server's database: its exit status and last line."""
    command = [sys.executable, "-m", "sahrat.cli.main", "ledger", "audit"]
    if server.database_url:
        command += ["--database-url", server.database_url]
    else:
        command += ["--data-dir", str(server.data_dir)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines() or [done.stderr.strip()]
    return done.returncode, lines[-1]


def engine_of(server: Server) -> Engine:
    return make_engine(server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}")


def status_of(engine: Engine, table: str) -> str | None:
    """``waiting``, ``started`` (seeding or playing), ``finished`` or ``closed``: the row
    keeps only the first and the last two, the log says whether the game started."""
    with engine.connect() as c:
        found = c.execute(select(game_tables.c.status).where(game_tables.c.id == table)).scalar()
        if found == "waiting":
            started = c.execute(
                select(events.c.seq).where(events.c.table_id == table, events.c.kind == "commit")
            ).first()
            return "started" if started else "waiting"
    return None if found is None else str(found)


def transfer_count(engine: Engine, key_prefix: str) -> int:
    with engine.connect() as c:
        query = select(func.count()).where(transfers.c.key.startswith(key_prefix))
        return int(c.execute(query.select_from(transfers)).scalar_one())


def seated_in_log(engine: Engine, table: str) -> dict[int, str]:
    """Who sits where at a table, by its event log."""
    seated: dict[int, str] = {}
    with engine.connect() as c:
        rows: Any = c.execute(
            select(events.c.kind, events.c.data)
            .where(events.c.table_id == table, events.c.kind.in_(("seat", "unseat")))
            .order_by(events.c.seq)
        ).all()
    for kind, data in rows:
        fields = json.loads(data)
        if kind == "seat":
            seated[fields["seat"]] = fields["player"]
        else:
            seated.pop(fields["seat"], None)
    return seated


def coin_statuses(engine: Engine) -> dict[str, int]:
    """How many coin tables are waiting, started, finished or closed."""
    with engine.connect() as c:
        ids: Any = c.execute(select(game_tables.c.id).where(game_tables.c.stake > 0)).all()
    return dict(Counter(str(status_of(engine, table)) for (table,) in ids))


# -- a seat ------------------------------------------------------------------------------


class Crasher:
    """Kills the server, at most once per life, when a trigger fires."""

    def __init__(self, server: Server, rng: random.Random) -> None:
        self.server = server
        self.rng = rng
        self.alive = True
        self.kills: list[Kill] = []
        self.round = 0
        #: Kill the next time a seat is shown a result before the end is stored.
        self.at_result = False
        #: Kill the next time a seat is shown a game in play past this many moves.
        self.at_moves: int | None = None
        #: A kill a trigger set off, a few milliseconds on.
        self.pending: asyncio.Task[None] | None = None

    def kill(self, mode: str, table: str | None = None) -> None:
        if self.alive:
            self.server.kill()
            self.alive = False
            self.kills.append(Kill(mode, self.round, table))

    def later(self, delay: float, mode: str, table: str | None) -> None:
        async def kill() -> None:
            await asyncio.sleep(delay)
            self.kill(mode, table)

        self.pending = asyncio.create_task(kill())

    async def settled(self) -> None:
        """Wait for a kill a trigger set off (the seats may all be done before it lands)."""
        if self.pending is not None:
            await self.pending
            self.pending = None

    def saw(self, message: dict[str, Any]) -> None:
        if self.at_result and "result" in message and message["table"]["status"] == "playing":
            self.at_result = False
            # At once, or a few milliseconds on: while the end is being stored, or just after.
            delay = self.rng.choice((0.0, self.rng.uniform(0.0, 0.02)))
            self.later(delay, "end", message["table"]["id"])
        at = self.at_moves
        if at is not None and message["table"]["status"] == "playing" and message["moves"] >= at:
            self.at_moves = None
            delay = self.rng.uniform(0.0, 0.05)
            self.later(delay, "playing", None)


async def seat(
    player: Player,
    account: Account,
    slot: Slot,
    rng: random.Random,
    crash: Crasher,
    errors: Counter[str],
    engine: Engine,
) -> None:
    """Play this account's seat with random legal moves until the game is over for it,
    it has left, or the connection is gone."""
    acted = -1
    leaving = False
    with contextlib.suppress(Exception):  # a send to a killed server: the loop ends below
        while True:
            try:
                message = await asyncio.wait_for(player.messages.get(), 2.0)
            except TimeoutError:
                # A game whose last move was stored before a kill ends as the server starts
                # again, before its players are back: they are sent nothing more.
                if slot.table and await asyncio.to_thread(status_of, engine, slot.table) == (
                    "finished"
                ):
                    slot.finished.add(account.id)
                    return
                continue
            kind = message["type"]
            if kind == "_closed":
                return
            if kind == "seed_request":
                await player.send(type="seed", seed=f"s{rng.getrandbits(48):x}")
            elif kind == "left":
                slot.left.add(account.id)
                return
            elif kind == "error":
                errors[message["code"]] += 1
            elif kind == "table":
                info = message["table"]
                if slot.table is None and slot.creating and info["status"] == "waiting":
                    slot.table = info["id"]
                    slot.created.set()
                if info["id"] != slot.table:
                    continue
                crash.saw(message)
                if info["status"] == "finished":
                    slot.finished.add(account.id)
                    slot.coins = message.get("coins")
                    return
                moves = message["moves"]
                at = slot.leave_at.get(account.id)
                if at is not None and not leaving and info["status"] == "playing" and moves >= at:
                    leaving = True
                    await player.send(type="leave")
                    continue
                legal = message.get("legal")
                if legal and not leaving and moves > acted and message["to_move"] == message["you"]:
                    acted = moves
                    await player.send(type="act", action=rng.choice(legal), moves=moves)


# -- the scenario ------------------------------------------------------------------------


class Scenario:
    def __init__(self, server: Server, backend: str) -> None:
        self.server = server
        self.backend = backend
        self.rng = random.Random(f"coin-crash-{backend}")
        self.crash = Crasher(server, random.Random(self.rng.getrandbits(64)))
        self.engine = engine_of(server)
        self.accounts: list[Account] = []
        self.slots: list[Slot] = []
        self.audits: list[tuple[str, int, str]] = []
        self.errors: Counter[str] = Counter()
        self.players: dict[str, Player] = {}
        self.loops: list[asyncio.Task[None]] = []
        #: Full tables a restart left waiting for ever (see :meth:`expect_begun`).
        self.stuck: list[str] = []

    async def register(self) -> None:
        for i in range(ACCOUNTS):
            account = await asyncio.to_thread(new_account, self.server, f"crash {i}")
            assert await asyncio.to_thread(balance_of, self.server, account.token) == GRANT
            self.accounts.append(account)

    async def connect(self, slot: Slot, account: Account) -> Player:
        player = Player(self.server, account.name)
        await player.connect(token=account.token)
        self.players[account.id] = player
        rng = random.Random(self.rng.getrandbits(64))
        self.loops.append(
            asyncio.create_task(
                seat(player, account, slot, rng, self.crash, self.errors, self.engine)
            )
        )
        return player

    def new_slot(self, game: str, seats: int, options: dict[str, Any], taken: set[str]) -> Slot:
        free = [a for a in self.accounts if a.id not in taken]
        chosen = self.rng.sample(free, seats)
        taken.update(a.id for a in chosen)
        leave_at: dict[str, int] = {}
        draw = self.rng.random()
        if draw < 0.1:  # everyone leaves: the server plays the game out at once
            leave_at = {a.id: self.rng.randint(1, 30) for a in chosen}
        elif draw < 0.4:
            leave_at = {self.rng.choice(chosen).id: self.rng.randint(1, 60)}
        stake = self.rng.choice((50, 100))
        return Slot(game, seats, options, stake, chosen, leave_at)

    async def fill(self, slot: Slot, mode: str | None) -> None:
        """Create the table (unless it exists) and seat whoever is not seated; ``mode``
        ``filling`` kills before the last seat's join, ``stakes`` just after it."""
        players = [self.players[a.id] for a in slot.accounts]
        if slot.table is None:
            slot.creating, slot.created = True, asyncio.Event()
            await players[0].send(type="create", game=slot.game, seats=slot.seats,
                                  options=slot.options, stake=slot.stake)  # fmt: skip
            await asyncio.wait_for(slot.created.wait(), 15)
            slot.creating = False
            joiners = players[1:]
        else:
            seated = await asyncio.to_thread(self.seated, slot)
            joiners = [p for a, p in zip(slot.accounts, players, strict=True)
                       if a.id not in seated and a in slot.active()]  # fmt: skip
        stop = self.rng.randrange(len(joiners)) if mode == "filling" and joiners else None
        for n, player in enumerate(joiners):
            if n == stop:
                self.crash.kill("filling", slot.table)
                return
            await player.send(type="join", table=slot.table)
        if mode == "stakes":
            await asyncio.sleep(self.rng.uniform(0.0, 0.03))
            self.crash.kill("stakes", slot.table)

    def seated(self, slot: Slot) -> set[str]:
        """The slot's players the server has at its table (``GET /api/me``)."""
        return {
            a.id
            for a in slot.accounts
            if self.server.get("/api/me", a.token).get("table") == slot.table
        }

    async def after_kill(self, slots: list[Slot]) -> None:
        """Audit what the crash left, start the server again, audit, bring the players back."""
        await self.played()
        self.loops = []
        for player in self.players.values():
            await player.close()
        self.players = {}
        kill = self.crash.kills[-1]
        n = len(self.crash.kills)
        if kill.table is not None and kill.mode == "stakes":
            kill.stored = transfer_count(self.engine, f"stake:{kill.table}:") > 0
        if kill.table is not None and kill.mode == "end":
            kill.stored = transfer_count(self.engine, f"settle:{kill.table}") > 0
        kill.statuses = coin_statuses(self.engine)
        self.audits.append((f"after kill {n}", *await asyncio.to_thread(audit, self.server)))
        await asyncio.to_thread(self.server.start)
        self.crash.alive = True
        self.audits.append((f"restart {n}", *await asyncio.to_thread(audit, self.server)))
        for slot in slots:
            status = None if slot.table is None else status_of(self.engine, slot.table)
            if status == "finished":  # settled before the kill: nothing to come back to
                slot.finished.update(a.id for a in slot.active())
                continue
            if status == "started":
                # Some players never come back: the grace runs out and the server plays on.
                for account in slot.active():
                    if self.rng.random() < 0.12:
                        slot.vanished.add(account.id)
            if status == "waiting":
                await self.expect_begun(slot)
                status = status_of(self.engine, slot.table)
            for account in slot.active():
                await self.connect(slot, account)
            if slot.table is None:
                creator = slot.accounts[0]
                found = self.server.get("/api/me", creator.token).get("table")
                slot.table = found  # the table was made, but its message was lost
            if status in (None, "waiting", "closed"):
                if status == "closed":
                    slot.table = None
                await self.fill(slot, None)

    async def expect_begun(self, slot: Slot) -> None:
        """A table left full but waiting by a kill between its last seat and its commitment
        must begin by itself once the server is back; one still waiting is a failure."""
        assert slot.table is not None
        if len(seated_in_log(self.engine, slot.table)) < slot.seats:
            return
        for _ in range(50):
            if status_of(self.engine, slot.table) != "waiting":
                return
            await asyncio.sleep(0.1)
        self.stuck.append(slot.table)
        raise AssertionError(f"table {slot.table} is full but never began after the restart")

    async def play_round(self, number: int, mode: str, kinds: list[Any]) -> None:
        self.crash.round = number
        taken: set[str] = set()
        slots = [self.new_slot(game, seats, options, taken) for game, seats, options in kinds]
        self.slots += slots
        for slot in slots:
            for account in slot.accounts:
                await self.connect(slot, account)
        target = self.rng.randrange(len(slots))
        for n, slot in enumerate(slots):
            if not self.crash.alive:
                break
            await self.fill(slot, mode if n == target and mode in ("filling", "stakes") else None)
        if not self.crash.alive:
            await self.after_kill(slots)
        kills = END_KILLS if mode == "end" else 1 if mode == "playing" else 0
        for _ in range(kills):
            if mode == "end":
                self.crash.at_result = True
            else:
                self.crash.at_moves = self.rng.randint(5, 100)
            await self.played()
            self.crash.at_result, self.crash.at_moves = False, None
            await self.crash.settled()
            if self.crash.alive:
                break  # every seat's game was over first
            await self.after_kill(slots)
        await self.played()
        self.loops = []
        await self.wait_finished(slots)
        for player in self.players.values():
            await player.close()
        self.players = {}

    async def played(self) -> None:
        """Every seat loop has ended (its game is over for it, or the server is gone)."""
        try:
            await asyncio.wait_for(asyncio.gather(*self.loops), 120)
        except TimeoutError:
            stuck = [
                (s.table, s.table and status_of(self.engine, s.table), [a.name for a in s.active()])
                for s in self.slots
                if s.active()
            ]
            raise AssertionError(f"seats still waiting: {stuck}") from None

    async def wait_finished(self, slots: list[Slot]) -> None:
        """Tables whose players all left are played out by the server."""
        deadline = time.monotonic() + 90
        while True:
            open_ = [
                s.table for s in slots if s.table and status_of(self.engine, s.table) != "finished"
            ]
            if not open_:
                return
            assert time.monotonic() < deadline, f"tables never finished: {open_}"
            await asyncio.sleep(0.2)

    async def run(self) -> None:
        await self.register()
        for number, (mode, kinds) in enumerate(ROUNDS):
            await self.play_round(number, mode, kinds)
        self.audits.append(("the end", *await asyncio.to_thread(audit, self.server)))

    def outcome(self, seconds: float) -> Crashed:
        tables: dict[str, tuple[str, int, int]] = {}
        games: dict[str, tuple[int, dict[int, str], list[int], set[int]]] = {}
        with self.engine.connect() as c:
            rows: Any = c.execute(
                select(game_tables.c.id, game_tables.c.status, game_tables.c.stake).where(
                    game_tables.c.stake > 0
                )
            ).all()
            for table_id, status, stake in rows:
                kinds = Counter(
                    str(kind)
                    for (kind,) in c.execute(
                        select(transfers.c.kind).where(transfers.c.table_id == table_id)
                    )
                )
                tables[table_id] = (str(status), kinds["stake"], kinds["settle"])
                log: Any = c.execute(
                    select(events.c.kind, events.c.data)
                    .where(events.c.table_id == table_id)
                    .order_by(events.c.seq)
                ).all()
                seated: dict[int, str] = {}
                staked: dict[int, str] | None = None
                left: set[int] = set()
                for kind, data in log:
                    fields = json.loads(data)
                    assert kind != "assign", "the clients never change seats"
                    if kind == "seat":
                        seated[fields["seat"]] = fields["player"]
                    elif kind == "unseat":
                        seated.pop(fields["seat"], None)
                    elif kind == "commit":
                        staked = dict(seated)
                    elif kind == "left":
                        left.add(fields["seat"])
                if staked is None:
                    continue
                record: Any = c.execute(
                    select(records.c.record).where(records.c.table_id == table_id)
                ).scalar()
                winners = [] if record is None else json.loads(record)["result"]["winners"]
                games[table_id] = (int(stake), staked, winners, left)
            held: Any = c.execute(select(ledger_accounts.c.id, ledger_accounts.c.balance)).all()
            balances = {str(account): int(coins) for account, coins in held}
        me = {a.id: balance_of(self.server, a.token) for a in self.accounts}
        return Crashed(
            self.backend, seconds, self.slots, self.crash.kills, self.audits, self.errors,
            tables, games, balances, me, balances.get("house", 0), self.stuck,
        )  # fmt: skip


@pytest.fixture(scope="module")
def crashed(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crashed]:
    with database(backend) as url:
        server = Server(tmp_path_factory.mktemp("coin-crash"), url, **SETTINGS).start()
        scenario = Scenario(server, backend)
        try:
            began = time.monotonic()
            run(scenario.run(), timeout=400)
            outcome = scenario.outcome(time.monotonic() - began)
        finally:
            server.stop()
            scenario.engine.dispose()
        report(outcome, server.log)
        yield outcome


def report(o: Crashed, log: Path) -> None:
    kinds = Counter(f"{s.game}{s.seats}" for s in o.slots)
    modes = Counter(k.mode for k in o.kills)
    stored = Counter((k.mode, k.stored) for k in o.kills if k.stored is not None)
    print(f"\ncoin crash on {o.backend}: {len(o.slots)} games ({dict(kinds)}) in {o.seconds:.0f} s")
    print(f"  kills {len(o.kills)}: {dict(modes)}")
    print(f"  stakes stored at a kill around the last join: {stored[('stakes', True)]}, "
          f"not yet: {stored[('stakes', False)]}")  # fmt: skip
    print(f"  settlement stored at a kill on a shown result: {stored[('end', True)]}, "
          f"not yet: {stored[('end', False)]}")  # fmt: skip
    for k in o.kills:
        print(f"    round {k.round} {k.mode}: stored {k.stored}, coin tables {k.statuses}")
    settled = sum(s for _, _, s in o.tables.values())
    print(f"  settlements {settled}, tables that took stakes {len(o.games)}")
    print(f"  left: {sum(len(s.left) for s in o.slots)} told, "
          f"vanished: {sum(len(s.vanished) for s in o.slots)}")  # fmt: skip
    print(f"  errors sent to seats: {dict(o.errors)}")
    print(f"  full tables a restart left waiting: {len(o.stuck)}")
    for when, status, line in o.audits:
        if when == "the end" or when.startswith("after kill 1") or status:
            print(f"  audit {when}: exit {status}: {line}")
    print(f"  audits run {len(o.audits)}, all balanced: {all(s == 0 for _, s, _ in o.audits)}")
    print(f"  server log: {log}")


# -- what the crashes left ----------------------------------------------------------------


def expected(games: dict[str, tuple[int, dict[int, str], list[int], set[int]]]) -> tuple[
    dict[str, int], int
]:  # fmt: skip
    """Each player's coins and the house's, by the rules, from the games' logs and records."""
    coins: Counter[str] = Counter()
    house = 0
    for stake, players, winners, left in games.values():
        pot = stake * len(players)
        fee = pot * FEE_PERCENT // 100
        sharing = [s for s in players if s in winners] or list(players)
        share = (pot - fee) // len(sharing)
        paid = {s: share for s in sharing if s not in left}
        for seat_number, player in players.items():
            coins[player] += paid.get(seat_number, 0) - stake
        house += pot - sum(paid.values())
    return dict(coins), house


def test_the_audit_is_balanced_after_every_kill_and_every_restart(crashed: Crashed) -> None:
    assert len(crashed.audits) == 2 * len(crashed.kills) + 1
    for when, status, line in crashed.audits:
        assert (when, status) == (when, 0), line
        assert line.endswith("balanced"), (when, line)


def test_the_server_was_killed_before_the_stakes_around_them_in_play_and_at_the_end(
    crashed: Crashed,
) -> None:
    modes = Counter(k.mode for k in crashed.kills)
    assert modes["filling"] >= 1
    assert modes["stakes"] >= 2
    assert modes["playing"] >= 2
    assert modes["end"] >= 3
    assert len(crashed.kills) >= 10


def test_about_twenty_five_games_of_both_games_and_sizes_were_played(crashed: Crashed) -> None:
    kinds = Counter((s.game, s.seats) for s in crashed.slots)
    assert kinds[("jackaroo", 2)] >= 15 and kinds[("jackaroo", 4)] >= 5
    assert kinds[("buraco", 2)] >= 2
    assert all(s.table is not None for s in crashed.slots)


def test_every_table_that_took_stakes_finished_and_was_settled_once(crashed: Crashed) -> None:
    for table_id, (status, stakes, settlements) in crashed.tables.items():
        if stakes:
            assert (table_id, status, settlements) == (table_id, "finished", 1)
            assert table_id in crashed.games
        else:
            assert settlements == 0 and status != "finished", table_id


def test_every_table_played_took_every_seats_stake(crashed: Crashed) -> None:
    for slot in crashed.slots:
        assert slot.table is not None
        status, stakes, settlements = crashed.tables[slot.table]
        assert (status, stakes, settlements) == ("finished", slot.seats, 1)
        staked = crashed.games[slot.table][1]
        assert sorted(staked.values()) == sorted(a.id for a in slot.accounts)


def test_every_balance_is_the_grant_less_the_stakes_plus_the_payouts(crashed: Crashed) -> None:
    coins, _ = expected(crashed.games)
    for player, held in crashed.me.items():
        assert held == GRANT + coins.get(player, 0), player
        assert crashed.balances[f"player:{player}"] == held


def test_the_house_holds_every_fee_and_every_share_nobody_took(crashed: Crashed) -> None:
    _, house = expected(crashed.games)
    assert crashed.house == house > 0


def test_no_coins_are_left_in_escrow(crashed: Crashed) -> None:
    held = {a: b for a, b in crashed.balances.items() if a.startswith("escrow:") and b}
    assert held == {}


def test_the_coins_of_every_account_sum_to_what_was_granted(crashed: Crashed) -> None:
    assert sum(crashed.balances.values()) == 0
    assert crashed.balances["grants"] == -GRANT * ACCOUNTS


def test_only_players_who_left_or_never_came_back_are_marked_left(crashed: Crashed) -> None:
    marked_any = False
    for slot in crashed.slots:
        assert slot.table is not None
        _, players, _, left = crashed.games[slot.table]
        marked = {players[s] for s in left}
        assert marked <= set(slot.leave_at) | slot.vanished
        assert slot.left <= marked
        marked_any = marked_any or bool(marked)
    assert marked_any


def test_what_the_seats_were_shown_is_what_they_were_paid(crashed: Crashed) -> None:
    shown = 0
    for slot in crashed.slots:
        if slot.coins is None:
            continue
        assert slot.table is not None
        one = {slot.table: crashed.games[slot.table]}
        _, players, _, _ = one[slot.table]
        coins, _ = expected(one)
        assert {int(s): n for s, n in slot.coins["net"].items()} == {
            s: coins[p] for s, p in players.items()
        }
        shown += 1
    assert shown >= len(crashed.slots) // 2


def test_no_seat_was_refused_for_anything_but_timing(crashed: Crashed) -> None:
    assert set(crashed.errors) <= HARMLESS, crashed.errors


# -- a kill between a table's last seat and its commitment ---------------------------------


def test_a_table_full_when_the_server_died_starts_after_the_restart(
    database_url: str, tmp_path: Path
) -> None:
    """The server stores the last seat's join, then the commitment with the stakes, in two
    transactions; killed between them it leaves a full table that is still waiting. This
    writes that state as the server would have (the join of the last seat, by the
    server's own store) while the server is down, then starts it again."""
    from sahrat.server.store import Store, append_event
    from sahrat.server.table.events import Seated

    server = Server(tmp_path, database_url, **SETTINGS).start()

    async def scenario() -> dict[str, Any]:
        made = [await asyncio.to_thread(new_account, server) for _ in range(2)]
        first = Player(server, made[0].name)
        await first.connect(token=made[0].token)
        await first.send(type="create", game="jackaroo", seats=2, stake=50)
        waiting = await first.expect("table")
        await first.close()
        server.kill()
        table = waiting["table"]["id"]
        free = next(s["seat"] for s in waiting["seats"] if s.get("empty"))
        store = Store(database_url or f"sqlite:///{tmp_path / 'sahrat.db'}")
        try:
            join = Seated(free, made[1].id, made[1].name, False)
            with store.engine.begin() as c:
                append_event(c, table, waiting["seq"] + 1, join.KIND, join.data(), time.time())
        finally:
            store.close()
        await asyncio.to_thread(server.start)
        players = [Player(server, account.name) for account in made]
        for player, account in zip(players, made, strict=True):
            await player.connect(token=account.token)
        try:
            return await players[0].expect("seed_request", timeout=10)
        finally:
            for player in players:
                await player.close()

    try:
        assert run(scenario(), timeout=60)["commitment"]
    finally:
        server.stop()
