"""What a Jackaroo position is worth to a side: marble values, card odds and danger.

The heuristic bot (:mod:`sahrat.bots.jackaroo_heuristic`) scores each legal
move by the board it leaves; search uses :func:`evaluate` at its leaves. Both
count in *marble-steps*: one step of progress is worth 1, a marble leaving
its base is worth :data:`OUT` on top, and the home lane is worth a bonus
since nothing can touch a marble there.

Danger is card-aware: a marble ``d`` squares ahead of an opponent's marble is
hit by the cards that move exactly ``d`` (plus the 7's split part and a
sweeping K's pass), and the chance that the opponent holds one of them is
hypergeometric over the cards the deciding seat has not seen (not in its
hand, not in the discard pile).

>>> from sahrat.games.jackaroo import from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["h0.4", "h0.3", "h0.2", "h0.1"], "1": ["b"] * 4,
...                 "2": ["h2.4", "h2.3", "h2.2", "t0"], "3": ["b"] * 4},
...     "hands": {"0": ["AS"], "1": 4, "2": 4, "3": 4}})
>>> 0.5 < evaluate(state, 0) < 1.0 and -1.0 < evaluate(state, 1) < -0.5
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from sahrat.cards import RANK
from sahrat.games.jackaroo.board import BASE0, PASS_MASK, PROGRESS, QUARTER, TRACK
from sahrat.games.jackaroo.rules import PLAIN, Rules
from sahrat.games.jackaroo.state import JackarooState

#: Scale of :func:`evaluate`'s squashing: a lead of this many marble-steps is ~0.76.
EVAL_SCALE = 250.0


@dataclass(frozen=True, slots=True)
class Weights:
    """The knobs of the heuristic, in marble-steps (one step of progress is 1)."""

    #: Worth of a marble out of its base, on top of its progress: a capture costs
    #: all its steps *and* an A or K to come back out.
    out: float = 24.0
    #: Bonus for a marble in its home lane (safe for good), and per square deeper in
    #: it (a marble on ``h.1`` stops the others from entering behind it).
    home_bonus: float = 14.0
    lane_step: float = 2.0
    #: Chance that an opponent holding a hitting card uses it on the marble.
    hit_rate: float = 0.75
    #: Weight of the danger to our marbles, and of the chance our partner hits
    #: theirs (they move first and may run, so it counts for less).
    danger: float = 1.0
    chance_to_hit: float = 0.35
    #: A T's burn takes a card, i.e. a whole turn, from the next seat.
    burn_worth: float = 14.0
    #: What a card left in the hand is worth when it can still bring a marble out,
    #: drop one exactly into the home lane, or take the 4's shortcut from just past
    #: the start square; and the scale of every card's own flexibility (``FLEX``).
    keep_out: float = 16.0
    keep_enter: float = 5.0
    keep_shortcut: float = 28.0
    keep_flex: float = 2.0

    @property
    def values(self) -> list[list[float]]:
        """``values[colour][square]``: what a marble of ``colour`` on ``square`` is worth."""
        return marble_values(self.out, self.home_bonus, self.lane_step)


@lru_cache(maxsize=16)
def marble_values(out: float, home_bonus: float, lane_step: float) -> list[list[float]]:
    table: list[list[float]] = []
    for colour in range(4):
        row = [0.0] * (BASE0 + 4)
        for q in range(BASE0):
            p = PROGRESS[colour][q]
            if p < 0:
                continue
            if p < TRACK:
                row[q] = out + p
            else:
                row[q] = out + p + home_bonus + lane_step * (p - TRACK)
        table.append(row)
    return table


DEFAULT = Weights()

ACE_BIT, FOUR_BIT, SEVEN_BIT, KING_BIT = 1 << 1, 1 << 4, 1 << 7, 1 << 13
BRING_OUT_BITS = ACE_BIT | KING_BIT


def _hit_masks(rules: Rules) -> list[int]:
    """``masks[d]``: the ranks (as ``1 << rank``) that hit a marble ``d`` squares ahead."""
    masks = [0] * 14
    for d in range(1, 14):
        bits = 0
        if d in (1, 11):
            bits |= ACE_BIT
        elif d not in (4, 7):
            bits |= 1 << d
        if d <= 7:
            bits |= SEVEN_BIT  # whole, or one part of a split
        if d == 13 or rules.king_mode != PLAIN:
            bits |= KING_BIT  # a sweeping K captures what it passes
        masks[d] = bits
    return masks


_HIT_MASKS: dict[int, list[int]] = {}


def hit_masks(rules: Rules) -> list[int]:
    key = rules.king_mode
    masks = _HIT_MASKS.get(key)
    if masks is None:
        masks = _HIT_MASKS[key] = _hit_masks(rules)
    return masks


def team_of(rules: Rules, seat: int) -> tuple[int, ...]:
    partner = rules.partner[seat]
    return (seat, partner) if partner >= 0 else (seat,)


def board_score(
    values: list[list[float]], loc: list[int], mine: tuple[int, ...], theirs: tuple[int, ...]
) -> float:
    """Marble value of ``mine`` minus that of ``theirs``."""
    total = 0.0
    for colour in mine:
        row = values[colour]
        b = colour * 4
        total += row[loc[b]] + row[loc[b + 1]] + row[loc[b + 2]] + row[loc[b + 3]]
    for colour in theirs:
        row = values[colour]
        b = colour * 4
        total -= row[loc[b]] + row[loc[b + 1]] + row[loc[b + 2]] + row[loc[b + 3]]
    return total


class CardOdds:
    """Chances that a seat holds a card of some ranks, from one seat's knowledge."""

    __slots__ = ("_cache", "sizes", "unseen", "unseen_total")

    def __init__(self, unseen: list[int], sizes: list[int]) -> None:
        #: ``unseen[rank]``: cards of that rank the deciding seat has not seen.
        self.unseen = unseen
        self.unseen_total = sum(unseen)
        #: ``sizes[seat]``: cards that seat will hold when it next moves.
        self.sizes = sizes
        self._cache: dict[tuple[int, int], float] = {}

    @classmethod
    def for_seat(cls, state: JackarooState, seat: int) -> CardOdds:
        unseen = [0] + [4] * 13
        for card in state.hands[seat]:
            if card >= 0:
                unseen[RANK[card]] -= 1
        for card in state.discard:
            unseen[RANK[card]] -= 1
        sizes = [len(h) for h in state.hands]
        return cls(unseen, sizes)

    def holds(self, seat: int, ranks: int) -> float:
        """P(``seat`` holds at least one card whose ``1 << rank`` is in ``ranks``)."""
        key = (seat, ranks)
        p = self._cache.get(key)
        if p is None:
            p = self._cache[key] = self._holds(self.sizes[seat], ranks)
        return p

    def _holds(self, size: int, ranks: int) -> float:
        total = self.unseen_total
        if size <= 0 or total <= 0:
            return 0.0
        hits = sum(n for r, n in enumerate(self.unseen) if ranks >> r & 1)
        miss = 1.0
        for i in range(min(size, total)):
            if total - i <= 0:
                break
            miss *= max(total - hits - i, 0) / (total - i)
        return 1.0 - miss


