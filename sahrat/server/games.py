"""What the server needs from each game, over the shared engine interface."""

from __future__ import annotations

from typing import Any

from sahrat.bots.kits import KITS
from sahrat.errors import MalformedInput
from sahrat.games.buraco import BuracoOptions
from sahrat.games.jackaroo import Options
from sahrat.records import GAMES

GAME_NAMES = tuple(GAMES)


def table_options(game: str, options: object, seats: object) -> dict[str, Any]:
    """The game's options as JSON, checked by the engine, with the seat count in them."""
    if game not in GAMES:
        raise MalformedInput(f"unknown game {game!r}: jackaroo or buraco", game)
    if seats not in (2, 4):
        raise MalformedInput("a table has 2 or 4 seats", seats)
    if not isinstance(options, dict):
        raise MalformedInput("options are a JSON object", options)
    if game == "jackaroo":
        raw = {"preset": "sahrat", **options, "seats": seats}
        return Options.from_json(raw).to_json()
    return BuracoOptions.from_json({**options, "players": seats}).to_json()


def engine_seats(game: str, options: dict[str, Any]) -> tuple[int, ...]:
    """The engine's seat numbers in play order (a 2-seat Jackaroo table uses seats 0 and 2)."""
    rules = GAMES[game]
    return tuple(rules.seats(rules.new_state(options)))


def side(game: str, state: Any, seat: int) -> int:
    return KITS[game].side(state, seat)


def partners(game: str, seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The seats on ``seat``'s side (itself included); on a 2-seat table, itself."""
    if len(seats) == 2:
        return (seat,)
    return tuple(s for s in seats if (s & 1) == (seat & 1))


def view_json(state: Any, seat: int) -> dict[str, Any]:
    view = state.view(seat)
    return view if isinstance(view, dict) else dict(view.to_json())


def new_bot(game: str, seed: int) -> Any:
    return KITS[game].heuristic(seed)
