"""The heuristic Jackaroo bot: one move ahead, with card-aware danger and hand planning.

Each legal move is played on a copy of the board and scored as a club player
would weigh it (:mod:`sahrat.bots.jackaroo.eval`), in marble-steps:

* the marble values of both sides (bringing out, progress, the home lane,
  captures — a partner's marble counts as one's own);
* the board's shape: opponents held up behind our protected marbles (and ours
  behind theirs), a colour left with nothing on the track;
* the danger the move leaves behind: every marble of our side that an
  opponent may hit (or swap away with a J) before our next turn, weighted by
  the chance it holds such a card among those we have not seen; and the
  chance our partner hits theirs;
* the T's burn, worth about a turn taken from the next seat;
* what the cards left in the hand can still do on the new board (bring a
  marble out, enter the home lane exactly, the 4 from the start square), so
  that an A or a small card needed to finish is not wasted; for the few best
  moves, also the best gain of the next card on that board.

>>> import random
>>> from sahrat.games.jackaroo import from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t70", "b", "b", "b"], "1": ["t73", "b", "b", "b"],
...                 "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["3S", "9H"], "1": 4, "2": 4, "3": 4}})
>>> str(JackarooHeuristicBot(0).choose(state))   # the capture
'3S t70-t73'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sahrat.bots.jackaroo.eval import (
    DEFAULT,
    Board,
    Weights,
    board_score,
    evaluate,
    exposure,
    shape_score,
    swap_danger,
    team_of,
)
from sahrat.bots.jackaroo.odds import CardOdds
from sahrat.bots.jackaroo.plan import card_keep_value, hand_potential
from sahrat.cards import RANK
from sahrat.games.jackaroo.actions import BURN, DISCARD, DISCARD_ALL, MOVE, SPLIT, SWAP, Move
from sahrat.games.jackaroo.board import BASE0, HOME0
from sahrat.games.jackaroo.rules import Rules
from sahrat.games.jackaroo.state import JackarooState

WIN = 1e9
#: Cards a seat is dealt in a new round (near enough for both deals).
NEXT_DEAL = 4
#: How many of the best moves get a look at the next card's best move.
FOLLOW_TOP = 6


class JackarooHeuristicBot:
    """A fast rule-of-thumb player; ``seed`` only breaks ties between equal moves."""

    name = "heuristic"

    def __init__(
        self, seed: int | random.Random | None = None, *, weights: Weights = DEFAULT
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.weights = weights

    def choose(self, state: JackarooState) -> Move:
        legal: tuple[Move, ...] = state.legal_moves()
        if not legal:
            raise ValueError("no seat is to move")
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind in (DISCARD, DISCARD_ALL):
            return burn_choice(state)
        scores = score_moves(state, legal, self.weights)
        best = max(scores)
        ties = [m for m, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)


def score_moves(
    state: JackarooState, legal: Sequence[Move], weights: Weights = DEFAULT
) -> list[float]:
    """A score per move, in marble-steps, for the seat to move (higher is better)."""
    scorer = _Scorer(state, weights)
    rules = state.rules
    loc, occ = state.loc, state.occ
    # Both orders of a split 7, and two cards of one rank, often leave the same board.
    seen: dict[tuple[int, int, tuple[int, ...]], float] = {}
    scores: list[float] = []
    for move in legal:
        card, kind = move[0], move[1]
        loc2, occ2 = play_on_copy(rules, loc, occ, move)
        key = (RANK[card] if card >= 0 else 0, kind == BURN, tuple(loc2))
        score = seen.get(key)
        if score is None:
            score = seen[key] = scorer.score(move, loc2, occ2)
        scores.append(score)
    # The few best also count what the next card could add on their board: a plan
    # of two cards (free the home lane's first square, then enter it).
    if weights.follow and len(scorer.hand) >= 2 and legal[0].kind < DISCARD:
        top = sorted(range(len(legal)), key=scores.__getitem__, reverse=True)[:FOLLOW_TOP]
        for i in top:
            scores[i] += weights.follow * scorer.follow_up(legal[i])
    return scores


def play_on_copy(
    rules: Rules, loc: list[int], occ: list[int], move: Move
) -> tuple[list[int], list[int]]:
    """The board after ``move`` (captures included), leaving ``loc``/``occ`` as they are."""
    card, kind, a, b, c, d = move
    loc2, occ2 = loc[:], occ[:]
    if kind == MOVE:
        rules.move_marble(loc2, occ2, a, b, RANK[card])
    elif kind == SPLIT:
        rules.move_marble(loc2, occ2, a, b, 7)
        rules.move_marble(loc2, occ2, c, d, 7)
    elif kind == SWAP:
        rules.swap(loc2, occ2, a, b)
    return loc2, occ2


class _Scorer:
    """Scores the boards left by one seat's moves; holds what all moves share."""

    __slots__ = (
        "after_odds", "hand", "last", "loc", "mine", "occ", "odds", "partner", "rate", "rules",
        "seat", "theirs", "values", "weights",
    )  # fmt: skip

    def __init__(self, state: JackarooState, weights: Weights) -> None:
        rules = self.rules = state.rules
        seat = self.seat = state.turn
        self.mine = team_of(rules, seat)
        self.theirs = tuple(s for s in rules.order if s not in self.mine)
        self.partner = rules.partner[seat]
        self.weights = weights
        self.values, self.rate = weights.values, weights.hit_rate
        self.odds = CardOdds.for_seat(state, seat)
        self.hand = state.hands[seat]
        self.loc, self.occ = state.loc, state.occ
        #: A fresh deal comes before our next turn when this is our last card.
        self.last = len(self.hand) == 1
        self.after_odds: dict[bool, CardOdds] = {}

    def opponents_odds(self, burn: bool) -> CardOdds:
        """The hands the opponents choose from before our next turn: one card less for
        the next seat after a burn, a new deal on top after our last card."""
        found = self.after_odds.get(burn)
        if found is None:
            sizes = self.odds.sizes[:]
            if burn:
                sizes[self.rules.next_seat[self.seat]] -= 1
            if self.last:
                sizes = [n + NEXT_DEAL for n in sizes]
            found = self.after_odds[burn] = self.odds.with_sizes(sizes)
        return found

    def follow_up(self, move: Move) -> float:
        """The most marble value the next card adds on the board ``move`` leaves, the
        others standing still: of two moves alike, keep the card that does more."""
        rest = list(self.hand)
        rest.remove(move[0])
        loc, occ = play_on_copy(self.rules, self.loc, self.occ, move)
        return self.best_gain(loc, occ, rest)

    def best_gain(self, loc: list[int], occ: list[int], cards: list[int]) -> float:
        """The most marble value one of ``cards`` adds on this board (0 if none moves)."""
        rules, values, mine, theirs = self.rules, self.values, self.mine, self.theirs
        mask = 0
        for q in loc:
            if q < BASE0:
                mask |= 1 << q
        before = board_score(values, loc, mine, theirs)
        best = 0.0
        for nxt in rules.moves(cards, loc, occ, mask, self.seat, False):
            loc2, _ = play_on_copy(rules, loc, occ, nxt)
            best = max(best, board_score(values, loc2, mine, theirs) - before)
        return best

    def score(self, move: Move, loc: list[int], occ: list[int]) -> float:
        """The score of ``move``, which leaves the board ``loc``/``occ``."""
        rules, weights, values, rate = self.rules, self.weights, self.values, self.rate
        mine, theirs = self.mine, self.theirs
        card, kind, _, b, _, d = move
        if (b >= HOME0 or d >= HOME0) and rules.winner(loc) >= 0:
            return WIN if rules.winner(loc) in mine else -WIN
        board = Board(rules, loc, occ)
        score = board_score(values, loc, mine, theirs) + shape_score(board, mine, theirs, weights)
        odds = self.opponents_odds(kind == BURN)
        if kind == BURN:
            score += weights.burn_worth
        score -= weights.danger * exposure(board, values, rate, mine, theirs, odds)
        if weights.swap_fear:
            score -= weights.swap_fear * swap_danger(board, values, rate, mine, theirs, odds)
        if self.partner >= 0:
            score += weights.chance_to_hit * exposure(
                board, values, rate, theirs, (self.partner,), self.odds
            )
        rest = list(self.hand)
        if kind == DISCARD_ALL:
            rest.clear()
        else:
            rest.remove(card)
        return score + hand_potential(weights, loc, occ, board.control[self.seat], rest)


