"""Spectators: people who watch a table without a seat (``docs/protocol.md`` §2, watch).

A spectator is sent what every seat sees alike (the board, melds, piles, hand
sizes, the clock, the last moves, the result) and never a hand, a legal move,
a seed request or a team line. It hears the table chat and may write in it
only where the table allows spectator chat. A public table may always be
watched; a private one by its code, if its host allows it. Spectators are not
stored: after a restart a spectator's client asks to watch again.
"""

from __future__ import annotations

import time
from collections import deque

from sahrat.server.client import Client
from sahrat.server.protocol import ProtocolError
from sahrat.server.table import views
from sahrat.server.table.chat import history_for
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import Chatted, SpectatorsSet
from sahrat.server.text import clean_line


class Spectating(TableCore):
    """The spectator part of a table actor."""

    def watch(self, client: Client) -> None:
        """Start sending ``client`` (of a player without a seat here) the table."""
        table = self.table
        if table.over:
            raise ProtocolError("no_such_table")
        if not table.watchable:
            raise ProtocolError("not_watchable")
        new = client.player not in self.spectators
        self.spectators.setdefault(client.player, set()).add(client)
        client.table = self
        client.send(
            {
                "type": "chat_history",
                "table": table.id,
                "messages": history_for(self, client.player, table.table_chat()),
                # Where a spectator may write: nowhere unless the table allows it.
                "channels": ["table"] if table.spectator_chat else [],
                "spectator": True,
            }
        )
        if new:
            self.broadcast()  # one more watching: everyone is told, the newcomer too
        else:
            shared = views.encode_shared(table, self.deadline, self.watching)
            client.send_text(views.encode_spectator(shared, table))
        pause = self.pause_message()
        if pause is not None:
            client.send(pause)

    def unwatch(self, client: Client, tell: bool = True) -> None:
        """Stop sending the player's connections the table; each is told (unless the
        player watches another table or took a seat: then what comes next says it)."""
        clients = self.spectators.pop(client.player, set())
        for each in clients | {client}:
            if each.table is self:
                each.table = None
            if tell:
                each.send({"type": "unwatched", "table": self.id})
        if clients:
            self.broadcast()

    def spectator_gone(self, client: Client) -> bool:
        """A spectator's connection closed; False if ``client`` was not one."""
        clients = self.spectators.get(client.player)
        if clients is None or client not in clients:
            return False
        clients.discard(client)
        if not clients:
            del self.spectators[client.player]
            self.broadcast()
        return True

    def forget_spectators(self, reason: str | None = None) -> None:
        """Stop sending the spectators anything: told with ``reason`` (the host closed the
        table to them), or silently once a finished table lets its people go (they keep
        its end, as the seats do)."""
        for clients in self.spectators.values():
            for client in clients:
                if client.table is self:
                    client.table = None
                if reason is not None:
                    client.send({"type": "unwatched", "table": self.id, "reason": reason})
        self.spectators.clear()

    def spectator_may_write(self, channel: object) -> None:
        """Refuse a spectator's line in ``channel`` unless the table allows it."""
        if channel != "table":
            raise ProtocolError("spectator", "spectators have no team chat")
        if not self.table.spectator_chat:
            raise ProtocolError("spectator", "spectators may not write at this table")

    async def spectator_chat(self, client: Client, text: str) -> None:
        """A line from a spectator, after :meth:`spectator_may_write`: to the whole table."""
        table = self.table
        if table.over:
            raise ProtocolError("wrong_phase", "the game is over")
        settings = self.settings
        if len(text) > 4 * settings.chat_max_chars:
            raise ProtocolError("bad_field", "'text' is too long")
        text = clean_line(text)
        if not text:
            raise ProtocolError("bad_field", "empty message")
        if len(text) > settings.chat_max_chars:
            raise ProtocolError("chat_too_long", f"at most {settings.chat_max_chars} characters")
        now = time.monotonic()
        times = self.chat_times.setdefault(client.player, deque())
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= settings.chat_per_minute:
            raise ProtocolError("chat_rate")
        to = table.seat_numbers
        await self.commit(Chatted("table", -1, client.name, text, to, time.time()))
        times.append(now)
        line = table.chat[tuple(sorted(to))][-1]
        self.send_to_seats(to, {"type": "chat", "table": table.id, **line.public()})

    async def set_spectators(self, client: Client, allow: bool | None, chat: bool | None) -> None:
        """The host of a private table: may it be watched, may spectators write."""
        table = self.table
        if table.kind != "private" or client.player != table.host:
            raise ProtocolError("not_host")
        if table.over:
            raise ProtocolError("wrong_phase", "the game is over")
        allow = table.spectators_allowed if allow is None else allow
        chat = table.spectator_chat if chat is None else chat
        await self.commit(SpectatorsSet(allow, chat))
        if not table.watchable:
            self.forget_spectators("not_watchable")
        self.broadcast()
