"""Heartbeats for every connection from one task: the client answers ``pong``, and any
message from it proves it is there; a socket silent for longer than the timeout is
dropped when its group comes round (within ``timeout + interval``).

One sleeping task per socket was the largest cost of a server holding thousands of idle
sockets (each wake-up a task switch, each ping encoded anew). Here the connections are
spread over :data:`PARTS` groups pinged in turn, so the pings of a whole interval are
spread evenly over it, and each group's ping is encoded once. The silence is checked
here too, rather than by a timer around every read: a timer per message received (a
pong every interval) left three handles per socket alive at any time, a third of the
young objects a collection walks with thousands of sockets open, and a tenth of the
server's CPU.
"""

from __future__ import annotations

import asyncio
import time

from sahrat.server import protocol
from sahrat.server.client import Client

#: The groups a heartbeat interval is split into. Each group's pings, and the pongs that
#: come back a moment later, are a burst of work every move arriving meanwhile waits
#: behind: with 8,000 sockets, 10 groups made bursts of 800 and a move's p99 at 2,000
#: tables 307 ms; 300 groups (27 sockets each) took it to 87 ms. Empty groups cost no
#: wake-up: a quiet server sleeps through them.
PARTS = 300


class Heartbeat:
    """Pings every added connection once per ``interval`` seconds, until it is discarded."""

    def __init__(self, interval: float, timeout: float) -> None:
        self.interval = interval
        self.timeout = timeout
        self.groups: list[set[Client]] = [set() for _ in range(PARTS)]
        self._group_of: dict[Client, set[Client]] = {}
        self._added = 0
        self._task: asyncio.Task[None] | None = None

    def add(self, client: Client) -> None:
        group = self.groups[self._added % PARTS]
        group.add(client)
        self._group_of[client] = group
        self._added += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="heartbeat")

    def discard(self, client: Client) -> None:
        group = self._group_of.pop(client, None)
        if group is not None:
            group.discard(client)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        # The task ends when nobody is left; the next connection starts it again.
        step = self.interval / PARTS
        while any(self.groups):
            skipped = 0
            for group in self.groups:
                skipped += 1
                if not group:
                    continue
                await asyncio.sleep(skipped * step)
                skipped = 0
                if group:
                    text = protocol.dumps({"type": "ping", "t": round(time.time() * 1000)})
                    heard_since = time.monotonic() - self.timeout
                    for client in list(group):
                        if client.closed:
                            continue
                        if client.heard < heard_since:
                            client.drop_silent()
                        else:
                            client.send_text(text)
            if skipped:
                await asyncio.sleep(skipped * step)
