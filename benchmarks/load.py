"""Load on the game server: N tables at once, each played by four WebSocket clients.

Starts ``sahrat serve`` and plays seeded random legal moves from four clients per
table, in ``--client-processes`` worker processes (:mod:`load_clients`); for each
accepted move it measures the time from sending ``act`` until all four seats have
received the ``table`` message past that move. With ``--stake N`` the clients are
registered accounts playing coin tables of that stake, and the ledger is audited at
the end. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import re
import resource
import shutil
import signal
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

from load_clients import SEATS, worker

#: Bots with no think time act faster than the per-connection limit meant for people.
#: The benchmark's clients all come from one address: the per-address limits that stop
#: one machine filling the database would otherwise refuse its guests and tables.
SERVER_SETTINGS = {
    "messages_per_second": "100000",
    "message_burst": "100000",
    "guests_burst": "100000",
    "tables_burst": "100000",
    # The pause after a Buraco hand is for people reading its summary: the clients here
    # read nothing, and a pause would be counted as latency of the next move.
    "hand_pause_seconds": "0",
}
#: With --stake: every client is a registered account (new accounts and tables from the
#: one address the benchmark runs on are not limited), each rich enough never to run out.
COIN_SETTINGS = {
    "accounts_burst": "100000",
    "starting_grant": str(10**12),
}
PASSWORD = "load benchmark"
REPORT = """\
{game}: {tables} tables, {clients} clients in {client_processes} processes, {seconds:g} s \
measured, think {think_ms} ms, ramp {ramp:g} s, {database}, compression {compression}
actions/s       {actions_per_s:.1f}  ({actions} actions, {unfinished} not seen by every seat)
latency ms      p50 {p50_ms:.1f}  p90 {p90_ms:.1f}  p99 {p99_ms:.1f}  max {max_ms:.1f}
p99 by tenth    {tenths}
games finished  {games_finished}  (tables open when the window began: {opened_at_start})
errors          {errors_text}
server          CPU {server_cpu:.0%} of a core, {per_action} ms of CPU per action, RSS {rss} \
({per_table} kB per table)
collections     {gc}
full            {full_gc}
client          CPU {client_cpu:.0%} of a core at most per process ({client_cpu_total:.0%} in \
all), event loop lag p99 {client_lag_p99_ms:.1f} ms"""
LOBBY_REPORT = """
lobby           {lobby_watchers} watchers received {lobby_kb_per_s:.1f} kB/s in all"""
COIN_REPORT = """
coins           stake {stake}, {accounts} accounts
ledger          {ledger}"""


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``--workers N`` serves from N child processes)."""
    found, i = [pid], 0
    while i < len(found):
        for children in Path(f"/proc/{found[i]}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                found.extend(int(child) for child in children.read_text().split())
        i += 1
    return found


def server_cpu(pid: int) -> float:
    """Seconds of CPU used by the server's processes so far (user + system)."""
    total = 0
    for each in process_tree(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def server_rss_mb(pid: int) -> float | None:
    total = None
    for each in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total = (total or 0) + int(line.split()[1]) / 1024
    return total


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


def gc_pauses(log: Path, after: int) -> str | None:
    """The server's last collection summary (written on SIGUSR1) past byte ``after``."""
    text = log.read_bytes()[after:].decode(errors="replace")
    summaries = re.findall(r"^gc: (\d+ collections \(.*)$", text, re.MULTILINE)
    return summaries[-1] if summaries else None


def full_collections(log: Path) -> str:
    """The server's full collections since it started (each logged as it ends): the
    ramp's and warm-up's too, which the window's summary does not count."""
    found = re.findall(r"gc: full collection, (\d+) objects freed in (\d+) ms", log.read_text())
    if not found:
        return "none since the server started"
    pauses = ", ".join(ms for _, ms in found)
    freed = sum(int(n) for n, _ in found)
    return f"{len(found)} since the server started, {pauses} ms; {freed} objects freed"


def measure(args: argparse.Namespace, port: int, pid: int, log: Path) -> dict[str, Any]:
    url = f"ws://127.0.0.1:{port}/ws"
    rss_before = server_rss_mb(pid)
    tokens: list[str] = []
    if args.stake:
        tokens = register(port, SEATS * args.tables)
    compression = None if args.no_compression else "deflate"
    processes = max(1, min(args.client_processes, args.tables))
    context = multiprocessing.get_context("spawn")
    workers = []
    for p in range(processes):
        indices = list(range(p, args.tables, processes))
        job = {
            "url": url,
            "compression": compression,
            "indices": indices,
            "tokens": [tokens[SEATS * i : SEATS * (i + 1)] for i in indices] if tokens else [],
            "game": args.game,
            "stake": args.stake,
            "think_ms": args.think_ms,
            "seed": args.seed,
            "ramp": args.ramp,
            "tables": args.tables,
            "lobby_watchers": args.lobby_watchers // processes
            + (p < args.lobby_watchers % processes),
        }
        mine, theirs = context.Pipe()
        process = context.Process(target=worker, args=(theirs, job), daemon=True)
        process.start()
        workers.append((process, mine))
    for _, pipe in workers:
        if pipe.recv() != "ready":
            raise SystemExit("a client process did not start")
    t0 = time.perf_counter() + 0.2
    start = t0 + args.ramp + args.warmup
    end = start + args.seconds
    for _, pipe in workers:
        pipe.send((t0, start, end))
    timed = "timed on SIGUSR1" in log.read_text(errors="replace")
    time.sleep(max(0.0, start - time.perf_counter()))
    if timed:
        os.kill(pid, signal.SIGUSR1)  # the collections of the warm-up are not counted
    served = server_cpu(pid)
    time.sleep(max(0.0, end - time.perf_counter()))
    server_share = (server_cpu(pid) - served) / (end - start)
    rss = server_rss_mb(pid)
    mark = log.stat().st_size
    if timed:
        os.kill(pid, signal.SIGUSR1)
    results = [pipe.recv() for _, pipe in workers]
    for process, _ in workers:
        process.join(10)
    elapsed = end - start
    ms = [x * 1000 for r in results for x in r["latencies"]]
    # p99 of each tenth of the window: a stall shows where it fell.
    slices: list[list[float]] = [[] for _ in range(10)]
    for r in results:
        for sent, latency in zip(r["sent"], r["latencies"], strict=True):
            slices[min(9, int(10 * (sent - start) / (end - start)))].append(latency * 1000)
    lags = [x for r in results for x in r["lags"]]
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    client_cpus = [r["client_cpu"] for r in results]
    opened = sum(r["opened"] for r in results)
    actions = len(ms)
    return {
        "game": args.game,
        "tables": args.tables,
        "clients": SEATS * args.tables,
        "client_processes": processes,
        "seconds": round(elapsed, 2),
        "think_ms": "-".join(f"{x:g}" for x in sorted(set(args.think_ms))),
        "ramp": args.ramp,
        "database": args.database_url.split(":")[0] or "sqlite",
        "compression": compression or "none",
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        **{f"p{q}_ms": round(quantile(ms, q / 100), 2) for q in (50, 90, 99)},
        "max_ms": round(max(ms, default=float("nan")), 2),
        "p99_ms_by_tenth": [round(quantile(part, 0.99), 1) for part in slices],
        "unfinished": sum(r["unfinished"] for r in results),
        "opened_at_start": sum(r["opened_at_start"] for r in results),
        "games_finished": sum(r["games"] for r in results),
        "errors": dict(errors),
        "server_rss_mb": None if rss is None else round(rss, 1),
        # Over the tables that opened: on an overloaded server some may not have.
        "server_kb_per_table": None
        if rss is None or rss_before is None or not opened
        else round((rss - rss_before) * 1024 / opened, 1),
        "server_cpu": round(server_share, 3),
        "server_ms_per_action": round(1000 * server_share * elapsed / actions, 3)
        if actions
        else None,
        "gc": gc_pauses(log, mark) if timed else None,
        "full_gc": full_collections(log),
        "lobby_watchers": args.lobby_watchers,
        "lobby_kb_per_s": round(sum(r["lobby_bytes"] for r in results) / 1024 / elapsed, 1),
        "client_cpu": round(max(client_cpus), 2),
        "client_cpu_total": round(sum(client_cpus), 2),
        "client_lag_p99_ms": round(quantile(lags, 0.99) * 1000, 2),
        "client_bound": max(client_cpus) >= 0.8,
    }


def start_server(args: argparse.Namespace, data_dir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(args.port),
               "--data-dir", str(data_dir), "--bot-delay", "0"]  # fmt: skip
    if args.database_url:
        command += ["--database-url", args.database_url]
    for option in args.serve_option:
        command += option.split()
    settings = dict(SERVER_SETTINGS)
    if args.stake:
        offered = {50, 100, 250, 500, 1000, args.stake}
        settings.update(COIN_SETTINGS, stakes=",".join(map(str, sorted(offered))))
    for name, value in settings.items():
        command += ["--set", f"{name}={value}"]
    log = (data_dir / "server.log").open("ab")
    # A session of its own: where the kernel groups processes by session (autogroup),
    # the server then has its own share of the CPU, as a deployed one would, rather
    # than one share split with the benchmark's clients.
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
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
    rss, per_table = result["server_rss_mb"], result["server_kb_per_table"]
    per_action = result["server_ms_per_action"]
    text = REPORT.format(
        **result,
        tenths=" ".join(f"{x:.0f}" for x in result["p99_ms_by_tenth"]),
        errors_text=errors,
        rss=f"{rss:.0f} MB" if rss else "?",
        per_table="?" if per_table is None else f"{per_table:.0f}",
        per_action="?" if per_action is None else f"{per_action:.3f}",
    )
    if result["gc"] is None:
        text = text.replace("collections     None", "collections     (not reported by this server)")
    if result["lobby_watchers"]:
        text += LOBBY_REPORT.format(**result)
    if result.get("stake"):
        text += COIN_REPORT.format(**result)
    if result["client_bound"]:
        text += "\nwarning: a client process is near a full core: it may be the bottleneck,"
        text += " and its own delays are in the latencies"
    return text


def think_range(text: str) -> tuple[float, float]:
    """``MS`` or ``A-B``: the bounds of a move's think time, in ms."""
    low, _, high = text.partition("-")
    bounds = (float(low), float(high or low))
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError("think times are A-B with 0 <= A <= B")
    return bounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--game", choices=("jackaroo", "buraco"), default="jackaroo")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument(
        "--think-ms",
        type=think_range,
        default=(0.0, 0.0),
        metavar="MS|A-B",
        help="each move's think time, drawn uniformly from A to B ms (default 0)",
    )
    parser.add_argument("--ramp", type=float, default=0.0, help="open the tables over S seconds")
    parser.add_argument(
        "--client-processes", type=int, default=1, help="split the clients over N processes"
    )
    parser.add_argument(
        "--lobby-watchers", type=int, default=0, help="clients that only watch the lobby"
    )
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        metavar="ARGS",
        help="more arguments for sahrat serve, e.g. '--loop asyncio' (repeatable)",
    )
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
    if args.client_processes < 1:
        parser.error("--client-processes must be at least 1")
    # Four sockets a table in the clients, as many in the server (which inherits this).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < SEATS * args.tables + 100:
        parser.error(f"{SEATS * args.tables} sockets need more open files than the limit {hard}")
    if not args.port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = int(s.getsockname()[1])
    data_dir = Path(tempfile.mkdtemp(prefix="sahrat-load-"))
    process = None
    try:
        process = start_server(args, data_dir)
        result = measure(args, args.port, process.pid, data_dir / "server.log")
        if args.stake:
            stop_server(process)  # then the audit reads what the server left
            result.update(stake=args.stake, accounts=SEATS * args.tables)
            result["ledger"] = audit_ledger(args, data_dir)
    finally:
        if process is not None:
            stop_server(process)
        shutil.rmtree(data_dir, ignore_errors=True)
    if args.json:  # no NaN in JSON: null when nothing was measured

        def clean(value: Any) -> Any:
            if isinstance(value, list):
                return [clean(item) for item in value]
            return None if isinstance(value, float) and math.isnan(value) else value

        print(json.dumps({k: clean(v) for k, v in result.items()}))
    else:
        print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