def burn_choice(state: JackarooState) -> Move:
    """The card to burn when nothing moves: the one the hand will miss least."""
    legal: tuple[Move, ...] = state.legal_moves()
    if not legal:
        raise ValueError("no seat is to move")
    if legal[0].kind == DISCARD_ALL:
        return legal[0]
    seat = state.turn
    colour = state.rules.controlled(state.loc, seat)
    return min(
        legal,
        key=lambda m: (card_keep_value(DEFAULT, state.loc, state.occ, colour, m.card), m.card),
    )


def stuck_choice(state: JackarooState) -> Move | None:
    """Where every legal move only burns cards, the card to burn; else None."""
    legal: tuple[Move, ...] = state.legal_moves()
    if legal and all(move.kind in (DISCARD, DISCARD_ALL) for move in legal):
        return burn_choice(state)
    return None


#: The heuristic's weights for playing out a search's rollouts: no two-card plans,
#: which cost most and matter least a few moves ahead.
ROLLOUT_WEIGHTS = Weights(follow=0.0)


def rollout_heuristic(state: JackarooState, rng: random.Random) -> Move:
    """The heuristic's own move, for rollouts that should look like real play."""
    legal: tuple[Move, ...] = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if legal[0].kind in (DISCARD, DISCARD_ALL):
        return burn_choice(state)
    scores = score_moves(state, legal, ROLLOUT_WEIGHTS)
    best = max(scores)
    ties = [m for m, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
    return ties[0] if len(ties) == 1 else ties[int(rng.random() * len(ties))]


__all__ = [
    "JackarooHeuristicBot",
    "Weights",
    "burn_choice",
    "evaluate",
    "score_moves",
]
