"""The Jackaroo rules engine (``jackaroo.md``): options, board, moves, positions.

``GAME`` is the game as the platform sees it (:mod:`~sahrat.games.jackaroo.game`).
"""

from sahrat.games.jackaroo.actions import Chance, Move, parse_action
from sahrat.games.jackaroo.game import GAME
from sahrat.games.jackaroo.notation import to_position
from sahrat.games.jackaroo.options import PRESETS, Options
from sahrat.games.jackaroo.position import Parsed, from_position, parse_position
from sahrat.games.jackaroo.state import WAITING, JackarooState
from sahrat.games.jackaroo.view import JackarooView

__all__ = [
    "GAME",
    "PRESETS",
    "WAITING",
    "Chance",
    "JackarooState",
    "JackarooView",
    "Move",
    "Options",
    "Parsed",
    "from_position",
    "parse_action",
    "parse_position",
    "to_position",
]
