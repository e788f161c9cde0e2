"""The load benchmark's clients: four WebSocket clients a table, in one worker process.

:func:`worker` runs in each of ``--client-processes`` processes with its share of
the tables (all four seats of a table in the same process, so one clock times a
move to every seat), opens them over the ramp, and sends back what it measured
in the window the parent gives it. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import time
from collections import Counter
from multiprocessing.connection import Connection
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PONG = '{"v":1,"type":"pong"}'


def dumps(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


SEATS = 4


def close_reason(closed: ConnectionClosed) -> str:
    """Who closed, and with which code: the server's close frame, or none at all."""
    if closed.rcvd is not None:
        return f"server sent {closed.rcvd.code}"
    return "no close frame"


#: A server busy with thousands of sockets may answer a handshake late: wait this long,
#: and try this many times, before a table counts as one that could not open.
OPEN_TIMEOUT = 30.0
OPEN_TRIES = 3


async def connect_patiently(url: str, compression: str | None) -> ClientConnection:
    for attempt in range(OPEN_TRIES):
        try:
            return await connect(
                url, compression=compression, max_size=2**22, open_timeout=OPEN_TIMEOUT
            )
        except (TimeoutError, OSError):
            if attempt == OPEN_TRIES - 1:
                raise
    raise AssertionError("unreachable")


class Stats:
    def __init__(self) -> None:
        self.start = self.end = float("inf")
        self.latencies: list[float] = []
        self.sent: list[float] = []  # when each measured action was sent
        self.lags: list[float] = []
        self.games = 0
        self.closing = False
        self.errors: Counter[str] = Counter()
        #: Tables whose four clients were connected and whose first table was asked for.
        self.opened = 0
        self.lobby_messages = 0
        self.lobby_bytes = 0

    def measured(self, t: float) -> bool:
        return self.start <= t < self.end


class Bot:
    """One WebSocket client, one seat."""

    def __init__(self, group: Group, token: str | None) -> None:
        self.group = group
        self.token = token  # a registered account's session (coin tables), or a guest
        self.ws: ClientConnection | None = None
        self.table = ""  # the table this client's messages are about
        self.seen = 0  # the highest ``moves`` it has received there
        self.acted = -1  # the ``moves`` it last played at

    async def send(self, **message: Any) -> None:
        assert self.ws is not None
        await self.ws.send(dumps({"v": 1, **message}))

    async def read(self) -> None:
        assert self.ws is not None
        group, stats = self.group, self.group.stats
        try:
            while True:
                # Undecoded, into orjson: the clients' own CPU delays what they measure.
                raw = await self.ws.recv(decode=False)
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "table":
                    await group.on_table(self, message)
                elif kind == "ping":
                    await self.ws.send(PONG)
                elif kind == "seed_request":
                    await self.send(type="seed", seed=f"s{group.rng.getrandbits(48):x}")
                elif kind == "error":
                    stats.errors[message["code"]] += 1
        except ConnectionClosed as closed:
            if not stats.closing:
                stats.errors[f"client: connection closed ({close_reason(closed)})"] += 1
        except Exception as error:  # a client that stops is an error of the run, not silence
            stats.errors[f"client: {type(error).__name__}"] += 1


