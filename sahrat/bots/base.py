"""What every bot is: something that picks one of the engine's legal actions.

Bots are deterministic for a given seed (their only randomness is their own
:class:`random.Random`), never read hidden cards (search works on
:meth:`~sahrat.game.GameState.determinize`), and report nothing but the action.
"""

from __future__ import annotations

from typing import Any, Protocol

from sahrat.game import GameState


class Bot(Protocol):
    """A player for the seat to move."""

    #: A short label for logs and the arena (``heuristic``, ``ismcts:100ms`` …).
    name: str

    def choose(self, state: Any) -> Any:
        """One of ``state.legal_actions()``, for ``state.current_player()``."""
        ...


class Evaluator(Protocol):
    """A game's static evaluation: how good ``state`` is for ``seat``'s side, in [-1, 1]."""

    def __call__(self, state: Any, seat: int) -> float: ...


def check_choice(state: GameState, action: Any) -> Any:
    """``action`` if it is legal in ``state``, else ValueError (a bot bug, never hidden)."""
    if action not in state.legal_actions():
        raise ValueError(f"bot chose an illegal action: {action}")
    return action
