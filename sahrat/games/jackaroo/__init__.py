"""The Jackaroo rules engine (``jackaroo.md``): options, board, moves, positions."""

from sahrat.games.jackaroo.actions import Chance, Move, parse_action
from sahrat.games.jackaroo.options import PRESETS, Options
from sahrat.games.jackaroo.position import Parsed, from_position, parse_position, to_position
from sahrat.games.jackaroo.state import WAITING, JackarooState

__all__ = [
    "PRESETS",
    "WAITING",
    "Chance",
    "JackarooState",
    "Move",
    "Options",
    "Parsed",
    "from_position",
    "parse_action",
    "parse_position",
    "to_position",
]