class Group:
    """The four clients that play one table after another."""

    def __init__(
        self, index: int, stats: Stats, options: dict[str, Any], tokens: list[str] | None
    ) -> None:
        self.stats = stats
        self.game: str = options["game"]
        self.stake: int = options["stake"]
        low, high = options["think_ms"]
        self.think = (low / 1000, high / 1000)
        self.rng = random.Random(f"{options['seed']}-{index}")
        self.bots = [Bot(self, tokens[n] if tokens else None) for n in range(SEATS)]
        self.table = ""
        self.creating = False
        #: (table, moves before the action) -> [sent at, seats that have not seen it yet]
        self.pending: dict[tuple[str, int], list[float]] = {}
        self.tasks: set[asyncio.Task[None]] = set()  # the readers
        self.acting: set[asyncio.Task[None]] = set()  # moves waiting for their think time

    async def open(self, url: str, compression: str | None) -> None:
        for bot in self.bots:
            bot.ws = await connect_patiently(url, compression)
            if bot.token:
                await bot.send(type="hello", token=bot.token)
            else:
                await bot.send(type="hello")
            self.tasks.add(asyncio.create_task(bot.read()))
        await self.new_table()
        self.stats.opened += 1

    async def new_table(self) -> None:
        self.creating, self.table = True, ""
        if self.stake:
            await self.bots[0].send(type="create", game=self.game, seats=SEATS, stake=self.stake)
        else:
            await self.bots[0].send(type="create", game=self.game, seats=SEATS)

    async def on_table(self, bot: Bot, message: dict[str, Any]) -> None:
        info = message["table"]
        table, status = info["id"], info["status"]
        if self.creating and bot is self.bots[0] and status == "waiting":
            self.table, self.creating = table, False
            for other in self.bots[1:]:
                await other.send(type="join", table=table)
        if table != bot.table:
            if table != self.table:
                return  # a late message of an earlier table
            bot.table, bot.seen, bot.acted = table, 0, -1
        moves: int = message["moves"]
        if moves > bot.seen:
            now = time.perf_counter()
            pending = self.pending
            for n in range(bot.seen, moves):
                entry = pending.get((table, n))
                if entry is not None:
                    entry[1] -= 1
                    if entry[1] == 0:
                        del pending[(table, n)]
                        if self.stats.measured(entry[0]):
                            self.stats.latencies.append(now - entry[0])
                            self.stats.sent.append(entry[0])
            bot.seen = moves
        if status == "finished":
            if bot is self.bots[0] and table == self.table and not self.creating:
                if self.stats.measured(time.perf_counter()):
                    self.stats.games += 1
                await self.new_table()
            return
        legal = message.get("legal")
        if legal and moves != bot.acted:
            bot.acted = moves
            action = self.rng.choice(legal)
            low, high = self.think
            delay = self.rng.uniform(low, high) if high > 0 else 0.0
            if delay > 0:
                task = asyncio.create_task(self.act(bot, table, action, moves, delay))
                self.acting.add(task)
                task.add_done_callback(self.acting.discard)
            else:
                await self.act(bot, table, action, moves, 0.0)

    async def act(self, bot: Bot, table: str, action: str, moves: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        self.pending[(table, moves)] = [time.perf_counter(), SEATS]
        try:
            await bot.send(type="act", action=action, moves=moves)
        except ConnectionClosed as closed:
            if not self.stats.closing:
                self.stats.errors[f"client: connection closed ({close_reason(closed)})"] += 1

    async def close(self) -> None:
        for task in self.acting:
            task.cancel()
        for bot in self.bots:
            with contextlib.suppress(Exception):
                await bot.ws.close()  # type: ignore[union-attr]
        await asyncio.gather(*self.tasks, *self.acting, return_exceptions=True)


async def watch_lobby(url: str, compression: str | None, stats: Stats) -> None:
    """A person on the lobby page: subscribed, reading every change (and answering pings)."""
    async with connect(url, compression=compression, max_size=2**24) as ws:
        await ws.send(dumps({"v": 1, "type": "hello"}))
        await ws.send(dumps({"v": 1, "type": "lobby"}))
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "ping":
                await ws.send(PONG)
            elif message["type"].startswith("lobby") and stats.measured(time.perf_counter()):
                stats.lobby_messages += 1
                stats.lobby_bytes += len(raw)


async def watch_loop(stats: Stats, interval: float = 0.01) -> None:
    """How late this event loop wakes up: a busy client adds to every latency it measures."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(interval)
        after = time.perf_counter()
        if stats.measured(before):
            stats.lags.append(after - before - interval)


async def play(pipe: Connection, job: dict[str, Any]) -> dict[str, Any]:
    stats = Stats()
    url, compression = job["url"], job["compression"]
    tokens: list[list[str]] = job["tokens"]
    groups = [
        Group(index, stats, job, tokens[n] if tokens else None)
        for n, index in enumerate(job["indices"])
    ]
    pipe.send("ready")
    # The parent's clock: time.perf_counter is the system's monotonic clock on Linux.
    t0, stats.start, stats.end = pipe.recv()
    ramp, tables = job["ramp"], job["tables"]

    async def open_later(group: Group, index: int) -> None:
        await asyncio.sleep(max(0.0, t0 + ramp * index / tables - time.perf_counter()))
        try:
            await group.open(url, compression)
        except Exception as error:
            stats.errors[f"client: could not open ({type(error).__name__})"] += 1

    watchers = [asyncio.create_task(watch_lobby(url, compression, stats))
                for _ in range(job["lobby_watchers"])]  # fmt: skip
    pairs = zip(groups, job["indices"], strict=True)
    openers = [asyncio.create_task(open_later(group, index)) for group, index in pairs]
    watcher = asyncio.create_task(watch_loop(stats))
    # This process's own collector: a full collection of a process holding thousands of
    # sockets stops its loop for hundreds of milliseconds, and every move it was timing
    # meanwhile looks that much slower. What the ramp built is collected and frozen a
    # little before the window, and the collector stays off during it.
    settle = min(5.0, max(0.0, stats.start - t0) / 2)
    await asyncio.sleep(max(0.0, stats.start - settle - time.perf_counter()))
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(max(0.0, stats.start - time.perf_counter()))
    opened_at_start = stats.opened
    cpu = time.process_time()
    await asyncio.sleep(max(0.0, stats.end - time.perf_counter()))
    client_cpu = (time.process_time() - cpu) / (stats.end - stats.start)
    await asyncio.sleep(1.0)  # the last moves of the window reach every seat
    unfinished = sum(stats.measured(e[0]) for g in groups for e in g.pending.values())
    stats.closing = True
    gc.enable()
    for task in [watcher, *watchers, *openers]:
        task.cancel()
    await asyncio.gather(*(g.close() for g in groups), watcher, *watchers, *openers,
                         return_exceptions=True)  # fmt: skip
    return {
        "latencies": stats.latencies,
        "sent": stats.sent,
        "lags": stats.lags,
        "games": stats.games,
        "errors": dict(stats.errors),
        "unfinished": unfinished,
        "opened_at_start": opened_at_start,
        "opened": stats.opened,
        "client_cpu": client_cpu,
        "lobby_messages": stats.lobby_messages,
        "lobby_bytes": stats.lobby_bytes,
    }


def worker(pipe: Connection, job: dict[str, Any]) -> None:
    """A client process: ``job`` names its tables; results go back through ``pipe``."""
    os.setsid()  # a CPU share of its own where the kernel groups by session (autogroup)
    try:
        import uvloop  # the clients' own loop: a cheaper client measures the server better

        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        runner = asyncio.Runner()
    with runner:
        result = runner.run(play(pipe, job))
    pipe.send(result)
    pipe.close()
