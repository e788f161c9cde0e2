"""The WebSocket protocol's envelope: versions, message types, errors (``docs/protocol.md``).

Every message either way is one JSON object with ``"v": 1`` and a ``"type"``;
what a client may send is :mod:`sahrat.server.messages`.
A client may add an ``"id"`` (a string or number up to 64 characters); the
server echoes it in the error or reply that answers that message.
"""

from __future__ import annotations

from typing import Any

from sahrat.server.jsontext import encode, encode_utf8

VERSION = 1

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
    "spectator": "a spectator watches: it cannot play, seed, take a seat or use team chat",
    "not_watchable": "this private table's host does not allow spectators",
    "not_watching": "you are not watching a table",
    "table_full": "no free seat",
    "seat_taken": "that seat is taken",
    "not_host": "only the table's host may do that",
    "wrong_phase": "not possible at this stage of the table",
    "not_your_turn": "it is not your turn",
    "illegal_move": "the rules do not allow that move",
    "stale": "the move was for an earlier position",
    "chat_too_long": "the chat message is too long",
    "chat_rate": "too many chat messages: wait a little",
    "no_partner": "team chat needs a partner",
    "reaction_rate": "too many reactions: wait a little",
    "unavailable": "the server could not save the change; nothing changed, try again",
    "table_moving": "the table is moving to another server; try again in a moment",
    "bad_token": "the session token is not valid (forged, ended or expired): say hello without it",
    "guest_no_coins": "guests have no coins: register to play at coin tables",
    "insufficient_coins": "your balance is below the table's stake",
    "bad_stake": "a coin table's stake is one of the server's stakes",
    "no_bots_at_coin_tables": "bots never sit at coin tables",
    "invite_self": "you cannot invite yourself",
    "not_friends": "you can invite only your friends",
    "blocked": "one of you has blocked the other",
    "invitee_offline": "your friend is not online",
    "table_started": "the game at your table has started: nobody can join it now",
    "already_at_table": "your friend sits at your table already",
    "invite_rate": "too many invitations: wait a little",
}


class ProtocolError(Exception):
    """An error answered to one client; nothing changes. ``extra``: fields of the answer."""

    def __init__(self, code: str, detail: str = "", **extra: Any) -> None:
        assert code in ERRORS, code
        super().__init__(detail or ERRORS[code])
        self.code = code
        self.detail = detail or ERRORS[code]
        self.extra = extra


def error(code: str, detail: str = "", ref: object = None, **extra: Any) -> dict[str, Any]:
    """An error message; ``extra`` fields ride along (an illegal move's ``reason``)."""
    message: dict[str, Any] = {
        "v": VERSION,
        "type": "error",
        "code": code,
        "message": detail or ERRORS[code],
        **extra,
    }
    if ref is not None:
        message["id"] = ref
    return message


def dumps(message: dict[str, Any]) -> str:
    return encode({"v": VERSION, **message})


def dumps_utf8(message: dict[str, Any]) -> bytes:
    return encode_utf8({"v": VERSION, **message})
