"""What a new table is made of: its options checked by its game, its id and code."""

from __future__ import annotations

import secrets
import string
from typing import Any

from sahrat.games import game_named

CODE_ALPHABET = string.ascii_uppercase + string.digits


def table_options(game: str, options: object, seats: int) -> dict[str, Any]:
    """The game's options as JSON, checked by the game (seat count included)."""
    checked: dict[str, Any] = game_named(game).options_from_json(options, seats).to_json()
    return checked


def new_table_row(
    game: str,
    options: dict[str, Any],
    seats: int,
    private: bool,
    host: str | None,
    stake: int,
) -> dict[str, Any]:
    """The stored row of a table about to open (waiting for its players)."""
    return {
        "id": "t" + secrets.token_hex(6),
        "game": game,
        "options": options,
        "seats": seats,
        "kind": "private" if private else "coin" if stake else "free",
        "stake": stake,
        "host": host,
        "status": "waiting",
        "code": "".join(secrets.choice(CODE_ALPHABET) for _ in range(6)) if private else None,
    }
