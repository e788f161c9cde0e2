"""The Buraco rules engine (``buraco.md``): melds, actions, the match state, scoring.

>>> from sahrat.games.buraco import BuracoOptions, BuracoState
>>> state = BuracoState(BuracoOptions(players=2, sets=True, target=1000))
>>> [str(action) for action in state.legal_actions()]
['dealer 0', 'dealer 1']
"""

from sahrat.games.buraco.actions import BuracoAction, parse_action
from sahrat.games.buraco.melds import Meld, arrange, arrange_sequence, arrange_set, extend
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.position import from_table
from sahrat.games.buraco.scoring import HandResult, SideScore, score_side
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.view import BuracoView

__all__ = [
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
