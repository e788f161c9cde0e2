"""What a client may send: one registry of message types, their fields and who handles them.

Each type is a frozen dataclass whose fields are the message's fields (the
schema: their annotated types, defaults, string limits), registered with the scope that
handles it: the connection itself, the hub (lobby and tables to join), or
the table the player sits at, which dispatches on the dataclass with
``match``. :func:`decode` checks a message against its schema once, so
handlers read typed values.

>>> decode({"v": 1, "type": "act", "action": "5S t3-t8"})
Act(table=None, action='5S t3-t8', moves=None)
>>> decode({"v": 1, "type": "act", "action": 5})
Traceback (most recent call last):
...
sahrat.server.protocol.ProtocolError: 'action' has the wrong type
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from sahrat.server import inbound
from sahrat.server.protocol import VERSION, ProtocolError

Scope = Literal["connection", "hub", "table"]


def _limit(n: int) -> Any:
    """A string field of at most ``n`` characters."""
    return dataclasses.field(default=None, metadata={"limit": n})


class ClientMessage:
    """Base of every client message; ``TYPE`` is its ``"type"``, ``SCOPE`` its handler."""

    TYPE: ClassVar[str]
    SCOPE: ClassVar[Scope]
    #: Fields that must be present.
    REQUIRED: ClassVar[frozenset[str]] = frozenset()


@dataclass(frozen=True, slots=True)
class Hello(ClientMessage):
    TYPE = "hello"
    SCOPE = "connection"
    token: str | None = _limit(200)
    #: Any value: a name that is not a usable string gets a generated one.
    name: object = None


@dataclass(frozen=True, slots=True)
class Ping(ClientMessage):
    TYPE = "ping"
    SCOPE = "connection"


@dataclass(frozen=True, slots=True)
class Pong(ClientMessage):
    TYPE = "pong"
    SCOPE = "connection"


@dataclass(frozen=True, slots=True)
class Lobby(ClientMessage):
    TYPE = "lobby"
    SCOPE = "hub"


@dataclass(frozen=True, slots=True)
class Create(ClientMessage):
    TYPE = "create"
    SCOPE = "hub"
    REQUIRED = frozenset({"game"})
    game: str = _limit(16)
    seats: int | None = None
    private: bool = False
    #: None: the server's default turn time.
    turn_seconds: float | None = None
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Coins each seat stakes (one of the server's stakes); None: a free table.
    stake: int | None = None
    #: A private table may be watched (with its code); a public one always may.
    spectators: bool = False
    #: Spectators may write in the table chat.
    spectator_chat: bool = False


@dataclass(frozen=True, slots=True)
class Join(ClientMessage):
    TYPE = "join"
    SCOPE = "hub"
    table: str | None = _limit(32)
    code: str | None = _limit(16)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Watch(ClientMessage):
    """Watch a table: a public one by its id, a private one by its code."""

    TYPE = "watch"
    SCOPE = "hub"
    table: str | None = _limit(32)
    code: str | None = _limit(16)


@dataclass(frozen=True, slots=True)
class Unwatch(ClientMessage):
    TYPE = "unwatch"
    SCOPE = "hub"


@dataclass(frozen=True, slots=True)
class PlayNow(ClientMessage):
    TYPE = "play_now"
    SCOPE = "hub"
    game: str = dataclasses.field(default="jackaroo", metadata={"limit": 16})
    seats: int | None = None
    #: A coin table of this stake; None: a free table.
    stake: int | None = None


@dataclass(frozen=True, slots=True)
class Invite(ClientMessage):
    """Invite a friend online to the table one sits at (``docs/protocol.md`` §4)."""

    TYPE = "invite"
    SCOPE = "hub"
    REQUIRED = frozenset({"player"})
    player: str = dataclasses.field(default="", metadata={"limit": 64})


@dataclass(frozen=True, slots=True)
class TableMessage(ClientMessage):
    """A message for the table the player sits at; ``table``, if given, must name it."""

    SCOPE = "table"
    #: Read as it comes: anything but this table's id is refused as ``not_seated``.
    table: object = None


@dataclass(frozen=True, slots=True)
class Leave(TableMessage):
    TYPE = "leave"


@dataclass(frozen=True, slots=True)
class Sit(TableMessage):
    TYPE = "sit"
    REQUIRED = frozenset({"seat"})
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Assign(TableMessage):
    TYPE = "assign"
    REQUIRED = frozenset({"order"})
    order: list[Any] = dataclasses.field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnTime(TableMessage):
    TYPE = "turn_time"
    REQUIRED = frozenset({"seconds"})
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Spectators(TableMessage):
    """The host of a private table: whether it may be watched, and whether spectators
    may write in the table chat (a field left out is left as it is)."""

    TYPE = "spectators"
    allow: bool | None = None
    chat: bool | None = None


@dataclass(frozen=True, slots=True)
class Bots(TableMessage):
    TYPE = "bots"


@dataclass(frozen=True, slots=True)
class Start(TableMessage):
    TYPE = "start"


@dataclass(frozen=True, slots=True)
class Seed(TableMessage):
    TYPE = "seed"
    REQUIRED = frozenset({"seed"})
    seed: str = _limit(64)


@dataclass(frozen=True, slots=True)
class Act(TableMessage):
    TYPE = "act"
    REQUIRED = frozenset({"action"})
    action: str = _limit(200)
    #: The ``moves`` of the position the action was chosen in, if the client says.
    moves: int | None = None


@dataclass(frozen=True, slots=True)
class Chat(TableMessage):
    TYPE = "chat"
    REQUIRED = frozenset({"text"})
    #: Its length is checked by the table, against the server's chat settings.
    text: str = ""
    channel: str = dataclasses.field(default="table", metadata={"limit": 256})


@dataclass(frozen=True, slots=True)
class React(TableMessage):
    """A quick reaction or phrase, by its id (``docs/protocol.md`` §2, react)."""

    TYPE = "react"
    REQUIRED = frozenset({"reaction"})
    reaction: str = _limit(32)
    channel: str = dataclasses.field(default="table", metadata={"limit": 16})


@dataclass(frozen=True, slots=True)
class Rematch(TableMessage):
    """At a finished table: play again with the same seats (``accept``), or not any more."""

    TYPE = "rematch"
    accept: bool = True


#: Every type a client may send, by its ``"type"``.
REGISTRY: dict[str, type[ClientMessage]] = {
    cls.TYPE: cls
    for cls in (
        Hello, Ping, Pong, Lobby, Create, Join, Watch, Unwatch, PlayNow, Invite,
        Leave, Sit, Assign, TurnTime, Spectators, Bots, Start, Seed, Act, Chat, React, Rematch,
    )
}  # fmt: skip


def parse(data: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A client message's envelope, checked for size, UTF-8, JSON, version and type;
    its fields are checked by :func:`decode`, once the sender may send it at all."""
    try:
        message = inbound.loads(inbound.text_of(data, max_bytes))
    except inbound.Refused as refused:
        raise ProtocolError(refused.code, refused.detail) from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    version = message.get("v")
    if type(version) is not int or version != VERSION:  # true is not 1, nor is 1.0
        raise ProtocolError("bad_version", f"this server speaks version {VERSION}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in REGISTRY:
        raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    ref = message.get("id")
    if "id" in message and not (
        (isinstance(ref, str) and len(ref) <= 64)
        or (isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) < 2**53)
    ):
        raise ProtocolError("bad_field", "id must be a short string or a number")
    return message


