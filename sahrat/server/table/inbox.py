"""What arrives in a table's inbox: one frozen dataclass per kind of message.

Everything that may change a table goes through its inbox, handled in order:
a client's message, a connection attached or gone, a timer (the clock, a
bot's turn, a grace, the seed deadline, the end of the linger), the
autopilot's answer. Timers carry what they were set for (a turn's token,
the move count), so one that fires too late finds the table moved on and
does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sahrat.server.client import Client


@dataclass(frozen=True, slots=True)
class FromClient:
    """A table message from a seated player's connection (fields not yet checked)."""

    client: Client
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Attach:
    """A connection of a seated player wants the table's messages."""

    client: Client


@dataclass(frozen=True, slots=True)
class Detach:
    client: Client


@dataclass(frozen=True, slots=True)
class ClockRanOut:
    token: int


@dataclass(frozen=True, slots=True)
class AutopilotChose:
    moves: int
    action: str


@dataclass(frozen=True, slots=True)
class BotDue:
    moves: int


@dataclass(frozen=True, slots=True)
class GraceOver:
    player: str
    dropped_at: float


@dataclass(frozen=True, slots=True)
class SeedDeadline:
    seq_at_commit: int


@dataclass(frozen=True, slots=True)
class Finish:
    """The game is over: store its end and its record."""


@dataclass(frozen=True, slots=True)
class Begin:
    """A restored waiting table whose seats were all taken before the restart: it was
    stopped between its last seat and its commitment, so seeding starts now."""


@dataclass(frozen=True, slots=True)
class LingerOver:
    """The players of a finished table are free to go."""


@dataclass(frozen=True, slots=True)
class ForgetPlayer:
    """The player moved on to another table: stop sending them this one."""

    player: str


@dataclass(frozen=True, slots=True)
class AutoFill:
    """Nobody joined this free table for a while: bots take the free seats. ``token`` names
    the join it was set after; a later join sets a new one."""

    token: int


@dataclass(frozen=True, slots=True)
class Reseat:
    """This new table is the rematch of table ``of``: seat the players (``(seat, player,
    name, bot)`` each) and follow the table on their connections (``clients``)."""

    of: str
    seats: tuple[tuple[int, str, str, bool], ...]
    clients: tuple[Client, ...]


InboxMessage = (
    FromClient
    | Attach
    | Detach
    | ClockRanOut
    | AutopilotChose
    | BotDue
    | GraceOver
    | SeedDeadline
    | Finish
    | Begin
    | LingerOver
    | ForgetPlayer
    | AutoFill
    | Reseat
)
