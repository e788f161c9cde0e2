"""Load on the game server: N tables at once, each played by four WebSocket clients.

Starts ``sahrat serve`` and plays seeded random legal moves from four clients per
table, all in this process's one event loop; for each accepted move it measures the
time from sending ``act`` until all four seats have received the ``table`` message
past that move. With ``--stake N`` the clients are registered accounts playing coin
tables of that stake, and the ledger is audited at the end. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PONG = json.dumps({"v": 1, "type": "pong"})
#: Bots with no think time act faster than the per-connection limit meant for people.
#: The benchmark's clients all come from one address: the per-address limits that stop
#: one machine filling the database would otherwise refuse its guests and tables.
SERVER_SETTINGS = {
    "messages_per_second": "100000",
    "message_burst": "100000",
    "guests_burst": "100000",
    "tables_burst": "100000",
}
SEATS = 4
#: With --stake: every client is a registered account (new accounts and tables from the
#: one address the benchmark runs on are not limited), each rich enough never to run out.
COIN_SETTINGS = {
    "accounts_burst": "100000",
    "starting_grant": str(10**12),
}
PASSWORD = "load benchmark"
REPORT = """\
{game}: {tables} tables, {clients} clients, {seconds:g} s measured, think {think_ms:g} ms, \
{database}, compression {compression}
actions/s       {actions_per_s:.1f}  ({actions} actions, {unfinished} not seen by every seat)
latency ms      p50 {p50_ms:.1f}  p90 {p90_ms:.1f}  p99 {p99_ms:.1f}  max {max_ms:.1f}
games finished  {games_finished}
errors          {errors_text}
server          CPU {server_cpu:.0%} of a core, RSS {rss}
client          CPU {client_cpu:.0%} of a core, event loop lag p99 {client_lag_p99_ms:.1f} ms"""
COIN_REPORT = """
coins           stake {stake}, {accounts} accounts
ledger          {ledger}"""


class Stats:
    def __init__(self) -> None:
        self.start = self.end = float("inf")
        self.latencies: list[float] = []
        self.lags: list[float] = []
        self.games = 0
        self.closing = False
        self.errors: Counter[str] = Counter()

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
        await self.ws.send(json.dumps({"v": 1, **message}))

    async def read(self) -> None:
        assert self.ws is not None
        group, stats = self.group, self.group.stats
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "table":
                    await group.on_table(self, message)
                elif kind == "ping":
                    await self.ws.send(PONG)
                elif kind == "seed_request":
                    await self.send(type="seed", seed=f"s{group.rng.getrandbits(48):x}")
                elif kind == "error":
                    stats.errors[message["code"]] += 1
        except ConnectionClosed:
            if not stats.closing:
                stats.errors["client: connection closed"] += 1
        except Exception as error:  # a client that stops is an error of the run, not silence
            stats.errors[f"client: {type(error).__name__}"] += 1


class Group:
    """The four clients that play one table after another."""

    def __init__(
        self, index: int, stats: Stats, args: argparse.Namespace, tokens: list[str] | None = None
    ) -> None:
        self.stats = stats
        self.game: str = args.game
        self.stake: int = args.stake
        self.think = args.think_ms / 1000
        self.rng = random.Random(f"{args.seed}-{index}")
        self.bots = [Bot(self, tokens[n] if tokens else None) for n in range(SEATS)]
        self.table = ""
        self.creating = False
        #: (table, moves before the action) -> [sent at, seats that have not seen it yet]
        self.pending: dict[tuple[str, int], list[float]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def connect(self, url: str, compression: str | None) -> None:
        for bot in self.bots:
            bot.ws = await connect(url, compression=compression, max_size=2**22)
            if bot.token:
                await bot.send(type="hello", token=bot.token)
            else:
                await bot.send(type="hello")
            self.tasks.add(asyncio.create_task(bot.read()))

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
            if self.think > 0:
                task = asyncio.create_task(self.act(bot, table, action, moves, self.think))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            else:
                await self.act(bot, table, action, moves, 0.0)

    async def act(self, bot: Bot, table: str, action: str, moves: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        self.pending[(table, moves)] = [time.perf_counter(), SEATS]
        await bot.send(type="act", action=action, moves=moves)

    async def close(self) -> None:
        for bot in self.bots:
            with contextlib.suppress(Exception):
                await bot.ws.close()  # type: ignore[union-attr]
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def watch_loop(stats: Stats, interval: float = 0.01) -> None:
    """How late this event loop wakes up: a busy client adds to every latency it measures."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(interval)
        after = time.perf_counter()
        if stats.measured(before):
            stats.lags.append(after - before - interval)


