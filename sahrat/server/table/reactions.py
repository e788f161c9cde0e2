"""Quick reactions and phrases: a small fixed set, shown on the sender's seat a moment.

A reaction is named by its id, never by free text, so it needs no cleaning
and reads in each player's own language (the client has the words). A
phrase may go to one's side only (at a four-seat table), like team chat; an
emoji goes to the whole table. Reactions are rate-limited per player.

They are not stored in the event log: a reaction changes nothing at the
table (no seat, no move, no chat line), is not part of the game's record,
and is gone from the screen after a few seconds, so a player who reloads
has missed nothing. Like chat lines, they do not reach a player who has blocked
the sender.
"""

from __future__ import annotations

import time
from collections import deque

from sahrat.server.client import Client
from sahrat.server.protocol import ProtocolError
from sahrat.server.table.chat import send_unless_blocked
from sahrat.server.table.core import TableCore

#: Emoji reactions (the client draws them), then quick phrases (the client words them).
EMOJI = ("clap", "laugh", "fire", "wow", "sad", "angry")
PHRASES = ("yalla", "well_played", "unlucky", "sorry", "thanks", "good_game")
REACTIONS = frozenset(EMOJI + PHRASES)


class Reactions(TableCore):
    """The reactions part of a table actor."""

    reaction_times: dict[str, deque[float]]

    def react(self, client: Client, seat_number: int, reaction: str, channel: str) -> None:
        if reaction not in REACTIONS:
            raise ProtocolError("bad_field", f"reaction is one of {', '.join(EMOJI + PHRASES)}")
        if channel not in ("table", "team"):
            raise ProtocolError("bad_field", "channel is table or team")
        table = self.table
        to = table.seat_numbers
        if channel == "team":
            if reaction not in PHRASES:
                raise ProtocolError("bad_field", "only a phrase goes to team chat")
            to = table.seating.partners(seat_number)
            if len(to) < 2:
                raise ProtocolError("no_partner")
        now = time.monotonic()
        times = self.reaction_times.setdefault(client.player, deque())
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= self.settings.reactions_per_minute:
            raise ProtocolError("reaction_rate")
        times.append(now)
        message = {
            "type": "react",
            "table": table.id,
            "seat": seat_number,
            "reaction": reaction,
            "channel": channel,
        }
        send_unless_blocked(self, to, message, client.player)
