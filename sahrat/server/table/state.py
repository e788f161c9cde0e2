"""A table as its event log leaves it: seats, stage, the game, chat and last moves.

Everything here follows from the table's row and its events
(:mod:`~sahrat.server.table.reducer`), except the connection fields of a
:class:`Seat` (``connected``, ``dropped_at``, ``grace``), which the actor
keeps up to date as sockets come and go.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sahrat.fairness import Seeds
from sahrat.game import Game, Seating
from sahrat.records import Recorder

#: Chat lines kept for players who (re)join; last moves shown in words.
CHAT_KEPT = 100
LAST_KEPT = 8

#: A table's stages (``docs/protocol.md`` §4.1).
WAITING, SEEDING, PLAYING, FINISHED, CLOSED = "waiting", "seeding", "playing", "finished", "closed"
OVER = (FINISHED, CLOSED)


@dataclass
class Seat:
    player: str  # a player id, or ``bot:<seat>``
    name: str
    bot: bool = False
    connected: bool = False
    away: bool = False
    #: Left a coin table: the server plays the seat, which keeps its place in the game
    #: (and its stake) but no longer belongs to anyone at the table.
    left: bool = False
    #: Turns in a row the server played for this seat.
    autopiloted: int = 0
    dropped_at: float | None = None
    #: How long this drop is forgiven (a waiting table's reload, a restart, a game).
    grace: float = 0.0

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            # Player ids are public (the token is the secret): a host assigns seats by them.
            "player": self.player,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot or self.connected,
            "away": self.away,
            "left": self.left,
        }


@dataclass(frozen=True, slots=True)
class ChatLine:
    channel: str
    seat: int
    name: str
    text: str
    at: float
    #: Its place among every line of the table (audiences are kept apart).
    order: int

    def public(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
        }


@dataclass
class TableState:
    """One table; build it with :meth:`from_row`, then apply its events."""

    id: str
    rules: Game[Any]
    options: dict[str, Any]
    kind: str  # "free", "coin" (public, with a stake) or "private" (with or without)
    code: str | None
    host: str | None
    turn_seconds: float
    seating: Seating
    seats: dict[int, Seat | None]
    status: str = WAITING
    #: The last stored event's number.
    seq: int = 0
    server_seed: bytes | None = None
    seeds: Seeds | None = None
    recorder: Recorder | None = None
    #: Seat actions played (chance steps not counted).
    moves: int = 0
    #: Chat lines by audience (the seats a line went to): one side's team chat never
    #: pushes lines out of what the other side is shown.
    chat: dict[tuple[int, ...], deque[ChatLine]] = field(default_factory=dict)
    chat_lines: int = 0
    last: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LAST_KEPT))
    #: When the last event other than chat was stored: the record's clock.
    event_time: float = 0.0
    #: Coins each seat stakes; 0 at a free table.
    stake: int = 0
    #: How the pot was shared, once a coin table is over.
    coins: dict[str, Any] | None = None
    #: The table whose players play again here, if this is a rematch.
    rematch_of: str | None = None
    #: A private table may be watched (by its code); a public one always may.
    spectators_allowed: bool = False
    #: Spectators may write in the table chat.
    spectator_chat: bool = False

    @classmethod
    def from_row(cls, row: dict[str, Any], rules: Game[Any], turn_seconds: float) -> TableState:
        seating = rules.seating(rules.options_from_json(row["options"]))
        return cls(
            id=row["id"],
            rules=rules,
            options=row["options"],
            kind=row["kind"],
            code=row.get("code"),
            host=row.get("host"),
            turn_seconds=float(row.get("turn_seconds") or turn_seconds),
            seating=seating,
            seats=dict.fromkeys(seating.seats),
            stake=int(row.get("stake") or 0),
        )

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return self.seating.seats

    @property
    def over(self) -> bool:
        return self.status in OVER

    @property
    def watchable(self) -> bool:
        return self.kind != "private" or self.spectators_allowed

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits at (a seat they left is no longer theirs)."""
        for number, seat in self.seats.items():
            if seat is not None and seat.player == player and not seat.left:
                return number
        return None

    def humans(self) -> list[str]:
        """The people at the table (not bots, not those who left)."""
        return [s.player for s in self.seats.values() if s is not None and not s.bot and not s.left]

    def played_by_server(self, seat_number: int) -> bool:
        """A bot's seat, or the seat of someone who left a coin table."""
        seat = self.seats.get(seat_number)
        return seat is not None and (seat.bot or seat.left)

    def free_seats(self) -> list[int]:
        return [number for number, seat in self.seats.items() if seat is None]

    def table_chat(self) -> list[ChatLine]:
        """The latest lines sent to the whole table (what a spectator is shown)."""
        return list(self.chat.get(tuple(sorted(self.seat_numbers)), ()))[-CHAT_KEPT:]

    def chat_for(self, seat_number: int) -> list[ChatLine]:
        """The latest lines this seat was sent, oldest first."""
        lines = [
            line for audience, kept in self.chat.items() if seat_number in audience for line in kept
        ]
        lines.sort(key=lambda line: line.order)
        return lines[-CHAT_KEPT:]
