"""The server's move for a seat whose clock ran out (platform.md, "The clock").

The strongest move the search bot finds within a short budget; when the
seat has no real choice (a Jackaroo hand that can only be burnt), the card
the game's heuristic values least, whatever its place in the hand.
"""

from __future__ import annotations

import random
from typing import Any

from sahrat.bots.search import Budget, IsmctsBot
from sahrat.game import BotKit

#: Milliseconds the autopilot thinks by default.
DEFAULT_BUDGET_MS = 300.0


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
    return IsmctsBot(kit, Budget(ms=budget_ms), seed).choose(state)
