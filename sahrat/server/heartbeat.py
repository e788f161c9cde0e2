"""Heartbeats for every connection from one task: the client answers ``pong``, and any
message from it proves it is there; a socket silent for longer than the timeout, and
since its group's last ping, is dropped when its group comes round (within
``timeout + interval``).

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
import math
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
        loop = asyncio.get_running_loop()
        step = self.interval / PARTS
        due = loop.time()
        # When each group was last pinged (the loop's clock is time.monotonic, as heard):
        # never, so far, and a socket is dropped only once it has let a ping go unanswered.
        pinged = [-math.inf] * PARTS
        while any(self.groups):
            for index, group in enumerate(self.groups):
                due += step
                if not group:
                    continue
                # Against the schedule, not a step after the last wake-up, whose lateness
                # added up on a busy loop; but one group per turn of the loop at most, so
                # that the pongs never come back in one burst that the moves wait behind.
                # A loop too busy for that stretches the round and sends fewer pings, and a
                # round longer than the timeout condemns nobody (below). After a stall the
                # schedule starts from now.
                now = loop.time()
                if due < now - self.interval:
                    due = now
                await asyncio.sleep(max(0.0, due - now))
                if not group:
                    continue
                now = time.monotonic()
                # Silent: nothing heard for the timeout, nor since this group's last ping (a
                # round longer than the timeout must not condemn a socket that answered).
                silent_before = min(now - self.timeout, pinged[index])
                pinged[index] = now
                text = protocol.dumps({"type": "ping", "t": round(time.time() * 1000)})
                suspects = []
                for client in list(group):
                    if client.closed:
                        continue
                    if client.heard < silent_before:
                        suspects.append(client)
                    else:
                        client.send_text(text)
                if suspects:
                    # Their answers may be read but not yet handled (after a stall the loop
                    # reads every socket before their readers run): once more round the
                    # loop, then whoever is still silent is dropped.
                    await asyncio.sleep(0)
                    for client in suspects:
                        if client.heard < silent_before:
                            client.drop_silent()
