"""Table and team chat: lines cleaned, limited in length and rate, stored, sent.

A line goes to the whole table or, at a four-seat table, to the sender's
side only; each audience keeps its own history, so team chat never shows
in, or pushes lines out of, what the other side sees.
"""

from __future__ import annotations

import time
from collections import deque

from sahrat.server.client import Client
from sahrat.server.protocol import ProtocolError
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import Chatted
from sahrat.server.text import clean_line


class ChatRoom(TableCore):
    """The chat part of a table actor."""

    async def chat(self, client: Client, seat_number: int, text: str, channel: str) -> None:
        settings = self.settings
        if len(text) > 4 * settings.chat_max_chars:
            raise ProtocolError("bad_field", "'text' is too long")
        text = clean_line(text)
        if channel not in ("table", "team"):
            raise ProtocolError("bad_field", "channel is table or team")
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
        table = self.table
        to = table.seat_numbers
        if channel == "team":
            to = table.seating.partners(seat_number)
            if len(to) < 2:
                raise ProtocolError("no_partner")
        seat = table.seats[seat_number]
        assert seat is not None
        await self.commit(Chatted(channel, seat_number, seat.name, text, to, time.time()))
        times.append(now)
        line = table.chat[tuple(sorted(to))][-1]
        self.send_to_seats(to, {"type": "chat", "table": table.id, **line.public()})
