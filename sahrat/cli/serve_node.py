"""One serving process of ``sahrat serve``: its options, its app and uvicorn, whether
it is the only one or a worker of ``--workers`` (:mod:`sahrat.cli.serve_workers`)."""

from __future__ import annotations

import argparse
import contextlib
import socket
from collections.abc import Callable, MutableMapping
from typing import Any

from sahrat.server.settings import Settings

#: The largest WebSocket frame accepted at all; the protocol refuses anything above
#: its own (much smaller) limit with an error, so a big frame costs a reply, not a link.
WS_MAX_FRAME = 2 * 1024 * 1024

#: Exit status when the app could not start (uvicorn's own for the same).
EXIT_STARTUP_FAILURE = 3


def process_options(args: argparse.Namespace, node: str) -> None:
    """What every serving process sets for itself before it builds its app (a worker is a
    new process, so it sets them again): the compressor and logging, naming ``node``
    (empty: a single process). ImportError when zlib-ng was chosen and is not installed."""
    from sahrat.server import logs
    from sahrat.server.compression import choose_deflater

    choose_deflater(args.deflate)
    logs.configure(args.log_format, node or None)


def serve_node(
    args: argparse.Namespace,
    settings: Settings,
    sockets: list[socket.socket] | None = None,
    on_started: Callable[[], None] | None = None,
) -> bool:
    """Run one node until it is told to stop: the app, the collector's tuning and freeze,
    the loop and the WebSocket options, on ``--host``/``--port`` or on ``sockets`` bound
    by a parent. ``on_started`` is called once the app's start-up has completed. Whether
    it started (False: its start-up failed)."""
    import uvicorn

    from sahrat.server import gc_pauses
    from sahrat.server.app import create_app
    from sahrat.server.compression import DeflateWherePays

    app: Any = create_app(settings)
    gc_pauses.install_monitor()
    gc_pauses.tune(gc_pauses.YOUNG if args.gc_young is None else args.gc_young)
    if not args.no_gc_freeze:
        every = args.gc_freeze_every
        growth = args.gc_full_growth
        app = gc_pauses.freeze_after_startup(
            app,
            gc_pauses.FREEZE_EVERY if every is None else every,
            gc_pauses.FULL_GROWTH if growth is None else growth,
        )
    if on_started is not None:
        app = _calling_when_started(app, on_started)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        loop=args.loop,
        ws=DeflateWherePays,
        ws_max_size=WS_MAX_FRAME,
        # The application's heartbeat already pings every socket every few seconds and
        # drops the silent ones; uvicorn's own pings (every 20 s, a timer per socket) would
        # only add 400 pings a second and 8,000 timers at 2,000 tables.
        ws_ping_interval=None,
        log_level="warning",
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    # uvicorn raises a SIGINT again once it has shut down for one: that is the end.
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=sockets)
    return server.started


def _calling_when_started(app: Any, callback: Callable[[], None]) -> Any:
    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def sending(message: MutableMapping[str, Any]) -> None:
            await send(message)
            if message["type"] == "lifespan.startup.complete":
                callback()

        await app(scope, receive, sending)

    return wrapped
