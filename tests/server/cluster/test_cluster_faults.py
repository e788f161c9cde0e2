"""Three nodes, thirty games, and the faults a cluster must live through: a node killed,
a node stopped past its lease, Redis restarted empty.

Three real nodes share one PostgreSQL database and a Redis of the test's own. Thirty
2-seat tables (Jackaroo and Buraco in turn, every third a coin table of registered
accounts at stake 50, the rest free tables of guests) are each created on one node and
joined from another; every seat plays random legal moves and reconnects to another live
node whenever its socket closes or goes quiet (:mod:`.restless_seats`). While they play,
node ``a`` is killed with SIGKILL (and not started again), a little later node ``b`` is
stopped with SIGSTOP for longer than its lease and then resumed, and later still Redis
is stopped and started again (it keeps nothing).

Then: every table finished; every record verifies; no seat was ever sent a card it may
not see; no accepted move was lost or doubled (each seat's last ``moves`` is the
record's count, and the event log's ``seq`` has no gap); the ledger balances and every
coin table was settled once. The failover times are printed (``-s``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from sqlalchemy import Engine, select

from sahrat.server.schema import events, game_tables, transfers
from sahrat.server.schema import records as records_table
from sahrat.server.store import make_engine
from tests.server.cluster.conftest import SpareRedis
from tests.server.cluster.restless_seats import Nodes, Seat, table_messages
from tests.server.harness import Server, new_account, run
from tests.server.test_spectator_privacy import PUBLIC_PLACES, cards_at, own_cards

#: Among the longest files: started first, so the parallel run ends together.
pytestmark = pytest.mark.long

NODES = ("a", "b", "c")
#: Every game ends within this many seconds (about 100 on a quiet machine; a hang, not a
#: slow machine, is what this catches: a parallel run shares the cores).
PLAY_WITHIN = 300
TABLES = 30
STAKE = 50
LEASE = 4.0
#: How long node b stays stopped: past its lease, so its tables are taken over.
STOPPED = 7.0
SETTINGS: dict[str, object] = {
    "lease_seconds": LEASE,
    "lease_renew_seconds": 1.0,
    # Clocks must not decide the games, nor a seat's absence during a failover.
    "turn_seconds": 30.0,
    "grace_seconds": 300.0,
    "waiting_grace_seconds": 120.0,
    # A seat that reconnects after its game ended still finds the result.
    "finished_linger": 300.0,
    "autofill_seconds": 0.0,
    "heartbeat_interval": 1.0,
    "heartbeat_timeout": 5.0,
    "seed_seconds": 5.0,
    "accounts_burst": 100_000,
    "logins_burst": 100_000,
}
#: Where a card may stand in what a seat receives: where every seat sees it, and the
#: seat's own hand and its legal moves.
SEAT_PLACES = (*PUBLIC_PLACES, ("view", "hand"), ("legal",))


@dataclass
class Game:
    number: int
    game: str
    coin: bool
    seats: list[Seat]
    id: str = ""


@dataclass
class Fault:
    what: str
    at: float  # time.time()
    #: The tables' owners by Redis just before the fault.
    owners: dict[str, str] = field(default_factory=dict)
    #: Tables still in play when it struck.
    live: set[str] = field(default_factory=set)
    #: When a stopped node was resumed.
    resumed: float = 0.0


@dataclass
class Outcome:
    games: list[Game]
    faults: list[Fault]
    seconds: float
    logs: dict[str, str]
    database_url: str


async def answer_to_join(seat: Seat, table: str) -> dict[str, Any]:
    """The table, or the error, that answers a join (a table created on another node may
    not be known everywhere at once)."""
    while True:
        message = await asyncio.wait_for(seat.player.messages.get(), 15)
        if message["type"] == "error" or (
            message["type"] == "table" and message["table"]["id"] == table
        ):
            return message


def creator_of(number: int) -> str:
    # Spread so that each node creates free and coin tables of both games.
    return NODES[(number + number // 3) % 3]


def joiner_of(number: int) -> str:
    return NODES[(NODES.index(creator_of(number)) + 1) % 3]


class Scenario:
    def __init__(self, servers: dict[str, Server], spare: SpareRedis, prefix: str) -> None:
        self.servers = servers
        self.nodes = Nodes(servers)
        self.spare = spare
        self.prefix = prefix
        self.rng = random.Random("cluster-faults")
        self.games: list[Game] = []
        self.faults: list[Fault] = []

    # -- tables ---------------------------------------------------------------------------

    def seat(self, name: str, node: str) -> Seat:
        return Seat(name, node, random.Random(self.rng.getrandbits(64)))

    async def set_up(self, number: int) -> Game:
        game = "jackaroo" if number % 2 == 0 else "buraco"
        coin = number % 3 == 0
        creator = self.seat(f"c{number}", creator_of(number))
        joiner = self.seat(f"j{number}", joiner_of(number))
        if coin:
            for s in (creator, joiner):
                account = await asyncio.to_thread(new_account, self.servers[s.node])
                s.token = account.token
        made = Game(number, game, coin, [creator, joiner])
        await creator.connect(self.nodes)
        await joiner.connect(self.nodes)
        create: dict[str, Any] = {"type": "create", "game": game, "seats": 2}
        if game == "buraco":
            create["options"] = {"target": 1000}
        if coin:
            create["stake"] = STAKE
        await creator.send(**create)
        waiting = await creator.player.expect("table", timeout=15)
        made.id = waiting["table"]["id"]
        for s in made.seats:
            s.table, s.game = made.id, game
        creator.take(waiting)
        answer: dict[str, Any] = {}
        for _ in range(50):
            await joiner.send(type="join", table=made.id)
            answer = await answer_to_join(joiner, made.id)
            if answer["type"] == "error":
                joiner.errors[f"join: {answer['code']}"] += 1
            if answer["type"] == "table":
                joiner.take(answer)
                if answer.get("you") is not None:
                    break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError(f"{joiner.name} could not join {made.id}: {answer}")
        return made

    # -- faults ---------------------------------------------------------------------------

    def owners(self) -> dict[str, str]:
        client = redis.Redis.from_url(self.spare.url)
        try:
            ids = [g.id for g in self.games]
            values: list[bytes | None] = client.mget(  # type: ignore[assignment]
                [f"{self.prefix}lease:{t}" for t in ids]
            )
        finally:
            client.close()
        return {t: v.decode().split()[0] for t, v in zip(ids, values, strict=True) if v}

    async def fault(self, what: str) -> Fault:
        owners = await asyncio.to_thread(self.owners)
        live = {g.id for g in self.games if not all(s.final for s in g.seats)}
        fault = Fault(what, time.time(), owners, live)
        self.faults.append(fault)
        return fault

    async def all_playing(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            states = [s.state for g in self.games for s in g.seats]
            if all(s is not None and s["table"]["status"] == "playing" for s in states):
                return
            assert time.monotonic() < deadline, "the tables did not all start"
            await asyncio.sleep(0.1)

    async def strike(self) -> None:
        await self.all_playing()
        await asyncio.sleep(2.0)
        a, b = self.servers["a"], self.servers["b"]
        await self.fault("kill -9 a")
        self.nodes.live.discard("a")
        a.kill()
        await asyncio.sleep(LEASE + 3.0)
        await self.fault("SIGSTOP b")
        self.nodes.live.discard("b")
        assert b.process is not None
        b.process.send_signal(signal.SIGSTOP)
        await asyncio.sleep(STOPPED)
        b.process.send_signal(signal.SIGCONT)
        self.faults[-1].resumed = time.time()
        self.faults[-1].what += f" {STOPPED:.0f} s"
        self.nodes.live.add("b")
        await asyncio.sleep(4.0)
        await self.fault("Redis restarted")
        self.spare.stop()
        await asyncio.sleep(1.0)
        await asyncio.to_thread(self.spare.start)

    async def run(self) -> None:
        self.games = list(await asyncio.gather(*(self.set_up(n) for n in range(TABLES))))
        seats = [s for g in self.games for s in g.seats]
        striking = asyncio.create_task(self.strike())
        playing = asyncio.gather(*(s.play(self.nodes) for s in seats))
        try:
            await asyncio.wait_for(asyncio.shield(playing), PLAY_WITHIN)
        except TimeoutError:
            unfinished = [
                f"{g.id} ({g.game}, created on {creator_of(g.number)}):\n"
                + "\n".join(f"    {s.name} seat {s.you}: {list(s.trail)}" for s in g.seats)
                for g in self.games
                if not all(s.final for s in g.seats)
            ]
            raise AssertionError(
                f"{len(unfinished)} tables still playing after {PLAY_WITHIN} s; faults "
                + ", ".join(f"{f.what} at {f.at % 1000:.1f}" for f in self.faults)
                + ":\n"
                + "\n".join(unfinished)
            ) from None
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await striking
            for s in seats:
                await s.close()


# -- what the database and the nodes say ---------------------------------------------------


def logged_at(line: str) -> float:
    return datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()


def taken_over(logs: dict[str, str]) -> list[tuple[float, str, str]]:
    """``(when, node, table)`` of every takeover the nodes logged."""
    out = []
    for node, text in logs.items():
        for line in text.splitlines():
            if f"node {node}: took table " in line:
                out.append((logged_at(line), node, line.split("took table ")[1].split()[0]))
    return sorted(out)


def log_of(engine: Engine, table: str) -> list[tuple[int, str, dict[str, Any], float]]:
    with engine.connect() as c:
        rows: Any = c.execute(
            select(events.c.seq, events.c.kind, events.c.data, events.c.at)
            .where(events.c.table_id == table)
            .order_by(events.c.seq)
        ).all()
    return [(int(seq), str(kind), json.loads(data), float(at)) for seq, kind, data, at in rows]


def audit(database_url: str) -> tuple[int, str]:
    command = [sys.executable, "-m", "sahrat.cli.main", "ledger", "audit"]
    command += ["--database-url", database_url]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines() or [done.stderr.strip()]
    return done.returncode, lines[-1]


def verify(record: dict[str, Any], where: Path) -> tuple[int, str]:
    path = where / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "sahrat.cli.main", "verify", str(path)],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return out.returncode, (out.stdout + out.stderr).strip()


# -- the run ------------------------------------------------------------------------------


def node_server(data: Path, url: str, spare: SpareRedis, prefix: str, node: str) -> Server:
    args = ["--redis-url", spare.url, "--node-id", node]
    return Server(data, url, args, cluster_prefix=prefix, **SETTINGS)


def test_a_cluster_plays_every_game_to_its_end_through_its_faults(
    spare_redis: SpareRedis, prefix: str, tmp_path: Path, fresh_database: str
) -> None:
    url = fresh_database
    servers = {node: node_server(tmp_path / node, url, spare_redis, prefix, node) for node in NODES}
    try:
        servers["a"].start()  # the first migrates the database
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, [servers["b"], servers["c"]]))
        scenario = Scenario(servers, spare_redis, prefix)
        began = time.monotonic()
        try:
            run(scenario.run(), timeout=240)
        finally:
            b = servers["b"].process
            if b is not None and b.poll() is None:
                b.send_signal(signal.SIGCONT)
        seconds = time.monotonic() - began
        logs = {node: s.log_text() for node, s in servers.items()}
        outcome = Outcome(scenario.games, scenario.faults, seconds, logs, url)
        engine = make_engine(url)
        try:
            print(check(outcome, engine, tmp_path))
        finally:
            engine.dispose()
    finally:
        for server in servers.values():
            server.stop()


def check(o: Outcome, engine: Engine, where: Path) -> str:
    lines = [f"\ncluster faults: {len(o.games)} tables in {o.seconds:.0f} s"]
    errors: Counter[str] = Counter()
    for g in o.games:
        for s in g.seats:
            errors.update(s.errors)
    reconnects = sum(s.reconnects for g in o.games for s in g.seats)
    resends = sum(s.resends for g in o.games for s in g.seats)
    lines.append(f"  reconnects {reconnects}, moves sent again {resends}, errors {dict(errors)}")

    # Every table finished, and what each seat saw last is what the log and record hold.
    records: dict[str, dict[str, Any]] = {}
    autos = 0
    for g in o.games:
        log = log_of(engine, g.id)
        seqs = [seq for seq, _, _, _ in log]
        assert seqs == list(range(1, len(seqs) + 1)), (g.id, "seq gaps", seqs)
        moves = [data for _, kind, data, _ in log if kind == "move"]
        autos += sum(1 for m in moves if m["auto"])
        assert [kind for _, kind, _, _ in log].count("end") == 1, (g.id, "ends")
        with engine.connect() as c:
            status: str = c.execute(
                select(game_tables.c.status).where(game_tables.c.id == g.id)
            ).scalar_one()
            record = json.loads(
                c.execute(
                    select(records_table.c.record).where(records_table.c.table_id == g.id)
                ).scalar_one()
            )
        assert status == "finished", (g.id, status)
        records[g.id] = record
        played = [e for e in record["log"] if e["seat"] is not None]
        for s in g.seats:
            assert s.final is not None, (g.id, s.name)
            assert s.final["moves"] == len(played) == len(moves), (
                g.id, s.name, s.final["moves"], len(played), len(moves),
            )  # fmt: skip
            assert s.final["result"]["winners"] == record["result"]["winners"], (g.id, s.name)
    lines.append(f"  moves the clock played: {autos}")

    # Every record verifies.
    for table, record in records.items():
        code, said = verify(record, where)
        assert code == 0, (table, said)

    # No seat was sent a card it may not see, nor the server seed before the end.
    checked = 0
    for g in o.games:
        held: dict[int, dict[int, set[str]]] = {}  # seat -> seq -> its cards
        for s in g.seats:
            held[s.you] = {m["seq"]: own_cards(m) for m in table_messages(s.texts())}
        seed = records[g.id]["server_seed"]
        for s in g.seats:
            other = next(o.you for o in g.seats if o is not s)
            for text in s.texts():
                message = json.loads(text)
                finished = message["type"] == "table" and message["table"]["status"] == "finished"
                if not finished:
                    assert seed not in text, (g.id, s.name)
                for path, _card in cards_at(message):
                    if path[:3] == ("view", "hands", str(s.you)):
                        continue
                    assert any(path[: len(p)] == p for p in SEAT_PLACES), (g.id, s.name, path)
                if g.game == "jackaroo" and message["type"] == "table":
                    theirs = held[other].get(message["seq"])
                    if theirs:
                        found = {c for p, c in cards_at(message) if p[:1] != ("last",)}
                        assert not theirs & found, (g.id, s.name, message["seq"], theirs & found)
                        checked += 1
    assert checked > 200
    lines.append(f"  seat messages checked against the other hand: {checked}")

    # The ledger balances; every coin table took two stakes and was settled once.
    code, last = audit(o.database_url)
    assert code == 0 and last.endswith("balanced"), last
    lines.append(f"  {last}")
    with engine.connect() as c:
        for g in o.games:
            kinds = Counter(
                str(k)
                for (k,) in c.execute(select(transfers.c.kind).where(transfers.c.table_id == g.id))
            )
            expected = {"stake": 2, "settle": 1} if g.coin else {}
            assert dict(kinds) == expected, (g.id, dict(kinds))

    # Failover times: from each fault to the first move accepted after it, for each table
    # that changed owner (after the new owner took it: while Redis is down, the old owner
    # goes on playing its tables).
    takeovers = taken_over(o.logs)
    ends = [f.at for f in o.faults[1:]] + [float("inf")]
    for fault, until in zip(o.faults, ends, strict=True):
        moved = {t: (at, n) for at, n, t in takeovers if fault.at <= at < until}
        owners = dict(Counter(fault.owners.values()))
        lines.append(f"  {fault.what}: {len(fault.live)} tables in play, owners before "
                     f"{owners}, {len(moved)} changed owner:")  # fmt: skip
        times = []
        for table, (taken_at, node) in sorted(moved.items()):
            log = log_of(engine, table)
            after = [at for _, kind, _, at in log if kind == "move" and at > taken_at]
            if after:
                old = fault.owners.get(table)
                times.append((after[0] - fault.at, taken_at - fault.at, table, old, node))
        for first, took, table, old, new in sorted(times):
            lines.append(f"    {table} {old} -> {new}: taken over after {took:.1f} s, "
                         f"first move after {first:.1f} s")  # fmt: skip

    # Node b, resumed, learnt that every table taken from it while it was stopped was
    # gone: from its renewals, or from a write the database refused (it stored nothing:
    # the logs' checks above).
    stop = next(f for f in o.faults if f.what.startswith("SIGSTOP"))
    redis_at = next(f.at for f in o.faults if f.what.startswith("Redis"))
    taken = {t for at, _, t in takeovers if stop.at <= at < redis_at and stop.owners.get(t) == "b"}
    assert taken, "nothing was taken from the stopped node"
    noticed: dict[str, str] = {}
    for line in o.logs["b"].splitlines():
        for marker, how in ((": lease lost", "renewal"), (": another node owns it now", "write")):
            if marker in line and logged_at(line) >= stop.resumed:
                noticed.setdefault(line.split(" table ")[1].split(":")[0], how)
    assert taken <= set(noticed), sorted(taken - set(noticed))
    ways = Counter(noticed[t] for t in taken)
    lines.append(f"  b after SIGCONT: {len(taken)} tables lost, noticed by a renewal "
                 f"{ways['renewal']}, by a refused write {ways['write']}")  # fmt: skip

    # Every game not over when Redis restarted went on after it.
    restart = next(f for f in o.faults if f.what.startswith("Redis"))
    waits = []
    for g in o.games:
        log = log_of(engine, g.id)
        if next(at for _, kind, _, at in log if kind == "end") < restart.at:
            continue
        after = [at for _, kind, _, at in log if kind == "move" and at > restart.at]
        assert after, (g.id, "no move after the Redis restart")
        waits.append(after[0] - restart.at)
    assert waits, "every game was over before Redis restarted"
    lines.append(f"  after the Redis restart {len(waits)} games went on, the last one's first "
                 f"move after {max(waits):.1f} s")  # fmt: skip
    return "\n".join(lines)
