"""Bytes the lobby sends one subscriber: the whole list with every change, or the changes.

Opens N public tables through the hub (a fresh SQLite database in a temporary
directory), three of each table's four seats taken so none starts, subscribes one
recording subscriber, then makes C changes (a player leaves a table) and prints:

- the whole list's size (what the lobby sent every subscriber with each change
  before it sent changes, and what a subscriber still gets once when it subscribes);
- what C changes cost one subscriber when each falls in an interval of its own
  (one message each) and when they all fall in one interval (one message);
- the same figures compressed with zlib, as a rough guide to permessage-deflate.

Run: ``.venv/bin/python benchmarks/lobby.py --tables 2000 --changes 100``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from sahrat.server import protocol
from sahrat.server.hub import Hub, table_options
from sahrat.server.settings import Settings
from sahrat.server.table.events import Seated


class Recorder:
    """A lobby subscriber that keeps what it is sent (the lobby needs only these)."""

    closed = False

    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(protocol.dumps(message))

    def send_text(self, text: str) -> None:
        self.texts.append(text)


def size(texts: list[str]) -> tuple[int, int]:
    """Raw bytes, and bytes each message compressed on its own."""
    raw = sum(len(t.encode()) for t in texts)
    packed = sum(len(zlib.compress(t.encode(), 6)) for t in texts)
    return raw, packed


async def main(tables: int, changes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), autofill_seconds=0.0, search_workers=0)
        hub = Hub(settings)
        await hub.startup()
        started = time.monotonic()
        actors = []
        for i in range(tables):
            game = "jackaroo" if i % 2 else "buraco"
            options = {"preset": "sahrat", "seats": 4} if game == "jackaroo" else {"players": 4}
            actor = await hub.create_table(
                game, table_options(game, options, 4), 4, False, 15.0, None
            )
            for seat in (0, 1, 2):
                await actor.commit(Seated(seat, f"p{i:05d}{seat}", f"Player {i}-{seat}", False))
            actors.append(actor)
        print(f"opened {tables} tables in {time.monotonic() - started:.1f} s")
        feed = hub.lobby_feed
        one = Recorder()
        feed.subscribe(one)  # type: ignore[arg-type]
        whole = one.texts[0]
        raw, packed = size([whole])
        print(f"whole list: {raw} bytes ({packed} compressed), {raw / tables:.0f} bytes a table")
        print(
            f"before: {changes} changes, one message each: {changes * raw} bytes "
            f"({changes * packed} compressed)"
        )
        for actor in actors[:changes]:
            await actor.commit(Seated(3, f"late-{actor.id}", "Late", False))
            feed.flush()  # each change in an interval of its own
        deltas = one.texts[1:]
        raw_d, packed_d = size(deltas)
        print(
            f"after: {changes} changes, one message each: {len(deltas)} messages, "
            f"{raw_d} bytes ({packed_d} compressed), {raw_d / max(len(deltas), 1):.0f} a message"
        )
        one.texts.clear()
        for actor in actors[changes : 2 * changes]:
            await actor.commit(Seated(3, f"late-{actor.id}", "Late", False))
        feed.flush()  # every change in one interval
        raw_b, packed_b = size(one.texts)
        print(
            f"after: {changes} changes in one interval: {len(one.texts)} message, "
            f"{raw_b} bytes ({packed_b} compressed)"
        )
        await hub.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=100)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.tables, arguments.changes))
