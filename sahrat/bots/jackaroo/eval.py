"""What a Jackaroo position is worth to a side: marble values, shape and danger.

The heuristic bot (:mod:`sahrat.bots.jackaroo.heuristic`) scores each legal
move by the board it leaves; search uses :func:`evaluate` at its leaves. Both
count in *marble-steps*: one step of progress is worth 1, a marble out of its
base is worth :attr:`Weights.out` on top, and the home lane a bonus, since
nothing can touch a marble there.

Danger is card-aware: a marble ``d`` squares ahead of an opponent's marble is
hit by the cards that move exactly ``d`` (and the 7's split part, and a
sweeping K passing it); the chance that the opponent holds one of them comes
from :class:`~sahrat.bots.jackaroo.odds.CardOdds`.

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

from sahrat.bots.jackaroo.odds import (
    BRING_OUT_BITS,
    FIVE_BIT,
    FOUR_BIT,
    JACK_BIT,
    CardOdds,
    hit_masks,
)
from sahrat.games.jackaroo.board import AHEAD, BASE0, BEHIND, PASS_MASK, PROGRESS, QUARTER, TRACK
from sahrat.games.jackaroo.rules import Rules
from sahrat.games.jackaroo.state import JackarooState

#: Scale of :func:`evaluate`'s squashing: a lead of this many marble-steps is ~0.76.
EVAL_SCALE = 250.0
#: The least a swap must gain its player (in marble-steps) to be worth a J.
SWAP_WORTHWHILE = 10.0


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
    #: A colour with marbles waiting and none on the track; a marble held up right
    #: behind a protected one (most when it is nearest).
    stranded: float = 10.0
    #: A colour all home: its seat's cards now move its partner's marbles, so that
    #: seat never again waits for an A or K.
    finished: float = 15.0
    blockade: float = 10.0
    #: Weight of the danger that an opponent's J swaps one of our far marbles away.
    swap_fear: float = 1.0
    #: A T's burn takes a card, i.e. a whole turn, from the next seat.
    burn_worth: float = 14.0
    #: What a card left in the hand is worth when it can still bring a marble out,
    #: drop one exactly into the home lane, or take the 4's shortcut from just past
    #: the start square; and the scale of every card's own flexibility.
    keep_out: float = 16.0
    keep_enter: float = 5.0
    keep_shortcut: float = 28.0
    keep_flex: float = 2.0
    #: Share of the best next card's gain on the board a move leaves (a two-card plan).
    follow: float = 0.5

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


def team_of(rules: Rules, seat: int) -> tuple[int, ...]:
    partner = rules.partner[seat]
    return (seat, partner) if partner >= 0 else (seat,)


class Board:
    """One pass over a board for everything the terms below ask: who stands where
    on the track, who waits, who is home, and which squares are protected."""

    __slots__ = (
        "colour_bits", "control", "guarded", "home", "loc", "mask", "occ", "rules", "track",
        "waiting",
    )  # fmt: skip

    def __init__(self, rules: Rules, loc: list[int], occ: list[int]) -> None:
        self.rules = rules
        self.loc = loc
        self.occ = occ
        #: ``track[colour]``: the track squares of that colour's marbles.
        self.track: list[list[int]] = [[], [], [], []]
        self.waiting = [0, 0, 0, 0]
        home = self.home = [0, 0, 0, 0]
        #: Bits of the occupied squares; per colour; of the protected squares.
        mask = 0
        colour_bits = [0, 0, 0, 0]
        guarded = 0
        start_any, barrier = rules.start_any, rules.barrier
        for m, q in enumerate(loc):
            colour = m >> 2
            if q < TRACK:
                self.track[colour].append(q)
                bit = 1 << q
                mask |= bit
                colour_bits[colour] |= bit
                if (q % QUARTER == 0 and (start_any or q // QUARTER == colour)) or (
                    barrier and occ[BEHIND[q]] >= 0
                ):
                    guarded |= bit
            elif q < BASE0:
                mask |= 1 << q
                home[colour] += 1
            else:
                self.waiting[colour] += 1
        self.mask = mask
        self.colour_bits = colour_bits
        self.guarded = guarded
        #: ``control[seat]``: the colour that seat moves (its partner's once all four are home).
        self.control = [
            rules.partner[s] if home[s] == 4 and rules.partner[s] >= 0 else s for s in range(4)
        ]

    def blocked(self, colour: int, frm: int, steps: int) -> bool:
        """Whether a marble of ``colour`` moving ``steps`` from ``frm`` must pass a
        protected marble, or its own colour without ``pass_own``. (The square just
        ahead is protected by the mover itself under ``barrier``: lifted, it is not.)"""
        walls = self.guarded & ~(1 << AHEAD[frm])
        if not self.rules.pass_own:
            walls |= self.colour_bits[colour]
        return bool(PASS_MASK[colour][frm][steps] & walls)


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


def shape_score(
    board: Board, mine: tuple[int, ...], theirs: tuple[int, ...], weights: Weights
) -> float:
    """Board shape beyond marble values, ``mine`` against ``theirs``: a colour with
    marbles waiting but none on the track (only an A or K moves it again), a colour
    all home, and marbles held up behind a protected marble they may not pass."""
    total = 0.0
    track, waiting, home = board.track, board.waiting, board.home
    for colour in mine:
        if waiting[colour] and not track[colour]:
            total -= weights.stranded
        elif home[colour] == 4:
            total += weights.finished
    for colour in theirs:
        if waiting[colour] and not track[colour]:
            total += weights.stranded
        elif home[colour] == 4:
            total -= weights.finished
    guarded = board.guarded
    if guarded and weights.blockade:
        walls = [q for squares in track for q in squares if guarded >> q & 1]
        for sign, colours in ((-weights.blockade, mine), (weights.blockade, theirs)):
            for colour in colours:
                prog = PROGRESS[colour]
                for frm in track[colour]:
                    for q in walls:
                        d = prog[q] - prog[frm]
                        if 0 < d <= 13:
                            total += sign * (14 - d) / 13
    return total


def exposure(
    board: Board,
    values: list[list[float]],
    hit_rate: float,
    colours: tuple[int, ...],
    attackers: tuple[int, ...],
    odds: CardOdds,
) -> float:
    """Expected marble value of ``colours`` lost to the ``attackers`` (seats), each
    moving once: landing on a marble, passing it with a sweeping K, the 4 from
    four squares ahead, or bringing a marble out onto it."""
    masks = hit_masks(board.rules)
    track, guarded, mask = board.track, board.guarded, board.mask
    occ, five_any = board.occ, board.rules.five_any
    fronts = []
    for seat in attackers:
        their = board.control[seat]
        fronts.append((seat, their, track[their], board.waiting[their] > 0, PROGRESS[their]))
    lost = 0.0
    for colour in colours:
        row = values[colour]
        for q in track[colour]:
            if guarded >> q & 1:
                continue
            # With ``five = any`` a 5 may drive any other colour's marble onto ours.
            pushed = 0
            if five_any:
                behind = occ[(q - 5) % TRACK]
                if behind >= 0 and behind >> 2 != colour and not guarded >> ((q - 5) % TRACK) & 1:
                    prog = PROGRESS[behind >> 2]
                    if prog[q] - prog[(q - 5) % TRACK] == 5:
                        pushed = FIVE_BIT
            safe = 1.0
            for seat, their, squares, can_bring, prog in fronts:
                ranks = pushed | (BRING_OUT_BITS if can_bring and q == their * QUARTER else 0)
                target = prog[q]
                for frm in squares:
                    d = target - prog[frm]
                    if 0 < d <= 13:
                        if mask & PASS_MASK[their][frm][d] and board.blocked(their, frm, d):
                            continue
                        ranks |= masks[d]
                    elif (frm - q) % TRACK == 4:
                        ranks |= FOUR_BIT
                if ranks:
                    safe *= 1.0 - hit_rate * odds.holds(seat, ranks)
            if safe < 1.0:
                lost += row[q] * (1.0 - safe)
    return lost


def swap_danger(
    board: Board,
    values: list[list[float]],
    hit_rate: float,
    colours: tuple[int, ...],
    attackers: tuple[int, ...],
    odds: CardOdds,
) -> float:
    """Expected marble value of ``colours`` lost to the attackers' J: each one, if it
    holds a J, swaps the pair that gains its side most (a lagging marble of its own
    for one of ours far along)."""
    guarded, track = board.guarded, board.track
    targets = [(values[c], q) for c in colours for q in track[c] if not guarded >> q & 1]
    if not targets:
        return 0.0
    lost = 0.0
    for seat in attackers:
        their = board.control[seat]
        row = values[their]
        best_gain, best_loss = SWAP_WORTHWHILE, 0.0
        for s in track[their]:
            if guarded >> s & 1:
                continue
            for mine, q in targets:
                loss = mine[q] - mine[s]
                gain = row[q] - row[s] + loss
                if gain > best_gain:
                    best_gain, best_loss = gain, loss
        if best_loss > 0.0:
            lost += odds.holds(seat, JACK_BIT) * hit_rate * best_loss
    return lost


_VALUES = DEFAULT.values
#: Odds of a generic four-card hand, for :func:`evaluate` (no hand is known there).
_STATIC_ODDS = CardOdds([0] + [4] * 13, [4, 4, 4, 4])


def evaluate(state: JackarooState, seat: int) -> float:
    """How good ``state`` is for ``seat``'s side, in [-1, 1]: +1 won, -1 lost.

    Marble values and board shape of both sides, less each side's expected losses
    to the other's likely cards, squashed by ``tanh``.
    """
    rules = state.rules
    if state.winner >= 0:
        return 1.0 if seat in state.winners() else -1.0
    mine = team_of(rules, seat)
    theirs = tuple(s for s in rules.order if s not in mine)
    board = Board(rules, state.loc, state.occ)
    values, rate = _VALUES, DEFAULT.hit_rate
    score = board_score(values, state.loc, mine, theirs)
    score += shape_score(board, mine, theirs, DEFAULT)
    score -= exposure(board, values, rate, mine, theirs, _STATIC_ODDS)
    score += exposure(board, values, rate, theirs, mine, _STATIC_ODDS)
    return math.tanh(score / EVAL_SCALE)
