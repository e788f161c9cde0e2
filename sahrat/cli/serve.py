"""``sahrat serve``: the game server, on SQLite in a data directory or on PostgreSQL."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

from sahrat.errors import MalformedInput
from sahrat.server.instance_lock import DatabaseInUse, InstanceLock
from sahrat.server.settings import Settings, default_data_dir

#: The largest WebSocket frame accepted at all; the protocol refuses anything above
#: its own (much smaller) limit with an error, so a big frame costs a reply, not a link.
WS_MAX_FRAME = 2 * 1024 * 1024

#: Exit status when another server already uses the database: not bad input (the
#: command was fine), the environment was not ready for it.
EXIT_DATABASE_IN_USE = 1


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
        "--loop",
        choices=("auto", "asyncio", "uvloop"),
        default="auto",
        help="the event loop: uvloop when it is installed (auto), else asyncio's own",
    )
    parser.add_argument(
        "--deflate",
        choices=("zlib", "zlib-ng"),
        default="zlib",
        help="the WebSocket compressor: stock zlib, or zlib-ng (less CPU a message, "
        "more memory a socket; the 'fast' extra)",
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
        "--gc-full-every",
        type=float,
        default=None,
        metavar="S",
        help="a full collection of everything every S seconds when freezing "
        "(default sahrat.server.gc_pauses.FULL_EVERY)",
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
    )
    changes: dict[str, object] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in Settings.__dataclass_fields__ or name in ("data_dir", "database_url"):
            raise MalformedInput(f"no setting {name!r}", item)
        kind: type[Any] = type(getattr(settings, name))
        try:
            changes[name] = kind(value)
        except (TypeError, ValueError):
            raise MalformedInput(f"bad value for {name}: {value!r}", item) from None
    return settings.with_(**changes)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from sahrat.server import gc_pauses
    from sahrat.server.app import create_app
    from sahrat.server.compression import DeflateWherePays, use_zlib_ng

    settings = settings_from(args)
    if args.deflate == "zlib-ng":
        try:
            use_zlib_ng(True)
        except ImportError:
            print("sahrat: --deflate zlib-ng needs zlib-ng (pip install 'sahrat[fast]')",
                  file=sys.stderr)  # fmt: skip
            return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not settings.database_url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    # Taken before anything touches the tables or the port, held until the process ends:
    # a second server on this database would restore and drive the same tables.
    lock = InstanceLock(settings.url)
    try:
        lock.acquire()
    except DatabaseInUse as error:
        print(f"sahrat: {error}", file=sys.stderr, flush=True)
        return EXIT_DATABASE_IN_USE
    with lock:
        where = settings.database_url.split("@")[-1] if settings.database_url else settings.url
        print(f"Sahrat: open http://{args.host}:{args.port}/  (data: {where})", flush=True)
        app: Any = create_app(settings)
        gc_pauses.install_monitor()
        gc_pauses.tune(gc_pauses.YOUNG if args.gc_young is None else args.gc_young)
        if not args.no_gc_freeze:
            every = args.gc_freeze_every
            full = args.gc_full_every
            app = gc_pauses.freeze_after_startup(
                app,
                gc_pauses.FREEZE_EVERY if every is None else every,
                gc_pauses.FULL_EVERY if full is None else full,
            )
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            loop=args.loop,
            ws=DeflateWherePays,
            ws_max_size=WS_MAX_FRAME,
            log_level="warning",
        )
    return 0
