"""The ASGI application: the browser client, the REST API and the WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from sahrat.errors import SahratError
from sahrat.games import GAMES
from sahrat.server import messages, metrics
from sahrat.server.account_routes import account_routes
from sahrat.server.client import Client, CloseCode
from sahrat.server.cluster.hub import ClusterHub
from sahrat.server.cluster.readiness import cluster_checks
from sahrat.server.heartbeat import Heartbeat
from sahrat.server.hub import Hub
from sahrat.server.openapi import OPENAPI
from sahrat.server.operations import database_check, operations_routes
from sahrat.server.people.routes import people_routes
from sahrat.server.protocol import ProtocolError, dumps
from sahrat.server.replay import frames
from sahrat.server.security import SecurityHeaders
from sahrat.server.settings import Settings

WEB = resources.files("sahrat") / "web"
#: A pong as the web client and the load benchmark write it: nothing to do but note that
#: the socket spoke (every socket answers a ping every heartbeat interval, thousands a
#: second on a full server), so it is not parsed and dispatched.
PONG = dumps({"type": "pong"})


def create_app(settings: Settings) -> Starlette:
    hub = ClusterHub(settings) if settings.cluster else Hub(settings)
    checks = [database_check(hub.store.engine)]
    node = settings.node_id or None
    if isinstance(hub, ClusterHub):
        checks += cluster_checks(hub.redis, hub.leases)
        node = hub.node.id
    #: Open WebSockets, counted here where they open and close (for ``/metrics``).
    sockets = [0]
    metrics.bind(tables=lambda: len(hub.tables), sockets=lambda: sockets[0])

    heartbeat = Heartbeat(settings.heartbeat_interval, settings.heartbeat_timeout)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.startup()
        try:
            yield
        finally:
            await heartbeat.stop()
            await hub.shutdown()

    def problem(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def index(request: Request) -> Response:
        return FileResponse(str(WEB / "index.html"), media_type="text/html")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(hub.tables)})

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [game.catalogue() for game in GAMES.values()]})

    async def tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.lobby()})

    async def table(request: Request) -> Response:
        actor = hub.tables.get(request.path_params["table_id"])
        if actor is None or actor.kind == "private":
            return problem(404, "no such table")
        return JSONResponse(actor.summary())

    async def record(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        stored = await hub.store.run(hub.store.record, table_id)
        if stored is not None:
            return JSONResponse(stored)
        actor = hub.tables.get(table_id)
        running = None if actor is None else actor.record()
        if running is None:
            return problem(404, "no record for this table")
        # A running game's record: shuffles, deals and the seed come with the end.
        return JSONResponse(running)

    async def replay(request: Request) -> Response:
        stored = await hub.store.run(hub.store.record, request.path_params["table_id"])
        if stored is None:
            return problem(404, "no finished game here: a replay comes with the end")
        try:
            return JSONResponse(
                {"game": stored["game"], "players": stored["players"], "frames": frames(stored)}
            )
        except SahratError as error:
            return problem(400, str(error))

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        client = Client(ws, settings)
        writer = asyncio.create_task(client.write_loop())
        heartbeat.add(client)
        sockets[0] += 1
        try:
            await _read(client, ws, hub, settings)
        finally:
            sockets[0] -= 1
            hub.disconnect(client)
            client.close()
            heartbeat.discard(client)
            await asyncio.gather(writer, return_exceptions=True)

    routes = [
        Route("/", index),
        Route("/api/health", health),
        *operations_routes(checks, node),
        Route("/openapi.json", openapi),
        *account_routes(hub.accounts, settings, hub.sessions_ended, hub.table_of),
        *people_routes(hub.people, hub.accounts, settings.max_body_bytes),
        Route("/api/games", games),
        Route("/api/tables", tables),
        Route("/api/tables/{table_id}", table),
        Route("/api/records/{table_id}", record),
        Route("/api/records/{table_id}/replay", replay),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=str(WEB)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders, settings=settings)],
    )
    app.state.hub = hub
    return app


async def _read(client: Client, ws: WebSocket, hub: Hub, settings: Settings) -> None:
    task = asyncio.current_task()
    while not client.closed:
        # The heartbeat interrupts this wait when the client has been silent too long
        # (Client.drop_silent), as a timeout scope would, without a timer per message.
        client.waiting = task
        try:
            event: Any = await ws.receive()
        except asyncio.CancelledError:
            if not client.silent or (task is not None and task.uncancel() > 0):
                raise  # cancelled by someone else (the server stopping)
            client.close(CloseCode.GOING_AWAY)
            return
        finally:
            client.waiting = None
        client.heard = time.monotonic()
        if event["type"] == "websocket.disconnect":
            return
        text = event.get("text")
        if text is None:
            text = event.get("bytes") or b""
        if not client.allow() or text == PONG:
            continue
        try:
            message = messages.parse(text, settings.max_message_bytes)
        except ProtocolError as error:
            client.error(error.code, error.detail)
            continue
        await hub.dispatch(client, message)
