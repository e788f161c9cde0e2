"""Buraco's bots: the heuristic player, a greedy one, and what the search needs.

The modules here read the engine's insides (hands as card counts, melds) for
speed; they import its modules, never the package, whose descriptor imports
this kit.
"""

from __future__ import annotations

from typing import Any

from sahrat.bots.buraco.eval import evaluate
from sahrat.bots.buraco.greedy import GreedyBuracoBot
from sahrat.bots.buraco.heuristic import BuracoHeuristicBot, score_actions
from sahrat.bots.buraco.rollout import rollout_choice
from sahrat.game import BotKit


def _never_stuck(state: Any) -> None:
    """A Buraco seat always has a real choice: there is no burning."""
    return None


KIT = BotKit(
    heuristic=BuracoHeuristicBot,
    greedy=GreedyBuracoBot,
    evaluate=evaluate,
    rollout=rollout_choice,
    stuck=_never_stuck,
    hint_weight=2.0,
    # About two rounds of a four-player table (a turn is a draw, melds, a discard).
    rollout_depth=24,
    # The root is a duel: the heuristic's choice against its two runners-up (take or
    # draw, which meld, which discard), each played in the same deals.
    prior=score_actions,
    root_width=3,
)

__all__ = ["KIT", "BuracoHeuristicBot", "GreedyBuracoBot"]