def exposure(
    values: list[list[float]],
    hit_rate: float,
    rules: Rules,
    loc: list[int],
    occ: list[int],
    mask: int,
    colours: tuple[int, ...],
    attackers: tuple[int, ...],
    odds: CardOdds,
) -> float:
    """Expected marble value of ``colours`` lost to the ``attackers`` (seats) before
    they all have moved once."""
    masks = hit_masks(rules)
    # Each attacker's marbles on the track and whether it can bring one out.
    fronts = []
    for seat in attackers:
        colour = rules.controlled(loc, seat)
        b = colour * 4
        squares = [loc[m] for m in range(b, b + 4) if loc[m] < TRACK]
        can_bring = any(loc[m] >= BASE0 for m in range(b, b + 4))
        fronts.append((seat, colour, squares, can_bring))
    lost = 0.0
    for colour in colours:
        row = values[colour]
        for m in range(colour * 4, colour * 4 + 4):
            q = loc[m]
            if q >= TRACK or rules.protected(occ, q):
                continue
            safe = 1.0
            for seat, their, squares, can_bring in fronts:
                ranks = 0
                if can_bring and q == their * QUARTER:
                    ranks = BRING_OUT_BITS
                prog = PROGRESS[their]
                target = prog[q]
                for frm in squares:
                    d = target - prog[frm]
                    if 0 < d <= 13:
                        if mask & PASS_MASK[their][frm][d] and _blocked(rules, occ, their, frm, d):
                            continue
                        ranks |= masks[d]
                    elif (frm - q) % TRACK == 4:
                        ranks |= FOUR_BIT
                if ranks:
                    safe *= 1.0 - hit_rate * odds.holds(seat, ranks)
            if safe < 1.0:
                lost += row[q] * (1.0 - safe)
    return lost


def _blocked(rules: Rules, occ: list[int], colour: int, frm: int, steps: int) -> bool:
    """Whether a protected marble (or, without ``pass_own``, one's own) bars the way."""
    m = occ[frm]
    occ[frm] = -1
    dest = rules.forward(occ, colour, frm, steps, PLAIN, None)
    occ[frm] = m
    return dest < 0


_VALUES = DEFAULT.values
#: A card's share of a hand, by rank, for :func:`evaluate` (no hands known there).
_STATIC_ODDS = CardOdds([0] + [4] * 13, [4, 4, 4, 4])


def evaluate(state: JackarooState, seat: int) -> float:
    """How good ``state`` is for ``seat``'s side, in [-1, 1]: +1 won, -1 lost.

    Marble values of both sides, less each side's expected losses to the other's
    likely cards (odds of a generic four-card hand), squashed by ``tanh``.
    """
    rules = state.rules
    if state.winner >= 0:
        return 1.0 if seat in state.winners() else -1.0
    mine = team_of(rules, seat)
    theirs = tuple(s for s in rules.order if s not in mine)
    loc, occ, mask = state.loc, state.occ, state.mask
    values, rate = _VALUES, DEFAULT.hit_rate
    score = board_score(values, loc, mine, theirs)
    score -= exposure(values, rate, rules, loc, occ, mask, mine, theirs, _STATIC_ODDS)
    score += exposure(values, rate, rules, loc, occ, mask, theirs, mine, _STATIC_ODDS)
    return math.tanh(score / EVAL_SCALE)