def server_cpu(pid: int) -> float:
    """Seconds of CPU used by the process so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_rss_mb(pid: int) -> float | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values) or [float("nan")]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def register(port: int, count: int) -> list[str]:
    """``count`` new accounts over REST (``POST /api/accounts``): their session tokens.
    A few at a time: the server hashes each password with argon2id."""

    def one(n: int) -> str:
        body = json.dumps({"name": f"load {n}", "password": PASSWORD}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/accounts",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return str(json.loads(response.read())["token"])

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(count)))


def audit_ledger(args: argparse.Namespace, data_dir: Path) -> str:
    """``sahrat ledger audit`` on the server's database: its last line."""
    command = [sys.executable, "-m", "sahrat.cli.main", "ledger", "audit"]
    if args.database_url:
        command += ["--database-url", args.database_url]
    else:
        command += ["--data-dir", str(data_dir)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
    lines = (done.stdout.strip() or done.stderr.strip() or "no output").splitlines()
    return f"{lines[-1]} (exit {done.returncode})"


async def measure(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    stats = Stats()
    url = f"ws://127.0.0.1:{port}/ws"
    tokens: list[str] = []
    if args.stake:
        tokens = await asyncio.to_thread(register, port, SEATS * args.tables)
    groups = [
        Group(i, stats, args, tokens[SEATS * i : SEATS * (i + 1)] or None)
        for i in range(args.tables)
    ]
    compression = None if args.no_compression else "deflate"
    await asyncio.gather(*(g.connect(url, compression) for g in groups))
    for group in groups:
        await group.new_table()
    watcher = asyncio.create_task(watch_loop(stats))
    await asyncio.sleep(args.warmup)
    stats.start, cpu, served = time.perf_counter(), time.process_time(), server_cpu(pid)
    await asyncio.sleep(args.seconds)
    stats.end = time.perf_counter()
    elapsed = stats.end - stats.start
    client_cpu = (time.process_time() - cpu) / elapsed
    server_share = (server_cpu(pid) - served) / elapsed
    await asyncio.sleep(1.0)  # the last moves of the window reach every seat
    unfinished = sum(stats.measured(e[0]) for g in groups for e in g.pending.values())
    rss = server_rss_mb(pid)
    watcher.cancel()
    stats.closing = True
    await asyncio.gather(*(g.close() for g in groups), watcher, return_exceptions=True)
    ms = [x * 1000 for x in stats.latencies]
    return {
        "game": args.game,
        "tables": args.tables,
        "clients": SEATS * args.tables,
        "seconds": round(elapsed, 2),
        "think_ms": args.think_ms,
        "database": args.database_url.split(":")[0] or "sqlite",
        "compression": compression or "none",
        "actions": len(ms),
        "actions_per_s": round(len(ms) / elapsed, 1),
        **{f"p{q}_ms": round(quantile(ms, q / 100), 2) for q in (50, 90, 99)},
        "max_ms": round(max(ms, default=float("nan")), 2),
        "unfinished": unfinished,
        "games_finished": stats.games,
        "errors": dict(stats.errors),
        "server_rss_mb": None if rss is None else round(rss, 1),
        "server_cpu": round(server_share, 2),
        "client_cpu": round(client_cpu, 2),
        "client_lag_p99_ms": round(quantile(stats.lags, 0.99) * 1000, 2),
        "client_bound": client_cpu >= 0.8,
    }


def start_server(args: argparse.Namespace, data_dir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(args.port),
               "--data-dir", str(data_dir), "--bot-delay", "0"]  # fmt: skip
    if args.database_url:
        command += ["--database-url", args.database_url]
    settings = dict(SERVER_SETTINGS)
    if args.stake:
        offered = {50, 100, 250, 500, 1000, args.stake}
        settings.update(COIN_SETTINGS, stakes=",".join(map(str, sorted(offered))))
    for name, value in settings.items():
        command += ["--set", f"{name}={value}"]
    log = (data_dir / "server.log").open("ab")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{args.port}/api/health", timeout=2).close()
            return process
        time.sleep(0.1)
    stop_server(process)
    tail = (data_dir / "server.log").read_text(errors="replace")[-2000:]
    raise SystemExit(f"the server did not start:\n{tail}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def report(result: dict[str, Any]) -> str:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(result["errors"].items())) or "none"
    rss = result["server_rss_mb"]
    text = REPORT.format(**result, errors_text=errors, rss=f"{rss:.0f} MB" if rss else "?")
    if result.get("stake"):
        text += COIN_REPORT.format(**result)
    if result["client_bound"]:
        text += "\nwarning: the benchmark client is near a full core: it may be the bottleneck,"
        text += " and its own delays are in the latencies"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--game", choices=("jackaroo", "buraco"), default="jackaroo")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument("--think-ms", type=float, default=0.0, help="a client's think time")
    parser.add_argument("--database-url", default="", help="default: SQLite in a temporary dir")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--seed", default="load", help="seed of the clients' move choices")
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument(
        "--stake",
        type=int,
        default=0,
        help="coin tables of this stake, played by registered accounts; the ledger is "
        "audited at the end",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if args.stake < 0:
        parser.error("--stake must be positive")
    if not args.port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = int(s.getsockname()[1])
    data_dir = Path(tempfile.mkdtemp(prefix="sahrat-load-"))
    process = None
    try:
        process = start_server(args, data_dir)
        result = asyncio.run(measure(args, args.port, process.pid))
        if args.stake:
            stop_server(process)  # then the audit reads what the server left
            result.update(stake=args.stake, accounts=SEATS * args.tables)
            result["ledger"] = audit_ledger(args, data_dir)
    finally:
        if process is not None:
            stop_server(process)
        shutil.rmtree(data_dir, ignore_errors=True)
    if args.json:  # no NaN in JSON: null when nothing was measured
        nan = {k for k, v in result.items() if isinstance(v, float) and math.isnan(v)}
        print(json.dumps({k: None if k in nan else v for k, v in result.items()}))
    else:
        print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
