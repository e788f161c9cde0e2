"""Heartbeats for every connection from one task: the client answers ``pong``, and any
message from it proves it is there (the reader closes a socket silent for longer than
``heartbeat_timeout``).

One sleeping task per socket was the largest cost of a server holding thousands of idle
sockets (each wake-up a task switch, each ping encoded anew). Here the connections are
spread over :data:`PARTS` groups pinged in turn, so the pings of a whole interval are
spread evenly over it, and each group's ping is encoded once.
"""

from __future__ import annotations

import asyncio
import time

from sahrat.server import protocol
from sahrat.server.client import Client

#: The groups a heartbeat interval is split into.
PARTS = 10


class Heartbeat:
    """Pings every added connection once per ``interval`` seconds, until it is discarded."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.groups: list[set[Client]] = [set() for _ in range(PARTS)]
        self._added = 0
        self._task: asyncio.Task[None] | None = None

    def add(self, client: Client) -> None:
        self.groups[self._added % PARTS].add(client)
        self._added += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="heartbeat")

    def discard(self, client: Client) -> None:
        for group in self.groups:
            group.discard(client)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        # The task ends when nobody is left; the next connection starts it again.
        while any(self.groups):
            for group in self.groups:
                await asyncio.sleep(self.interval / PARTS)
                if group:
                    text = protocol.dumps({"type": "ping", "t": round(time.time() * 1000)})
                    for client in list(group):
                        if not client.closed:
                            client.send_text(text)
