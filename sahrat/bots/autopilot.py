"""The server's move for a seat whose clock ran out (platform.md, "The clock").

The strongest move the search bot finds within a short budget; when the
seat has no real choice (a Jackaroo hand that can only be burnt), the card
the game's heuristic values least, whatever its place in the hand; when the
budget is all but spent already, the heuristic's move.
"""

from __future__ import annotations

import random
from typing import Any

from sahrat.bots.search import Budget, IsmctsBot
from sahrat.game import BotKit

#: Milliseconds the autopilot thinks by default.
DEFAULT_BUDGET_MS = 300.0
#: With less time than this left (a request that waited for a free search process),
#: the heuristic plays at once: a search that short would find next to nothing.
MIN_SEARCH_MS = 10.0


def autopilot_action(
    kit: BotKit,
    state: Any,
    budget_ms: float = DEFAULT_BUDGET_MS,
    seed: int | random.Random | None = None,
) -> Any:
    """The action the server plays for ``state.current_player()``."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("no seat is to move")
    stuck = kit.stuck(state)
    if stuck is not None:
        return stuck
    if len(legal) == 1:
        return legal[0]
    if budget_ms < MIN_SEARCH_MS:
        return kit.heuristic(
            seed if isinstance(seed, random.Random) else random.Random(seed)
        ).choose(state)
    return IsmctsBot(kit, Budget(ms=budget_ms), seed).choose(state)
