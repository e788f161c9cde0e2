"""The Jackaroo rules engine (``jackaroo.md``): options, board, moves, positions."""

from sahrat.games.jackaroo.actions import Chance, Move, parse_action
from sahrat.games.jackaroo.options import PRESETS, Options
from sahrat.games.jackaroo.position import from_position, to_position
from sahrat.games.jackaroo.state import WAITING, JackarooState

__all__ = [
    "PRESETS",
    "WAITING",
    "Chance",
    "JackarooState",
    "Move",
    "Options",
    "from_position",
    "parse_action",
    "to_position",
]
