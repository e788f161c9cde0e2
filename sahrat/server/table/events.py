"""What a table's event log holds: one frozen dataclass per kind of change.

Each event is stored as its ``KIND`` and a JSON object (:meth:`Event.data`);
:func:`from_stored` reads it back. The stored form is the log's format on
disk, shared by every version of the server: a field is added with a
default, never renamed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


class Event:
    """Base of the table's events."""

    KIND: ClassVar[str]

    def data(self) -> dict[str, Any]:
        """The event as stored (JSON): its fields, tuples as lists."""
        return {
            f.name: list(value) if isinstance(value, tuple) else value
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            for value in (getattr(self, f.name),)
        }


@dataclass(frozen=True, slots=True)
class Seated(Event):
    """A player (or a bot) takes a seat; a player replaced there has left the table."""

    KIND = "seat"
    seat: int
    player: str
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class Unseated(Event):
    KIND = "unseat"
    seat: int


@dataclass(frozen=True, slots=True)
class Assigned(Event):
    """Who sits where: a player id (or None) per seat, in play order."""

    KIND = "assign"
    order: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class HostChanged(Event):
    KIND = "host"
    player: str | None


@dataclass(frozen=True, slots=True)
class TurnTimeSet(Event):
    KIND = "turn_time"
    seconds: float


@dataclass(frozen=True, slots=True)
class SpectatorsSet(Event):
    """Whether a private table may be watched (a public one always may), and whether
    spectators may write in the table chat."""

    KIND = "spectators"
    allow: bool = False
    chat: bool = False


@dataclass(frozen=True, slots=True)
class Committed(Event):
    """The server seed is chosen: its commitment is published, the seeds are collected."""

    KIND = "commit"
    server_seed: str


@dataclass(frozen=True, slots=True)
class Started(Event):
    """The seeds are locked and the first deal is made."""

    KIND = "start"
    game_id: str
    client_seeds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A seat's action; ``auto`` when the server played it for the seat (its clock ran out),
    ``turn_start`` for the first such action of a turn."""

    KIND = "move"
    seat: int
    action: str
    auto: bool
    turn_start: bool = False

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.action, "auto": self.auto}
        if self.turn_start:
            out["turn_start"] = True
        return out


@dataclass(frozen=True, slots=True)
class Chatted(Event):
    """A chat line, with the seats it went to (the whole table, or one side)."""

    KIND = "chat"
    # Lines stored by older code may lack fields: they are read with these, and cleaned
    # where they are shown.
    channel: str = "table"
    seat: int = -1
    name: str = ""
    text: str = ""
    to: tuple[int, ...] = ()
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Closed(Event):
    """Everybody left before the first deal."""

    KIND = "close"


@dataclass(frozen=True, slots=True)
class Left(Event):
    """The player at a coin table left (or did not come back in time): the seat stays
    theirs, played by the server, and gets nothing from the pot."""

    KIND = "left"
    seat: int


@dataclass(frozen=True, slots=True)
class Ended(Event):
    """The game is over; at a coin table ``coins`` is how the pot was shared
    (:meth:`~sahrat.server.ledger.transfers.Settlement.to_json`)."""

    KIND = "end"
    winners: tuple[int, ...] = ()
    coins: dict[str, Any] | None = None

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winners": list(self.winners)}
        if self.coins is not None:
            out["coins"] = self.coins
        return out


@dataclass(frozen=True, slots=True)
class Rematched(Event):
    """This table is the rematch of table ``of``: the same seats play again."""

    KIND = "rematch"
    of: str = ""


#: Every kind of event, by its stored ``KIND``.
KINDS: dict[str, type[Event]] = {
    cls.KIND: cls
    for cls in (
        Seated, Unseated, Assigned, HostChanged, TurnTimeSet, SpectatorsSet, Committed, Started,
        Moved, Chatted, Closed, Left, Ended, Rematched,
    )
}  # fmt: skip


def from_stored(kind: str, data: dict[str, Any]) -> Event:
    """The event stored as ``kind`` and ``data``; KeyError, TypeError or ValueError if it is
    not one (an unknown kind, a missing field)."""
    cls = KINDS[kind]
    values = {
        f.name: tuple(data[f.name]) if isinstance(data[f.name], list) else data[f.name]
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.name in data
    }
    event: Event = cls(**values)
    return event
