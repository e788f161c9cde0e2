"""Failover time of a cluster with the default lease: kill → first move of each table
taken over.

Each round starts a node (the victim) beside a node that stays (the survivor), opens
``--tables`` 2-seat Jackaroo tables from a seat on the victim, each joined by a seat on
the survivor, so the victim owns them; once every table is in play it waits a random
0-3 s (a lease's renewal may have come just before or long before), kills the victim
with SIGKILL, and times, for each table, the first move the table accepts after the
kill (the seats on the dead node reconnect to the survivor with their tokens). Run
from the repository's root with PostgreSQL and Redis on this machine::

    PYTHONPATH=. python benchmarks/failover.py --kills 20

It prints every round, then the times over all tables and the worst table of each kill.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.server.cluster.restless_seats import Nodes, Seat
from tests.server.harness import Server, drop_postgres, postgres_url

REDIS = "redis://127.0.0.1:6379/0"


def node(where: Path, url: str, name: str, prefix: str) -> Server:
    args = ["--redis-url", REDIS, "--node-id", name, "--search-workers", "0"]
    # The default lease (10 s, renewed every 3 s); a turn long enough that no clock
    # plays a move meanwhile, and a grace long enough that no seat is given up.
    return Server(where / name, url, args, cluster_prefix=prefix, turn_seconds=60.0,
                  grace_seconds=120.0).start()  # fmt: skip


async def table_of(creator: Seat, joiner: Seat, nodes: Nodes) -> None:
    await creator.connect(nodes)
    await joiner.connect(nodes)
    await creator.send(type="create", game="jackaroo", seats=2)
    state = await creator.player.expect("table", timeout=10)
    creator.table = joiner.table = state["table"]["id"]
    for _ in range(100):  # by id, as soon as the other node knows the table
        await joiner.send(type="join", table=creator.table)
        answer = await asyncio.wait_for(joiner.player.messages.get(), 10)
        while answer["type"] not in ("table", "error"):
            answer = await asyncio.wait_for(joiner.player.messages.get(), 10)
        if answer["type"] == "table":
            joiner.take(answer)
            return
        await asyncio.sleep(0.2)
    raise RuntimeError(f"{joiner.name} could not join {creator.table}")


def moves_of(seats: list[Seat]) -> int:
    return max((s.state or {"moves": -1})["moves"] for s in seats)


async def one_round(
    number: int, where: Path, url: str, prefix: str, survivor: Server, tables: int
) -> list[float]:
    rng = random.Random(number)
    victim = node(where, url, f"victim{number}", prefix)
    nodes = Nodes({"survivor": survivor, "victim": victim})
    pairs = [
        (Seat(f"c{number}x{i}", "victim", rng), Seat(f"j{number}x{i}", "survivor", rng))
        for i in range(tables)
    ]
    for creator, joiner in pairs:
        await table_of(creator, joiner, nodes)
    games = [asyncio.create_task(seat.play(nodes)) for pair in pairs for seat in pair]
    try:
        deadline = time.monotonic() + 60
        while any(moves_of(list(pair)) < 5 for pair in pairs):
            if time.monotonic() > deadline:
                raise RuntimeError("the tables did not start")
            await asyncio.sleep(0.1)
        await asyncio.sleep(rng.uniform(0, 3))
        nodes.live.discard("victim")
        victim.kill()
        killed = time.monotonic()
        # The views of moves the victim accepted just before it died may arrive just
        # after: the count to pass is read once they are in (no other node can take
        # a table within the lease's remaining 7 s at least).
        await asyncio.sleep(0.5)
        before = [moves_of(list(pair)) for pair in pairs]
        took: list[float | None] = [None] * tables
        while any(t is None for t in took) and time.monotonic() - killed < 60:
            for i, pair in enumerate(pairs):
                finished = any(seat.final is not None for seat in pair)
                if took[i] is None and (moves_of(list(pair)) > before[i] or finished):
                    took[i] = time.monotonic() - killed
            await asyncio.sleep(0.02)
        return [60.0 if t is None else t for t in took]
    finally:
        for game in games:
            game.cancel()
        # Bounded: a seat's socket to the dead node may never finish closing.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*games, return_exceptions=True), 10)
        for pair in pairs:
            for seat in pair:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(seat.close(), 5)
        victim.stop()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=4, help="tables moved by each kill")
    args = parser.parse_args()
    url = postgres_url()
    if url is None:
        print("failover: PostgreSQL is not available", file=sys.stderr)
        return 2
    prefix = f"failover-{secrets.token_hex(4)}:"
    where = Path(tempfile.mkdtemp(prefix="sahrat-failover-"))
    survivor = node(where, url, "survivor", prefix)
    times: list[float] = []
    worst: list[float] = []
    try:
        for number in range(1, args.kills + 1):
            took = asyncio.run(one_round(number, where, url, prefix, survivor, args.tables))
            times += took
            worst.append(max(took))
            print(f"kill {number:2d}: " + " ".join(f"{t:5.1f}" for t in took) + " s", flush=True)
    finally:
        survivor.stop()
        drop_postgres(url)
    print(
        f"failover, kill -9 to the first move of each table taken over, default lease: "
        f"{len(times)} tables over {args.kills} kills\n"
        f"  min {min(times):.1f} s  median {statistics.median(times):.1f} s  "
        f"p99 {quantile(times, 0.99):.1f} s  max {max(times):.1f} s; "
        f"worst table of each kill: median {statistics.median(worst):.1f} s, "
        f"max {max(worst):.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
