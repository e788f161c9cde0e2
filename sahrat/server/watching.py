"""Who watches which table, for the hub: ``watch``, ``unwatch`` and a spectator's messages.

The table itself keeps its spectators' connections and decides what they are
sent (:mod:`sahrat.server.table.spectators`); here the hub finds the table to
watch (a public one by its id, a private one by its code), refuses what a
spectator may not do before it reaches a table, and forgets a watch when its
table leaves memory. Watching is not sitting: it does not count as the one
table a player may sit at, and taking a seat ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sahrat.server.client import Client
from sahrat.server.messages import Watch
from sahrat.server.protocol import ProtocolError
from sahrat.server.table import TableActor
from sahrat.server.table.inbox import FromClient

OVER = ("finished", "closed")


class Watching:
    """The table each player watches, by player id."""

    def __init__(
        self,
        tables: dict[str, TableActor],
        by_code: dict[str, TableActor],
        seated: dict[str, TableActor],
    ) -> None:
        self.tables = tables
        self.by_code = by_code
        self.seated = seated
        self.by_player: dict[str, TableActor] = {}
        #: Called when someone starts or stops watching (friends are shown where one is).
        self.changed: Callable[[], None] = lambda: None

    def watch(self, client: Client, watch: Watch, message: dict[str, Any]) -> None:
        actor = None
        if watch.code is not None:
            actor = self.by_code.get(watch.code.strip().upper())
        elif watch.table is not None:
            actor = self.tables.get(watch.table)
            if actor is not None and actor.kind == "private":
                actor = None  # a private table is watched by its code only
        else:
            raise ProtocolError("bad_field", "watch names a 'table' or a 'code'")
        if actor is None or actor.status in OVER:
            raise ProtocolError("no_such_table")
        player = client.player
        seated = self.seated.get(player)
        if seated is actor:
            actor.post(FromClient(client, message))  # one's own table is seen from the seat
            return
        if seated is not None and seated.status not in OVER:
            raise ProtocolError("already_seated", "a seated player cannot watch another table")
        if not actor.table.watchable:
            raise ProtocolError("not_watchable")
        previous = self.by_player.get(player)
        if previous is not None and previous is not actor:
            previous.post(FromClient(client, {"type": "unwatch", "quiet": True}))
        self.by_player[player] = actor
        actor.post(FromClient(client, message))
        self.changed()

    def unwatch(self, client: Client) -> None:
        actor = self.by_player.pop(client.player, None)
        if actor is None:
            raise ProtocolError("not_watching")
        actor.post(FromClient(client, {"type": "unwatch"}))
        self.changed()

    def stop(self, client: Client) -> None:
        """The player takes a seat: the watch ends without a word."""
        actor = self.by_player.pop(client.player, None)
        if actor is not None:
            actor.post(FromClient(client, {"type": "unwatch", "quiet": True}))
            self.changed()

    def route(self, client: Client, message: dict[str, Any]) -> None:
        """A table message from a player without a seat goes to the table watched, which
        refuses all but a chat it allows. Every one goes there, refused or not, so that
        the answers come back in the order the messages were sent."""
        actor = self.by_player.get(client.player)
        if actor is None:
            raise ProtocolError("not_seated")
        wanted = message.get("table")
        if wanted is not None and wanted != actor.id:
            raise ProtocolError("not_seated", "you do not sit at that table")
        actor.post(FromClient(client, message))

    def table_gone(self, actor: TableActor) -> None:
        for player in [p for p, a in self.by_player.items() if a is actor]:
            del self.by_player[player]
