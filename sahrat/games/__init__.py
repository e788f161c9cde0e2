"""The games, one package each, and their registry.

Each package holds a pure rules engine and exports ``GAME``, its
:class:`~sahrat.game.Game` descriptor; everything above the engines (the
server, the records, the command line, the arena) finds a game here by name.

>>> sorted(GAMES)
['buraco', 'jackaroo']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sahrat.errors import MalformedInput
from sahrat.game import Game
from sahrat.games.buraco.game import GAME as BURACO
from sahrat.games.jackaroo.game import GAME as JACKAROO

GAMES: Mapping[str, Game[Any]] = {game.name: game for game in (JACKAROO, BURACO)}


def game_named(name: object) -> Game[Any]:
    """The game called ``name``; :class:`~sahrat.errors.MalformedInput` if there is none."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise MalformedInput(f"unknown game {name!r}: {' or '.join(GAMES)}", name)
    return game
