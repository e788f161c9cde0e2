"""The ledger under concurrent writers: what the database guarantees when many
transactions move the same coins at the same moment.

Threads released together behind a barrier, each on a connection of its own, post
transfers with :func:`sahrat.server.ledger.book.post` and the server's own event writer
(:func:`sahrat.server.store.append_event`): fifty coin tables settled at once while
daily grants and new tables' stakes land beside them, every settlement and grant tried
twice; a player with coins for one stake staking at two tables at once; and, on a real
server, one account's two browser tabs asking for two seats at the same instant. The
point is PostgreSQL, whose row locks and unique index decide; SQLite runs the same
checks with its one writer at a time.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, func, insert, select, update

from sahrat.server.ledger import book
from sahrat.server.ledger.audit import audit
from sahrat.server.ledger.book import AlreadyDone, Insufficient
from sahrat.server.ledger.transfers import (
    HOUSE,
    daily_grant,
    escrow_account,
    player_account,
    settle,
    settlement_transfer,
    stakes,
    starting_grant,
)
from sahrat.server.schema import entries, events, game_tables, transfers
from sahrat.server.store import Store, append_event, make_engine
from tests.server.conftest import database
from tests.server.harness import Player, Server, balance_of, new_account, run

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

THREADS = 24
GRANT = 1000
DAILY = 200
STAKE = 100


@contextlib.contextmanager
def ledger(backend: str, directory: Path) -> Iterator[Engine]:
    """A new database of the backend with the server's schema (``Store.migrate``), and an
    engine with a connection for every thread (PostgreSQL), or the server's own (SQLite:
    one writer at a time, the others wait for it)."""
    with database(backend) as url:
        url = url or f"sqlite:///{directory / 'ledger.db'}"
        store = Store(url)
        store.migrate()
        store.close()
        if url.startswith("sqlite"):
            engine = make_engine(url)
        else:
            engine = create_engine(url, pool_size=THREADS, max_overflow=0)
        try:
            yield engine
        finally:
            engine.dispose()


#: How many refused copies got past the look for an existing key (counted by :func:`at_once`).
raced = [0]


def at_once(jobs: Sequence[Callable[[], object]], threads: int = THREADS) -> list[str]:
    """Run the jobs on ``threads`` threads released together, each job in turn taken by
    the first free thread; each job's outcome: ``done``, ``AlreadyDone``, ``Insufficient``,
    or any other exception, named."""
    barrier = threading.Barrier(threads)
    queue = collections.deque(enumerate(jobs))
    lock = threading.Lock()
    outcomes = [""] * len(jobs)

    def work() -> None:
        barrier.wait()
        while True:
            with lock:
                if not queue:
                    return
                n, job = queue.popleft()
            try:
                job()
                outcomes[n] = "done"
            except (AlreadyDone, Insufficient) as error:
                outcomes[n] = type(error).__name__
                if isinstance(error, AlreadyDone) and error.__cause__ is not None:
                    raced[0] += 1  # both looked before either wrote: the unique key decided
            except Exception as error:
                outcomes[n] = f"{type(error).__name__}: {error}"

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return outcomes


def add_table(engine: Engine, table_id: str, seats: int, stake: int = STAKE) -> None:
    with engine.begin() as c:
        c.execute(
            insert(game_tables).values(
                id=table_id, game="jackaroo", options="{}", seats=seats, kind="coin",
                status="waiting", created_at=time.time(), stake=stake,
            )
        )  # fmt: skip


def balances(engine: Engine, players: Sequence[str]) -> dict[str, int]:
    with engine.connect() as c:
        return {p: book.balance(c, player_account(p)) for p in players}


def count(engine: Engine, **where: str) -> int:
    query = select(func.count()).select_from(transfers)
    for column, value in where.items():
        query = query.where(transfers.c[column] == value)
    with engine.connect() as c:
        return int(c.execute(query).scalar_one())


# -- fifty settlements at once ------------------------------------------------------------


@dataclass
class Storm:
    outcomes: dict[str, list[str]]  # by kind of job
    players: list[str]
    expected: dict[str, int]  # each player's coins, by the test's own arithmetic
    house: int
    settled: list[str]
    opened: list[str]  # tables whose stakes were taken during the storm
    seconds: float
    raced: int  # copies refused by the unique key, after both had looked for it


TABLES = 50
PLAYERS = 40


@pytest.fixture(scope="module")
def storm_engine(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with ledger(backend, tmp_path_factory.mktemp("storm")) as engine:
        yield engine


@pytest.fixture(scope="module")
def storm(storm_engine: Engine) -> Storm:
    """Fifty four-seat tables staked; then, at once: each settled twice, each player's
    daily grant claimed twice, and twenty new two-seat tables' stakes taken."""
    engine = storm_engine
    rng = random.Random(7)
    at = time.time()
    players = [f"p{n:02d}" for n in range(PLAYERS)]
    expected = dict.fromkeys(players, GRANT)
    with engine.begin() as c:
        book.open_house(c)
        for player in players:
            book.post(c, starting_grant(player, GRANT), at)
    settled, settlements = [], []
    house = 0
    for n in range(TABLES):
        table = f"tsettle{n:02d}"
        # Each player at five tables: 500 of its 1000 coins staked.
        seated = {k: players[(4 * n + k) % PLAYERS] for k in range(4)}
        add_table(engine, table, 4)
        with engine.begin() as c:
            for transfer in stakes(table, STAKE, seated):
                book.post(c, transfer, at)
        side = rng.choice(((0, 2), (1, 3)))
        left = {rng.choice(side)} if rng.random() < 0.3 else set()
        settlements.append(
            settlement_transfer(table, settle(STAKE, (0, 1, 2, 3), side, left), seated)
        )
        # The rules, worked out here: the fee rounded down, the winners' equal shares,
        # nothing for a winner who left, the rest the house's.
        pot = STAKE * 4
        share = (pot - pot * 10 // 100) // len(side)
        for seat_number, player in seated.items():
            won = share if seat_number in side and seat_number not in left else 0
            expected[player] += won - STAKE
        house += pot - share * len([s for s in side if s not in left])
        settled.append(table)
    day = datetime.date(2026, 1, 1)
    grants = [daily_grant(p, DAILY, day) for p in players]
    for player in players:
        expected[player] += DAILY
    opened, openings = [], []
    fresh = rng.sample(players, 40)
    for n in range(20):
        table = f"topen{n:02d}"
        seated = {0: fresh[2 * n], 2: fresh[2 * n + 1]}
        add_table(engine, table, 2)
        openings.append((table, seated))
        for player in seated.values():
            expected[player] -= STAKE
        opened.append(table)

    def settle_job(transfer: Any) -> Callable[[], None]:
        def job() -> None:
            with engine.begin() as c:
                book.post(c, transfer, time.time())
                c.execute(
                    update(game_tables)
                    .where(game_tables.c.id == transfer.table_id)
                    .values(status="finished", finished_at=time.time())
                )

        return job

    def grant_job(transfer: Any) -> Callable[[], None]:
        def job() -> None:
            with engine.begin() as c:
                book.post(c, transfer, time.time())

        return job

    def open_job(table: str, seated: dict[int, str]) -> Callable[[], None]:
        def job() -> None:  # as the server commits a full table: the event and every stake
            with engine.begin() as c:
                append_event(c, table, 1, "commit", {"server_seed": "00"}, time.time(),
                             stakes(table, STAKE, seated))  # fmt: skip

        return job

    jobs: list[tuple[str, Callable[[], None]]] = []
    for n in range(TABLES):
        # Each movement twice in a row: two threads take them at the same moment.
        jobs += [("settle", settle_job(settlements[n]))] * 2
        if n < len(grants):
            jobs += [("grant", grant_job(grants[n]))] * 2
        if n < len(openings):
            jobs.append(("stakes", open_job(*openings[n])))
    began = time.perf_counter()
    raced[0] = 0
    outcomes = at_once([job for _, job in jobs])
    seconds = time.perf_counter() - began
    by_kind: dict[str, list[str]] = collections.defaultdict(list)
    for (kind, _), outcome in zip(jobs, outcomes, strict=True):
        by_kind[kind].append(outcome)
    print(f"\n{engine.dialect.name}: {len(jobs)} transfers tried by {THREADS} threads at once "
          f"in {seconds:.2f} s: " + ", ".join(
              f"{kind} {dict(collections.Counter(o))}" for kind, o in by_kind.items()
          ) + f"; {raced[0]} copies refused by the unique key itself")  # fmt: skip
    return Storm(dict(by_kind), players, expected, house, settled, opened, seconds, raced[0])


def test_fifty_settlements_at_once_each_happen_once(storm_engine: Engine, storm: Storm) -> None:
    assert collections.Counter(storm.outcomes["settle"]) == {"done": 50, "AlreadyDone": 50}
    for table in storm.settled:
        assert count(storm_engine, key=f"settle:{table}") == 1


def test_on_postgresql_the_copies_really_race(storm_engine: Engine, storm: Storm) -> None:
    """Most second copies start before the first commits: the look for an existing key
    finds nothing and the unique index refuses them (SQLite lets one writer in at a time)."""
    if storm_engine.dialect.name == "postgresql":
        assert storm.raced >= 10


def test_a_daily_grant_claimed_twice_at_once_is_granted_once(
    storm_engine: Engine, storm: Storm
) -> None:
    assert collections.Counter(storm.outcomes["grant"]) == {"done": 40, "AlreadyDone": 40}
    assert count(storm_engine, kind="grant_daily") == PLAYERS


def test_stakes_taken_beside_the_settlements_are_all_taken(
    storm_engine: Engine, storm: Storm
) -> None:
    assert storm.outcomes["stakes"] == ["done"] * 20
    for table in storm.opened:
        assert count(storm_engine, kind="stake", table_id=table) == 2


def test_after_the_storm_the_ledger_audits_balanced(storm_engine: Engine, storm: Storm) -> None:
    result = audit(storm_engine)
    print(result.last_line())
    assert result.problems == []
    assert result.last_line().endswith("balanced")


def test_after_the_storm_every_balance_follows_the_rules(
    storm_engine: Engine, storm: Storm
) -> None:
    assert balances(storm_engine, storm.players) == storm.expected
    with storm_engine.connect() as c:
        assert book.balance(c, HOUSE) == storm.house
        settled_escrows = [book.balance(c, escrow_account(t)) for t in storm.settled]
        opened_escrows = [book.balance(c, escrow_account(t)) for t in storm.opened]
    assert settled_escrows == [0] * TABLES
    assert opened_escrows == [2 * STAKE] * 20


def test_every_transfer_of_the_storm_sums_to_zero(storm_engine: Engine, storm: Storm) -> None:
    with storm_engine.connect() as c:
        sums = c.execute(select(func.sum(entries.c.amount)).group_by(entries.c.transfer_id)).all()
    assert {total for (total,) in sums} == {0}


# -- one stake's coins, two tables at once --------------------------------------------------


@dataclass
class Race:
    winners: list[int]  # per round: how many of the two stakes went through
    refusals: list[list[str]]
    lowest: int  # the lowest balance a watching thread saw
    players: list[str]
    others: dict[str, int]  # the other seats' balances, by player


ROUNDS = 20


@pytest.fixture(scope="module")
def race_engine(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with ledger(backend, tmp_path_factory.mktemp("race")) as engine:
        yield engine


@pytest.fixture(scope="module")
def race(race_engine: Engine) -> Race:
    """Twenty rounds: a player holding exactly one stake is at two tables whose stakes are
    taken by two threads at the same moment, while a third thread reads the balance."""
    engine = race_engine
    at = time.time()
    players = [f"x{n:02d}" for n in range(ROUNDS)]
    others = {f"y{n:02d}{side}": GRANT for n in range(ROUNDS) for side in "ab"}
    with engine.begin() as c:
        book.open_house(c)
        for player in players:
            book.post(c, starting_grant(player, STAKE), at)
        for other in others:
            book.post(c, starting_grant(other, GRANT), at)
    lowest = [STAKE]
    watching = threading.Event()

    def watch() -> None:
        while not watching.is_set():
            with engine.connect() as c:
                lowest[0] = min([lowest[0], *(book.balance(c, player_account(p)) for p in players)])

    watcher = threading.Thread(target=watch)
    watcher.start()
    winners, refusals = [], []
    try:
        for n, player in enumerate(players):
            jobs = []
            for side in "ab":
                table = f"trace{n:02d}{side}"
                add_table(engine, table, 2)
                seated = {0: player, 2: f"y{n:02d}{side}"}

                def job(table: str = table, seated: dict[int, str] = seated) -> None:
                    with engine.begin() as c:
                        append_event(c, table, 1, "commit", {"server_seed": "00"}, time.time(),
                                     stakes(table, STAKE, seated))  # fmt: skip

                jobs.append(job)
            outcomes = at_once(jobs, threads=2)
            winners.append(outcomes.count("done"))
            refusals.append([o for o in outcomes if o != "done"])
            for side, outcome in zip("ab", outcomes, strict=True):
                if outcome == "done":
                    others[f"y{n:02d}{side}"] -= STAKE
    finally:
        watching.set()
        watcher.join()
    print(f"\n{engine.dialect.name}: {ROUNDS} rounds of two stakes on one stake's coins: "
          f"{collections.Counter(winners)} went through per round, refusals "
          f"{collections.Counter(r for rs in refusals for r in rs)}, lowest balance seen "
          f"{lowest[0]}")  # fmt: skip
    return Race(winners, refusals, lowest[0], players, others)


def test_of_two_stakes_at_once_on_one_stakes_coins_exactly_one_is_taken(race: Race) -> None:
    assert race.winners == [1] * ROUNDS


def test_the_other_stake_is_refused_as_insufficient(race: Race) -> None:
    assert race.refusals == [["Insufficient"]] * ROUNDS


def test_the_balance_is_never_seen_below_zero(race_engine: Engine, race: Race) -> None:
    assert race.lowest >= 0
    assert balances(race_engine, race.players) == dict.fromkeys(race.players, 0)


def test_the_refused_tables_took_no_stake_and_stored_no_commitment(
    race_engine: Engine, race: Race
) -> None:
    assert balances(race_engine, list(race.others)) == race.others
    with race_engine.connect() as c:
        commits = c.execute(
            select(func.count()).select_from(events).where(events.c.kind == "commit")
        ).scalar_one()
    assert commits == ROUNDS
    assert count(race_engine, kind="stake") == 2 * ROUNDS


def test_after_the_races_the_ledger_audits_balanced(race_engine: Engine, race: Race) -> None:
    result = audit(race_engine)
    assert result.problems == []
    assert result.last_line().endswith("balanced")


# -- two tabs, two seats, at the same instant ---------------------------------------------

#: A stake as large as the starting grant: a new account can pay for exactly one.
ALL_IN = 1000
TABS = {
    "grace_seconds": 1.0,
    "accounts_burst": 100_000,
    "logins_burst": 100_000,
    "starting_grant": ALL_IN,
}


async def first_reply(player: Player) -> dict[str, Any]:
    """The first ``table`` or ``error`` this connection is sent."""
    deadline = time.monotonic() + 10
    while True:
        message = await asyncio.wait_for(player.messages.get(), deadline - time.monotonic())
        if message["type"] in ("table", "error"):
            return message


@dataclass
class Tried:
    how: str
    #: What each tab was answered: a table's id, or an error's code.
    answers: list[str]
    #: The tables the player's account sits at afterwards, by their logs.
    seats: int
    stakes: int  # stake transfers of the player's account
    balance: int  # at the start of the game it got a seat in (or after the race)
    started: bool  # a table of its filled and took the stakes


async def two_tabs(server: Server, engine: Engine, how: str) -> Tried:
    """One account, two connections; two other accounts each wait at a two-seat table of
    the stake. The tabs ask for two seats at the same instant (``how``: join both tables,
    create two tables, create one and join the other, or "play now" twice)."""
    player, first, second = [await asyncio.to_thread(new_account, server) for _ in range(3)]
    hosts = []
    for account in (first, second):
        host = Player(server, account.name)
        await host.connect(token=account.token)
        await host.send(type="create", game="jackaroo", seats=2, stake=ALL_IN)
        await host.expect("table")
        hosts.append(host)
    tables = [h.state["table"]["id"] for h in hosts if h.state is not None]
    tabs = [Player(server, player.name) for _ in range(2)]
    for tab in tabs:
        await tab.connect(token=player.token)
    create = {"type": "create", "game": "jackaroo", "seats": 2, "stake": ALL_IN}
    asks = {
        "join both": [{"type": "join", "table": tables[0]}, {"type": "join", "table": tables[1]}],
        "create both": [create, create],
        "create and join": [create, {"type": "join", "table": tables[1]}],
        "play now twice": [{"type": "play_now", "game": "jackaroo", "seats": 2, "stake": ALL_IN}]
        * 2,
    }[how]
    await asyncio.gather(*(tab.send(**ask) for tab, ask in zip(tabs, asks, strict=True)))
    replies = [await first_reply(tab) for tab in tabs]
    answers = [r["table"]["id"] if r["type"] == "table" else r["code"] for r in replies]
    seated = [
        (tab, r["table"]["id"])
        for tab, r in zip(tabs, replies, strict=True)
        if r["type"] == "table"
    ]
    started = False
    for tab, table in seated:
        if table not in tables:  # a table the tab created: a third account fills it
            third = await asyncio.to_thread(new_account, server)
            filler = Player(server, third.name)
            await filler.connect(token=third.token)
            await filler.send(type="join", table=table)
            hosts.append(filler)
        await tab.expect("seed_request", timeout=10)
        started = True
    balance = await asyncio.to_thread(balance_of, server, player.token)
    # Everybody leaves: the games that started are played out by the server.
    for connection in [*tabs, *hosts]:
        await connection.send(type="leave")
        await connection.close()
    with engine.connect() as c:
        logs: Any = c.execute(
            select(events.c.table_id, events.c.kind, events.c.data).order_by(events.c.seq)
        ).all()
        staked = c.execute(
            select(func.count())
            .select_from(entries)
            .join(transfers, transfers.c.id == entries.c.transfer_id)
            .where(transfers.c.kind == "stake", entries.c.account_id == player_account(player.id))
        ).scalar_one()
    sat_at = {table for table, kind, data in logs if kind == "seat" and player.id in data}
    return Tried(how, answers, len(sat_at), int(staked), balance, started)


HOWS = ("join both", "create both", "create and join", "play now twice")


@dataclass
class Tabs:
    tries: list[Tried]
    audit: str  # the audit's last line once the games that started have ended


@pytest.fixture(scope="module")
def tabs(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tabs]:
    """Each way of asking for two seats, three times, each with a new account."""
    with database(backend) as url:
        yield from tabs_on(url, tmp_path_factory.mktemp("tabs"))


def tabs_on(database_url: str, tmp_path: Path) -> Iterator[Tabs]:
    server = Server(tmp_path, database_url, **TABS).start()
    engine = make_engine(database_url or f"sqlite:///{tmp_path / 'sahrat.db'}")
    try:

        async def scenario() -> list[Tried]:
            return [await two_tabs(server, engine, how) for how in HOWS for _ in range(3)]

        tries: list[Tried] = run(scenario(), timeout=180)
        # The games that started end: every seat left, so the server plays them out at once.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with engine.connect() as c:
                kinds: Any = c.execute(select(transfers.c.table_id, transfers.c.kind)).all()
            staked = {table for table, kind in kinds if kind == "stake"}
            if staked <= {table for table, kind in kinds if kind == "settle"}:
                break
            time.sleep(0.2)
        line = audit(engine).last_line()
        print(f"\n{engine.dialect.name}: two tabs:")
        for t in tries:
            print(f"  {t.how}: {t.answers}, seats {t.seats}, stakes {t.stakes}, "
                  f"balance at the start {t.balance}")  # fmt: skip
        print(f"  {line}")
        yield Tabs(tries, line)
    finally:
        server.stop()
        engine.dispose()


def test_two_tabs_asking_for_two_seats_at_once_get_at_most_one(tabs: Tabs) -> None:
    for tried in tabs.tries:
        assert tried.seats <= 1, tried
        seated = [a for a in tried.answers if a.startswith("t")]
        refused = [a for a in tried.answers if not a.startswith("t")]
        assert len(seated) == 1, tried
        assert set(refused) <= {"already_seated", "insufficient_coins"}, tried


def test_one_stakes_coins_pay_for_one_game_start_and_no_more(tabs: Tabs) -> None:
    for tried in tabs.tries:
        assert tried.started, tried
        assert tried.stakes == 1, tried
        assert tried.balance == 0, tried


def test_after_the_tabs_the_ledger_audits_balanced(tabs: Tabs) -> None:
    assert tabs.audit.endswith("balanced")
