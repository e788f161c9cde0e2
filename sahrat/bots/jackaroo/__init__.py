"""Jackaroo's bots: the heuristic player, a greedy one, and what the search needs.

The modules here read the engine's insides (the board lists, the rules'
tables) for speed; they import its modules, never the package, whose
descriptor imports this kit.
"""

from __future__ import annotations

from sahrat.bots.jackaroo.eval import evaluate
from sahrat.bots.jackaroo.greedy import GreedyJackarooBot
from sahrat.bots.jackaroo.heuristic import (
    JackarooHeuristicBot,
    rollout_heuristic,
    score_moves,
    stuck_choice,
)
from sahrat.game import BotKit

KIT = BotKit(
    heuristic=JackarooHeuristicBot,
    greedy=GreedyJackarooBot,
    evaluate=evaluate,
    # Rollouts play the heuristic's own moves for one round: a duel compares a few
    # good moves, and random replies would drown their differences.
    rollout=rollout_heuristic,
    stuck=stuck_choice,
    prior=score_moves,
    rollout_depth=4,
    root_width=4,
)

__all__ = ["KIT", "GreedyJackarooBot", "JackarooHeuristicBot"]
