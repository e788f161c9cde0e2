"""The WebSocket protocol's envelope: versions, message types, errors (``docs/protocol.md``).

Every message either way is one JSON object with ``"v": 1`` and a ``"type"``.
A client may add an ``"id"`` (a string or number up to 64 characters); the
server echoes it in the error or reply that answers that message.
"""

from __future__ import annotations

import json
from typing import Any

from sahrat.server import inbound

VERSION = 1

#: What a client may send, and the fields each carries.
CLIENT_TYPES = frozenset(
    {
        "hello",
        "ping",
        "pong",
        "lobby",
        "create",
        "join",
        "play_now",
        "leave",
        "sit",
        "assign",
        "turn_time",
        "bots",
        "start",
        "seed",
        "act",
        "chat",
    }
)

#: Error codes, with the meaning documented in docs/protocol.md.
ERRORS = {
    "malformed": "the message is not a JSON object of the protocol",
    "bad_version": "the message's version is not one the server speaks",
    "unknown_type": "no such message type",
    "too_large": "the message is larger than the server accepts",
    "rate_limited": "too many messages: this one was dropped",
    "too_many": "too many new guests or tables from your address: wait a little",
    "not_authenticated": "send hello first",
    "bad_field": "a field is missing or has the wrong type or value",
    "no_such_table": "no such table, or it is over",
    "already_seated": "you already sit at a table: leave it first",
    "not_seated": "you do not sit at this table",
    "table_full": "no free seat",
    "seat_taken": "that seat is taken",
    "not_host": "only the table's host may do that",
    "wrong_phase": "not possible at this stage of the table",
    "not_your_turn": "it is not your turn",
    "illegal_move": "the engine refused the move",
    "stale": "the move was for an earlier position",
    "chat_too_long": "the chat message is too long",
    "chat_rate": "too many chat messages: wait a little",
    "no_partner": "team chat needs a partner",
    "unavailable": "the server could not save the change; nothing changed, try again",
}


class ProtocolError(Exception):
    """An error answered to one client; nothing changes."""

    def __init__(self, code: str, detail: str = "") -> None:
        assert code in ERRORS, code
        super().__init__(detail or ERRORS[code])
        self.code = code
        self.detail = detail or ERRORS[code]


def error(code: str, detail: str = "", ref: object = None) -> dict[str, Any]:
    message: dict[str, Any] = {
        "v": VERSION,
        "type": "error",
        "code": code,
        "message": detail or ERRORS[code],
    }
    if ref is not None:
        message["id"] = ref
    return message


def parse(data: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A client message, checked for size, UTF-8, JSON, version and type."""
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
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    ref = message.get("id")
    if "id" in message and not (
        (isinstance(ref, str) and len(ref) <= 64)
        or (isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) < 2**53)
    ):
        raise ProtocolError("bad_field", "id must be a short string or a number")
    return message


def field(
    message: dict[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    default: Any = ...,
    limit: int = 256,
) -> Any:
    """A field of ``kind``; strings up to ``limit`` characters. Missing: ``default`` or an error."""
    if name not in message:
        if default is ...:
            raise ProtocolError("bad_field", f"{name!r} is missing")
        return default
    value = message[name]
    if (
        isinstance(value, bool)
        and kind is not bool
        and bool not in (kind if isinstance(kind, tuple) else (kind,))
    ):
        raise ProtocolError("bad_field", f"{name!r} has the wrong type")
    if not isinstance(value, kind):
        raise ProtocolError("bad_field", f"{name!r} has the wrong type")
    if isinstance(value, str) and len(value) > limit:
        raise ProtocolError("bad_field", f"{name!r} is too long")
    return value


#: Compact, and Arabic as it is (not \\u escapes): a third of the bytes for Arabic text.
JSON_STYLE: dict[str, Any] = {"ensure_ascii": False, "separators": (",", ":")}


def dumps(message: dict[str, Any]) -> str:
    return json.dumps({"v": VERSION, **message}, **JSON_STYLE)
