"""``sahrat serve``: the game server, on SQLite in a data directory or on PostgreSQL."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from sahrat.cli.serve_node import EXIT_STARTUP_FAILURE, process_options, serve_node
from sahrat.errors import MalformedInput
from sahrat.server.cluster.node import Node, generated_id
from sahrat.server.instance_lock import DatabaseInUse, InstanceLock
from sahrat.server.settings import Settings, default_data_dir

#: Exit status when another server already uses the database: not bad input (the
#: command was fine), the environment was not ready for it.
EXIT_DATABASE_IN_USE = 1

#: ``--workers`` at most: each worker is a whole node with its own connections to the
#: database and Redis, so more than this on one host is a mistake, not a deployment.
MAX_WORKERS = 64

#: Settings with flags of their own (and checks there), so ``--set`` may not change them.
FLAGGED = ("data_dir", "database_url", "redis_url", "node_id")


def _growth(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r}: a fraction above 0, e.g. 0.5")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("serve", help="run the game server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the SQLite file lives (default: $SAHRAT_DATA_DIR, "
        "else the user's data directory)",
    )
    parser.add_argument(
        "--database-url", default="", help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db"
    )
    parser.add_argument(
        "--redis-url",
        default="",
        metavar="URL",
        help="join a cluster: the nodes sharing one PostgreSQL --database-url meet in "
        "this Redis, e.g. redis://host:6379/0 (default: one process, no cluster)",
    )
    parser.add_argument(
        "--node-id",
        default="",
        metavar="ID",
        help="this node's name (1-64 letters, digits, '.', '_' or '-'; default: host, pid "
        "and a random part); with --workers N the nodes are ID-1 to ID-N",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=f"N nodes in N processes sharing the port, restarted if one dies (1-{MAX_WORKERS};"
        " above 1 needs --redis-url)",
    )
    parser.add_argument("--turn-seconds", type=float, default=15.0)
    parser.add_argument("--grace-seconds", type=float, default=60.0)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument(
        "--search-workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes searching for the autopilot (default: one per core; 0: in the server)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="the load balancers whose X-Forwarded-For is believed (comma-separated, or "
        "'*'): the per-address limits then count players, not the balancer "
        "(default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="log lines as text, or one JSON object a line with the node and table ids",
    )
    parser.add_argument(
        "--loop",
        choices=("auto", "asyncio", "uvloop"),
        default="auto",
        help="the event loop: uvloop when it is installed (auto), else asyncio's own",
    )
    parser.add_argument(
        "--deflate",
        choices=("auto", "zlib", "zlib-ng"),
        default="auto",
        help="the WebSocket compressor: zlib-ng when it is installed (auto; half the CPU "
        "a message), else stock zlib",
    )
    parser.add_argument(
        "--gc-young",
        type=int,
        default=None,
        metavar="N",
        help="allocations between young garbage collections (default "
        "sahrat.server.gc_pauses.YOUNG; CPython's own is 700)",
    )
    parser.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="do not freeze the start-up heap out of later garbage collections",
    )
    parser.add_argument(
        "--gc-freeze-every",
        type=float,
        default=None,
        metavar="S",
        help="freeze what survived every S seconds, 0 only at start-up (default "
        "sahrat.server.gc_pauses.FREEZE_EVERY)",
    )
    parser.add_argument(
        "--gc-full-growth",
        type=_growth,
        default=None,
        metavar="F",
        help="when freezing, a full collection of everything once the peak memory has grown "
        "by this fraction since the last one (default sahrat.server.gc_pauses.FULL_GROWTH)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any other setting of sahrat.server.settings.Settings, e.g. heartbeat_timeout=3",
    )
    parser.set_defaults(handler=run)


def settings_from(args: argparse.Namespace) -> Settings:
    settings = Settings(
        data_dir=args.data_dir or default_data_dir(),
        database_url=args.database_url,
        turn_seconds=args.turn_seconds,
        grace_seconds=args.grace_seconds,
        bot_delay=args.bot_delay,
        search_workers=args.search_workers,
        redis_url=args.redis_url,
        node_id=args.node_id,
    )
    changes: dict[str, object] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in Settings.__dataclass_fields__ or name in FLAGGED:
            raise MalformedInput(f"no setting {name!r}", item)
        kind: type[Any] = type(getattr(settings, name))
        try:
            changes[name] = kind(value)
        except (TypeError, ValueError):
            raise MalformedInput(f"bad value for {name}: {value!r}", item) from None
    return settings.with_(**changes)


def checked(settings: Settings, workers: int) -> Settings:
    """``settings`` if they make a server that can run, with the node's id settled in
    cluster mode (so the start-up line and ``/healthz`` name it); MalformedInput if not."""
    if not 1 <= workers <= MAX_WORKERS:
        raise MalformedInput(f"--workers must be 1 to {MAX_WORKERS}, not {workers}", workers)
    if workers > 1 and not settings.cluster:
        raise MalformedInput(
            "--workers above 1 needs --redis-url: the workers are the nodes of a cluster", workers
        )
    if settings.cluster and not settings.url.startswith("postgresql"):
        raise MalformedInput(
            "--redis-url needs a PostgreSQL --database-url: the nodes share one database, "
            "and SQLite cannot be shared by processes",
            settings.url,
        )
    if not settings.lease_renew_seconds < settings.lease_seconds / 2:
        raise MalformedInput(
            f"lease_renew_seconds ({settings.lease_renew_seconds:g}) must be under half of "
            f"lease_seconds ({settings.lease_seconds:g}), or one late renewal loses the tables",
            settings.lease_renew_seconds,
        )
    node_id = settings.node_id
    if workers > 1:
        # The base of ``<base>-1`` .. ``<base>-N``: the longest of them must be valid too.
        node_id = node_id or generated_id()
        check = f"{node_id}-{workers}"
    else:
        check = node_id or (generated_id() if settings.cluster else "")
        node_id = check
    if check:
        try:
            Node.create(check)
        except ValueError as error:
            raise MalformedInput(f"--node-id: {error}", check) from None
    return settings.with_(node_id=node_id)


def run(args: argparse.Namespace) -> int:
    settings = checked(settings_from(args), args.workers)
    try:
        process_options(args, settings.node_id)
    except ImportError:
        print("sahrat: --deflate zlib-ng needs zlib-ng (pip install zlib-ng)", file=sys.stderr)
        return 2
    if not settings.database_url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    where = settings.database_url.split("@")[-1] if settings.database_url else settings.url
    opening = f"Sahrat: open http://{args.host}:{args.port}/  (data: {where}"
    if args.workers > 1:
        from sahrat.cli.serve_workers import supervise

        last = f"{settings.node_id}-{args.workers}"
        print(f"{opening}; nodes {settings.node_id}-1 to {last})", flush=True)
        return supervise(args, settings, args.workers)
    node = f"; node {settings.node_id}" if settings.node_id else ""
    if settings.cluster:
        # No instance lock: the nodes of a cluster share one database by design, and the
        # leases in Redis (fenced in the database) keep them off each other's tables.
        print(f"{opening}{node})", flush=True)
        return 0 if serve_node(args, settings) else EXIT_STARTUP_FAILURE
    # Taken before anything touches the tables or the port, held until the process ends:
    # a second server on this database would restore and drive the same tables.
    lock = InstanceLock(settings.url)
    try:
        lock.acquire()
    except DatabaseInUse as error:
        print(f"sahrat: {error}", file=sys.stderr, flush=True)
        return EXIT_DATABASE_IN_USE
    with lock:
        print(f"{opening}{node})", flush=True)
        return 0 if serve_node(args, settings) else EXIT_STARTUP_FAILURE
