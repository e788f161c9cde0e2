"""The Buraco rules engine (``buraco.md``): melds, actions, the match state, scoring.

``GAME`` is the game as the platform sees it (:mod:`~sahrat.games.buraco.game`).

>>> from sahrat.games.buraco import BuracoOptions, BuracoState
>>> state = BuracoState(BuracoOptions(seats=2, sets=True, target=1000))
>>> [str(action) for action in state.legal_actions()]
['dealer 0', 'dealer 1']
"""

from sahrat.games.buraco.actions import BuracoAction, parse_action
from sahrat.games.buraco.game import GAME
from sahrat.games.buraco.melds import Meld, arrange, arrange_sequence, arrange_set, extend
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.scoring import HandResult, SideScore, score_side
from sahrat.games.buraco.setup import from_table
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.view import BuracoView

__all__ = [
    "GAME",
    "BuracoAction",
    "BuracoOptions",
    "BuracoState",
    "BuracoView",
    "HandResult",
    "Meld",
    "SideScore",
    "arrange",
    "arrange_sequence",
    "arrange_set",
    "extend",
    "from_table",
    "parse_action",
    "score_side",
]
