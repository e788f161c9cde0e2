"""The heartbeat task on its own, with connections that only record what it does to them."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from typing import Any

from sahrat.server.heartbeat import PARTS, Heartbeat


class Connection:
    """What the heartbeat uses of a client: ``closed``, ``heard``, ``send_text`` and
    ``drop_silent``."""

    def __init__(self, heard: float | None = None) -> None:
        self.closed = False
        self.heard = time.monotonic() if heard is None else heard
        self.pings: list[float] = []
        self.dropped = 0

    def send_text(self, text: str) -> None:
        assert json.loads(text)["type"] == "ping"
        self.pings.append(time.monotonic())

    def drop_silent(self) -> None:
        self.dropped += 1


def beat(connections: list[Connection], seconds: float) -> None:
    """Run a heartbeat (interval 0.3 s, timeout 1 s) over ``connections`` for ``seconds``;
    every connection that is not silent at the start says something every 50 ms."""

    async def scenario() -> None:
        heartbeat = Heartbeat(0.3, 1.0)
        chatty = [c for c in connections if time.monotonic() - c.heard < 1.0]
        for connection in connections:
            heartbeat.add(connection)  # type: ignore[arg-type]
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            await asyncio.sleep(0.05)
            for connection in chatty:
                connection.heard = time.monotonic()
        await heartbeat.stop()

    asyncio.run(scenario())


def test_every_connection_is_pinged_each_interval_at_its_own_moment() -> None:
    connections = [Connection() for _ in range(5)]
    beat(connections, 1.0)
    assert all(3 <= len(c.pings) <= 4 for c in connections), [len(c.pings) for c in connections]
    # Spread over the interval, not all in one burst: a group apart at least (the
    # interval over the number of groups, 1 ms here).
    firsts = sorted(c.pings[0] for c in connections)
    assert all(b - a >= 0.3 / PARTS * 0.9 for a, b in itertools.pairwise(firsts)), firsts
    assert not any(c.dropped for c in connections)


def test_a_connection_silent_past_the_timeout_is_dropped_after_one_unanswered_ping() -> None:
    talking = Connection()
    silent = Connection(heard=time.monotonic() - 2.0)
    beat([talking, silent], 0.5)
    assert silent.dropped >= 1 and len(silent.pings) == 1
    assert talking.dropped == 0 and talking.pings


def test_one_that_falls_silent_is_dropped_within_the_timeout_and_an_interval() -> None:
    connection = Connection()
    started = time.monotonic()

    async def scenario() -> float:
        heartbeat = Heartbeat(0.3, 1.0)
        heartbeat.add(connection)  # type: ignore[arg-type]
        while not connection.dropped:
            await asyncio.sleep(0.01)
        await heartbeat.stop()
        return time.monotonic() - started

    # Checked when its group comes round: by timeout + interval, with room for a busy machine.
    assert 1.0 <= asyncio.run(scenario()) <= 2.0


def test_a_busy_loop_drops_nobody_who_answers() -> None:
    """Every turn of the loop takes 10 ms (a server busy with moves); 150 connections,
    one in each of 150 groups, answer each ping 5 ms later. One group a turn makes a
    round 150 turns long (1.5 s), past the timeout of 1 s: a socket that answered its
    last ping is not silent however long ago that was."""

    class Answering(Connection):
        def send_text(self, text: str) -> None:
            super().send_text(text)
            asyncio.get_running_loop().call_later(0.005, self.answer)

        def answer(self) -> None:
            self.heard = time.monotonic()

    async def scenario() -> list[Answering]:
        heartbeat = Heartbeat(0.3, 1.0)
        connections = [Answering() for _ in range(PARTS // 2)]
        for connection in connections:
            heartbeat.add(connection)  # type: ignore[arg-type]
        ends = time.monotonic() + 4.0
        while time.monotonic() < ends:
            time.sleep(0.01)  # busy: the loop turns every 10 ms at best
            await asyncio.sleep(0)
        await heartbeat.stop()
        return connections

    connections = asyncio.run(scenario())
    assert not any(c.dropped for c in connections)
    # More than one round went by: every socket was asked again after the timeout.
    assert min(len(c.pings) for c in connections) >= 2, sorted(len(c.pings) for c in connections)


def test_the_task_ends_when_every_connection_is_discarded() -> None:
    async def scenario() -> Any:
        heartbeat = Heartbeat(0.3, 1.0)
        connections = [Connection() for _ in range(3)]
        for connection in connections:
            heartbeat.add(connection)  # type: ignore[arg-type]
        task = heartbeat._task
        for connection in connections:
            heartbeat.discard(connection)  # type: ignore[arg-type]
        await asyncio.wait_for(asyncio.shield(task), 1.0)  # type: ignore[arg-type]
        return task

    task = asyncio.run(scenario())
    assert task.done() and not task.cancelled()
