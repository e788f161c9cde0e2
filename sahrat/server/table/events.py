"""What a table's event log holds: one frozen dataclass per kind of change.

Each event is stored as its ``KIND`` and a JSON object (:meth:`Event.data`);
:func:`from_stored` reads it back. The stored form is the log's format on
disk, shared by every version of the server: a field is added with a
default, never renamed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


class Event:
    """Base of the table's events."""

    KIND: ClassVar[str]

    def data(self) -> dict[str, Any]:
        """The event as stored (JSON)."""
        return {}


@dataclass(frozen=True, slots=True)
class Seated(Event):
    """A player (or a bot) takes a seat; a player replaced there has left the table."""

    KIND = "seat"
    seat: int
    player: str
    name: str
    bot: bool

    def data(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "name": self.name, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Unseated(Event):
    KIND = "unseat"
    seat: int

    def data(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Assigned(Event):
    """Who sits where: a player id (or None) per seat, in play order."""

    KIND = "assign"
    order: tuple[str | None, ...]

    def data(self) -> dict[str, Any]:
        return {"order": list(self.order)}


@dataclass(frozen=True, slots=True)
class HostChanged(Event):
    KIND = "host"
    player: str | None

    def data(self) -> dict[str, Any]:
        return {"player": self.player}


@dataclass(frozen=True, slots=True)
class TurnTimeSet(Event):
    KIND = "turn_time"
    seconds: float

    def data(self) -> dict[str, Any]:
        return {"seconds": self.seconds}


@dataclass(frozen=True, slots=True)
class Committed(Event):
    """The server seed is chosen: its commitment is published, the seeds are collected."""

    KIND = "commit"
    server_seed: str

    def data(self) -> dict[str, Any]:
        return {"server_seed": self.server_seed}


@dataclass(frozen=True, slots=True)
class Started(Event):
    """The seeds are locked and the first deal is made."""

    KIND = "start"
    game_id: str
    client_seeds: tuple[str, ...]

    def data(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "client_seeds": list(self.client_seeds)}


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
    channel: str
    seat: int
    name: str
    text: str
    to: tuple[int, ...]
    at: float

    def data(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "to": list(self.to),
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class Closed(Event):
    """Everybody left before the first deal."""

    KIND = "close"


@dataclass(frozen=True, slots=True)
class Ended(Event):
    KIND = "end"
    winners: tuple[int, ...]

    def data(self) -> dict[str, Any]:
        return {"winners": list(self.winners)}


def from_stored(kind: str, data: dict[str, Any]) -> Event:
    """The event stored as ``kind`` and ``data``; KeyError/ValueError if it is not one."""
    match kind:
        case "seat":
            return Seated(int(data["seat"]), str(data["player"]), str(data["name"]), data["bot"])
        case "unseat":
            return Unseated(int(data["seat"]))
        case "assign":
            return Assigned(tuple(data["order"]))
        case "host":
            return HostChanged(data["player"])
        case "turn_time":
            return TurnTimeSet(float(data["seconds"]))
        case "commit":
            return Committed(str(data["server_seed"]))
        case "start":
            return Started(str(data["game_id"]), tuple(data["client_seeds"]))
        case "move":
            return Moved(
                int(data["seat"]),
                str(data["action"]),
                bool(data["auto"]),
                bool(data.get("turn_start")),
            )
        case "chat":
            # Lines stored by older code may lack fields: they are read as they are, and
            # cleaned where they are shown.
            return Chatted(
                str(data.get("channel", "table")),
                int(data.get("seat", -1)),
                str(data.get("name", "")),
                str(data.get("text", "")),
                tuple(data.get("to", ())),
                float(data.get("at", 0.0)),
            )
        case "close":
            return Closed()
        case "end":
            return Ended(tuple(data.get("winners", ())))
    raise ValueError(f"unknown event kind {kind!r}")
