"""The lobby: the public tables' summaries, sent whole once and then as changes.

A subscriber gets the whole list when it subscribes (``lobby``, with the
feed's ``version``), then ``lobby_changes`` messages: the entries added,
changed and removed since the version before. Changes are gathered for a
short interval, so a burst of them is one message, encoded once for every
subscriber. A client that sees a version other than the one after its own
has missed something and subscribes again (``docs/protocol.md`` §3).

A table marks itself ``lobby_dirty`` whenever something its summary shows
may have changed; a flush looks only at those, so its cost follows the
tables that changed rather than every table there is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Protocol

from sahrat.server import protocol
from sahrat.server.client import Client

#: The kinds of table the lobby lists (a private table is reached by its code).
PUBLIC = ("free", "coin")
LISTED_STATUSES = ("waiting", "seeding", "playing")
#: How long changes are gathered before they go out as one message.
INTERVAL = 0.25


class Listed(Protocol):
    """What the lobby reads of a table."""

    lobby_dirty: bool

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def status(self) -> str: ...

    def summary(self) -> dict[str, Any]: ...


def listable(table: Listed) -> bool:
    return table.kind in PUBLIC and table.status in LISTED_STATUSES


class LobbyFeed:
    """The lobby's subscribers and what they were last sent."""

    def __init__(self, tables: Mapping[str, Listed], interval: float = INTERVAL) -> None:
        #: Every table in memory, oldest first (the hub's own dict, read at each flush).
        self.tables = tables
        self.interval = interval
        self.subscribers: set[Client] = set()
        self.version = 0
        #: What the subscribers hold, by table id, oldest first; kept only while someone
        #: is subscribed (rebuilt whole by the first subscriber).
        self._listed: dict[str, dict[str, Any]] = {}
        #: Tables that left memory since the last flush.
        self._gone: set[str] = set()
        self._pending: asyncio.TimerHandle | None = None

    def entries(self) -> list[dict[str, Any]]:
        """Public tables that are waiting or playing, newest first (read live)."""
        tables = list(self.tables.values())
        return [table.summary() for table in reversed(tables) if listable(table)]

    # -- subscribers ------------------------------------------------------------------------

    def subscribe(self, client: Client) -> None:
        """Send ``client`` the whole list; from now on it gets the changes."""
        if self.subscribers:
            # Changes the others have not been sent yet go out first, so the version the
            # newcomer is given is the one the next change follows.
            self.flush()
        else:
            self._rebuild()
        self.subscribers.add(client)
        listed = list(reversed(self._listed.values()))
        client.send({"type": "lobby", "version": self.version, "tables": listed})

    def unsubscribe(self, client: Client) -> None:
        self.subscribers.discard(client)
        if not self.subscribers:
            self._forget()

    def _forget(self) -> None:
        # Nobody to keep up to date: the first subscriber rebuilds the list.
        self._listed.clear()
        self._gone.clear()

    def _rebuild(self) -> None:
        self.version += 1
        self._gone.clear()
        self._listed = {}
        for table in self.tables.values():
            table.lobby_dirty = False
            if listable(table):
                self._listed[table.id] = table.summary()

    # -- changes ----------------------------------------------------------------------------

    def changed(self) -> None:
        """Something listed may have changed: a flush is due within the interval."""
        if self._pending is None and self.subscribers:
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(self.interval, self.flush)

    def removed(self, table_id: str) -> None:
        """A table left memory."""
        if self.subscribers:
            self._gone.add(table_id)
            self.changed()

    def flush(self) -> None:
        """Send the changes since the last flush as one ``lobby_changes`` message."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.subscribers = {c for c in self.subscribers if not c.closed}
        if not self.subscribers:
            self._forget()
            return
        message = self._changes()
        if message is None:
            return
        text = protocol.dumps(message)
        for client in self.subscribers:
            client.send_text(text)

    def _changes(self) -> dict[str, Any] | None:
        listed = self._listed
        removed = [
            table_id
            for table_id in self._gone
            if table_id in listed and table_id not in self.tables
        ]
        for table_id in removed:
            del listed[table_id]
        self._gone.clear()
        added: list[dict[str, Any]] = []
        changed: list[dict[str, Any]] = []
        for table in self.tables.values():
            if not table.lobby_dirty:
                continue
            table.lobby_dirty = False
            old = listed.get(table.id)
            if not listable(table):
                if old is not None:
                    del listed[table.id]
                    removed.append(table.id)
                continue
            entry = table.summary()
            if old is None:
                added.append(entry)
                listed[table.id] = entry
            elif entry != old:
                changed.append(entry)
                listed[table.id] = entry
        if not (added or changed or removed):
            return None
        self.version += 1
        return {
            "type": "lobby_changes",
            "version": self.version,
            "removed": removed,
            "changed": changed,
            # Newest first, as in the whole list: each goes before those listed already.
            "added": added[::-1],
        }
