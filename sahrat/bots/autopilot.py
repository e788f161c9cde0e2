"""The server's move for a seat whose clock ran out (platform.md, "The clock").

The strongest move the search bot finds within a short budget; when the
seat has no legal move (a Jackaroo hand that can only be burnt), the card
the heuristic values least, whatever its place in the hand.
"""

from __future__ import annotations

import random
from typing import Any

from sahrat.bots.ismcts import Budget, IsmctsBot
from sahrat.bots.kits import KITS

#: Milliseconds the autopilot thinks by default.
DEFAULT_BUDGET_MS = 300.0


def is_stuck(game: str, legal: Any) -> bool:
    """Whether every legal action burns cards without moving (a Jackaroo stuck hand)."""
    if game != "jackaroo":
        return False
    from sahrat.games.jackaroo.actions import DISCARD, DISCARD_ALL

    return all(action.kind in (DISCARD, DISCARD_ALL) for action in legal)


def autopilot_action(
    game: str,
    state: Any,
    budget_ms: float = DEFAULT_BUDGET_MS,
    seed: int | random.Random | None = None,
) -> Any:
    """The action the server plays for ``state.current_player()``."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("no seat is to move")
    if is_stuck(game, legal):
        return KITS[game].burn(state)
    if len(legal) == 1:
        return legal[0]
    return IsmctsBot(KITS[game], Budget(ms=budget_ms), seed).choose(state)
