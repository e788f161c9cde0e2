"""Coin settlements per second: the ledger's write path on PostgreSQL and SQLite.

Creates a fresh database (the server's schema, by its migrations), N accounts with a
starting grant, T coin tables with every seat's stake in escrow, then posts the T
settlements from K threads at once, each thread on its own connection and each
settlement (or batch of them) in its own transaction with the table's end, as the
server writes a game's end, and prints settlements per second and the ledger audit's
last line. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, insert, update

from sahrat.server.ledger import book
from sahrat.server.ledger.audit import audit
from sahrat.server.ledger.transfers import (
    Transfer,
    settle,
    settlement_transfer,
    stakes,
    starting_grant,
)
from sahrat.server.schema import game_tables
from sahrat.server.store import Store, make_engine

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


@contextmanager
def fresh_database(backend: str, postgres: str) -> Iterator[str]:
    """A new, empty database's URL; dropped (or deleted) afterwards."""
    if backend == "sqlite":
        directory = Path(tempfile.mkdtemp(prefix="sahrat-ledger-"))
        try:
            yield f"sqlite:///{directory / 'ledger.db'}"
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    import psycopg

    name = f"sahrat_bench_{os.getpid()}_{int(time.time())}"
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield (
            postgres.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
            + "/"
            + name
        )
    finally:
        with psycopg.connect(postgres, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def engine_for(url: str, threads: int) -> Engine:
    if url.startswith("sqlite"):
        return make_engine(url)  # the server's: WAL, one writer at a time
    return create_engine(url, pool_size=threads, max_overflow=0)


def set_up(engine: Engine, args: argparse.Namespace, label: str) -> list[Transfer]:
    """The accounts (first time), T tables with their stakes taken; their settlements."""
    rng = random.Random(f"{args.seed}-{label}")
    players = [f"bench{n:05d}" for n in range(args.accounts)]
    seat_numbers = tuple(range(args.seats))
    at = time.time()
    with engine.begin() as c:
        book.open_house(c)
        if not book.made(c, f"grant:start:{players[0]}"):
            for player in players:
                # Enough for every stake the run takes.
                book.post(c, starting_grant(player, 10**12), at)
    settlements = []
    for n in range(args.tables):
        table = f"t{label}{n:06d}"
        seated = dict(zip(seat_numbers, rng.sample(players, args.seats), strict=True))
        with engine.begin() as c:
            c.execute(
                insert(game_tables).values(
                    id=table, game="jackaroo", options="{}", seats=args.seats, kind="coin",
                    status="waiting", created_at=at, stake=args.stake,
                )
            )  # fmt: skip
            for transfer in stakes(table, args.stake, seated):
                book.post(c, transfer, at)
        sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3)) if args.seats == 4 else ((0,), (1,))
        winners = rng.choice(sides)
        paid = settle(args.stake, seat_numbers, winners, left=set())
        settlements.append(settlement_transfer(table, paid, seated))
    return settlements


def settle_all(
    engine: Engine, settlements: list[Transfer], threads: int, batch: int
) -> tuple[float, int]:
    """Post every settlement from ``threads`` threads released together, ``batch`` to a
    transaction; the seconds it took and how many failed."""
    barrier = threading.Barrier(threads + 1)
    lock = threading.Lock()
    queue = list(reversed(settlements))
    failures = [0]

    def work() -> None:
        barrier.wait()
        while True:
            with lock:
                if not queue:
                    return
                taken = [queue.pop() for _ in range(min(batch, len(queue)))]
            try:
                with engine.begin() as c:
                    now = time.time()
                    for transfer in taken:
                        book.post(c, transfer, now)
                        c.execute(
                            update(game_tables)
                            .where(game_tables.c.id == transfer.table_id)
                            .values(status="finished", finished_at=now)
                        )
            except Exception as error:
                with lock:
                    failures[0] += len(taken)
                print(f"failed: {taken[0].key}: {type(error).__name__}: {error}", file=sys.stderr)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    barrier.wait()
    began = time.perf_counter()
    for worker in workers:
        worker.join()
    return time.perf_counter() - began, failures[0]


def bench(backend: str, args: argparse.Namespace) -> dict[str, Any]:
    with fresh_database(backend, args.postgres) as url:
        store = Store(url)
        store.migrate()
        store.close()
        runs = []
        for threads in args.threads:
            engine = engine_for(url, threads)
            try:
                began = time.perf_counter()
                settlements = set_up(engine, args, f"k{threads}")
                setup = time.perf_counter() - began
                seconds, failed = settle_all(engine, settlements, threads, args.batch)
            finally:
                engine.dispose()
            runs.append(
                {
                    "threads": threads,
                    "settlements": len(settlements),
                    "seconds": round(seconds, 3),
                    "settlements_per_s": round(len(settlements) / seconds, 1),
                    "failed": failed,
                    "tables_staked_per_s": round(args.tables / setup, 1),
                }
            )
        engine = engine_for(url, 1)
        try:
            began = time.perf_counter()
            result = audit(engine)
            audit_seconds = time.perf_counter() - began
        finally:
            engine.dispose()
    return {
        "database": backend,
        "tables": args.tables,
        "seats": args.seats,
        "accounts": args.accounts,
        "batch": args.batch,
        "runs": runs,
        "audit": result.last_line(),
        "audit_seconds": round(audit_seconds, 2),
        "balanced": result.balanced,
    }


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['database']}: {result['tables']} coin tables of {result['seats']} seats "
             f"per run, {result['accounts']} accounts, {result['batch']} settlements "
             "to a transaction"]  # fmt: skip
    for run in result["runs"]:
        lines.append(
            f"  {run['threads']:>3} threads: {run['settlements_per_s']:>8.1f} settlements/s "
            f"({run['settlements']} in {run['seconds']:.2f} s, {run['failed']} failed; "
            f"set-up {run['tables_staked_per_s']:.0f} tables staked/s on one thread)"
        )
    lines.append(f"  {result['audit']}  (audit {result['audit_seconds']:.2f} s)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite", "both"), default="both")
    parser.add_argument("--postgres", default=os.environ.get("SAHRAT_TEST_POSTGRES", POSTGRES),
                        help="a PostgreSQL server (its maintenance database) to create the "
                        "fresh database on")  # fmt: skip
    parser.add_argument("--tables", type=int, default=2000, help="settlements per run")
    parser.add_argument("--accounts", type=int, default=400)
    parser.add_argument("--seats", type=int, choices=(2, 4), default=4)
    parser.add_argument("--stake", type=int, default=100)
    parser.add_argument("--threads", default="1,8,32",
                        help="comma-separated thread counts, one run each")  # fmt: skip
    parser.add_argument("--batch", type=int, default=1,
                        help="settlements per transaction (the server commits the writes "
                        "waiting at one moment together)")  # fmt: skip
    parser.add_argument("--seed", default="ledger")
    parser.add_argument("--json", action="store_true", help="one JSON object per database")
    args = parser.parse_args()
    args.threads = [int(k) for k in args.threads.split(",") if k.strip()]
    if args.accounts < args.seats or args.tables < 1 or not args.threads or args.batch < 1:
        parser.error("need a table, a thread count, a batch and a table's seats in accounts")
    backends = ("postgresql", "sqlite") if args.database == "both" else (args.database,)
    status = 0
    for backend in backends:
        result = bench(backend, args)
        print(json.dumps(result) if args.json else report(result), flush=True)
        if not result["balanced"] or any(run["failed"] for run in result["runs"]):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