def _kinds(cls: type[ClientMessage]) -> dict[str, tuple[type, ...]]:
    """Each field's accepted Python types, read from its annotation (``int | None``: int)."""
    kinds: dict[str, tuple[type, ...]] = {}
    for name, hint in typing.get_type_hints(cls).items():
        if typing.get_origin(hint) is ClassVar:
            continue
        options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        accepted: list[type] = []
        for option in options:
            if option is type(None):
                continue  # JSON's null is not a value of a typed field: it is left out
            base = typing.get_origin(option) or option
            # A JSON number may be written 15 or 15.0.
            accepted.extend((int, float) if base is float else (base,))
        kinds[name] = tuple(accepted)
    return kinds


#: Per type, each field's accepted Python types.
_KINDS = {name: _kinds(cls) for name, cls in REGISTRY.items()}


def decode(message: dict[str, Any]) -> ClientMessage:
    """The typed message of an envelope already checked by :func:`protocol.parse`;
    ``bad_field`` for a missing field, a value of the wrong type or a string too long."""
    cls = REGISTRY[message["type"]]
    kinds = _KINDS[cls.TYPE]
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(cls):  # type: ignore[arg-type]
        name = spec.name
        if name not in message:
            if name in cls.REQUIRED:
                raise ProtocolError("bad_field", f"{name!r} is missing")
            continue
        value = message[name]
        accepted = kinds[name]
        if object not in accepted and (
            not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted)
        ):
            # JSON's true is not a number, and null is no value of a typed field.
            raise ProtocolError("bad_field", f"{name!r} has the wrong type")
        limit = spec.metadata.get("limit")
        if isinstance(value, str) and limit is not None and len(value) > limit:
            raise ProtocolError("bad_field", f"{name!r} is too long")
        values[name] = value
    decoded: ClientMessage = cls(**values)
    return decoded
