"""Table and team chat: lines cleaned, limited in length and rate, stored, sent.

A line goes to the whole table or, at a four-seat table, to the sender's
side only; each audience keeps its own history, so team chat never shows
in, or pushes lines out of, what the other side sees. A player who has blocked
the sender is not sent the line (nor the sender's reactions): the server leaves
it out for them, the browser never receives it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from sahrat.server import protocol
from sahrat.server.client import Client
from sahrat.server.people.circle import circle_of_host
from sahrat.server.protocol import ProtocolError
from sahrat.server.table.core import SPECTATORS_HEAR, TableCore
from sahrat.server.table.events import Chatted
from sahrat.server.table.state import ChatLine
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
        message = {"type": "chat", "table": table.id, **line.public()}
        send_unless_blocked(self, to, message, client.player)


def history_for(core: TableCore, recipient: str, lines: Iterable[ChatLine]) -> list[Any]:
    """The chat history ``recipient`` is sent: without the lines of seats whose player
    they have blocked, as the live lines were (a reload must not bring them back)."""
    circle = circle_of_host(core.host)
    seats = core.table.seats

    def shown(line: ChatLine) -> bool:
        seat = seats.get(line.seat)
        return circle is None or seat is None or not circle.hides(recipient, seat.player)

    return [line.public() for line in lines if shown(line)]


def send_unless_blocked(
    core: TableCore, seats: Iterable[int], message: dict[str, Any], sender: str
) -> None:
    """:meth:`TableCore.send_to_seats`, leaving out everyone who has blocked ``sender``."""
    numbers = set(seats)
    circle = circle_of_host(core.host)
    table = core.table
    people = [s.player for n in numbers if (s := table.seats.get(n)) is not None and not s.bot]
    everyone = [*people, *core.spectators]
    if circle is None or not any(circle.hides(p, sender) for p in everyone):
        core.send_to_seats(numbers, message)
        return
    text = protocol.dumps(message)
    for player in people:
        if not circle.hides(player, sender):
            for client in core.watchers.get(player, ()):
                client.send_text(text)
    if message.get("type") in SPECTATORS_HEAR and numbers >= set(table.seat_numbers):
        for player, clients in core.spectators.items():
            if not circle.hides(player, sender):
                for client in clients:
                    client.send_text(text)
