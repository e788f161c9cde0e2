"""Game-agnostic search: ISMCTS over any :class:`~sahrat.game.GameState`, given a game's
:class:`~sahrat.game.BotKit`."""

from sahrat.bots.search.budget import Budget
from sahrat.bots.search.ismcts import IsmctsBot

__all__ = ["Budget", "IsmctsBot"]
