"""The operations endpoints: ``/healthz`` (the process answers), ``/readyz`` (it can do
its work: the database, and in cluster mode Redis and the leases) and ``/metrics``.

A readiness check is a coroutine function returning what is wrong (``None``: nothing);
each runs under a time limit, so a hanging dependency makes ``/readyz`` say so rather
than hang the load balancer's probe.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence

from sqlalchemy import Engine, text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sahrat.server import metrics

#: What is wrong, or ``None``.
Check = Callable[[], Awaitable[str | None]]

#: Seconds a readiness check may take before it counts as failed.
CHECK_SECONDS = 3.0


def database_check(engine: Engine) -> Check:
    """The database answers a query (in a thread: the driver blocks)."""

    def ping() -> None:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    async def check() -> str | None:
        try:
            await asyncio.to_thread(ping)
        except Exception as error:
            return f"database unreachable: {type(error).__name__}: {error}"
        return None

    return check


async def _run(check: Check) -> str | None:
    try:
        return await asyncio.wait_for(check(), CHECK_SECONDS)
    except TimeoutError:
        return f"a readiness check took over {CHECK_SECONDS:g} s"


def operations_routes(checks: Sequence[Check], node: str | None = None) -> list[Route]:
    """``/healthz``, ``/readyz`` (running ``checks``) and ``/metrics``.

    ``/healthz`` names the node (``None`` when it has no id of its own) and the process,
    so behind one port shared by several workers an operator sees which one answered.
    """
    # Read once: a node never changes process (a restarted worker is a new app).
    pid = os.getpid()

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "node": node, "pid": pid})

    async def readyz(request: Request) -> Response:
        problems = [p for p in await asyncio.gather(*(_run(c) for c in checks)) if p]
        if problems:
            return JSONResponse({"ready": False, "problems": problems}, status_code=503)
        return JSONResponse({"ready": True})

    async def metrics_text(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)

    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_text),
    ]
