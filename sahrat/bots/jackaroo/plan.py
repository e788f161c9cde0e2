"""What the cards still in a hand can do on a board: the heuristic bot's hand planning.

A hand is played out card by card over a round, so the order matters: an A
spent on one step is an A that cannot bring a marble out next turn, and the
3 that would drop a marble exactly into the home lane is worth keeping until
that marble is there. :func:`hand_potential` values the cards left after a
move on the board the move leaves; :func:`card_keep_value` ranks one card for
a burn.
"""

from __future__ import annotations

from sahrat.bots.jackaroo.eval import Weights
from sahrat.cards import RANK
from sahrat.games.jackaroo.board import BASE0, HOME0, PROGRESS, QUARTER, TRACK

#: A card's own flexibility, by rank, whatever the board: the A (out, 1 or 11),
#: the 7 (split), the J (swap), the 4 (backwards), the K (out, sweep).
FLEX = (0.0, 3.0, 0.5, 0.5, 2.0, 1.5, 0.5, 3.5, 0.5, 0.5, 1.0, 2.5, 0.5, 3.0)

#: ``STEPS[rank]``: the forward step counts a card of that rank can give one marble.
STEPS: tuple[tuple[int, ...], ...] = (
    (), (1, 11), (2,), (3,), (), (5,), (6,), (1, 2, 3, 4, 5, 6, 7), (8,), (9,), (10,), (),
    (12,), (13,),
)  # fmt: skip
STEP_BITS = tuple(sum(1 << s for s in steps) for steps in STEPS)


def lane_steps(loc: list[int], occ: list[int], colour: int) -> int:
    """Bits ``1 << n`` for every step count ``n`` that takes a marble of ``colour``
    exactly to a free home-lane square (nothing passed in the lane)."""
    prog = PROGRESS[colour]
    lane = HOME0 + colour * 4  # h<colour>.1
    bits = 0
    for m in range(colour * 4, colour * 4 + 4):
        q = loc[m]
        if q >= BASE0:
            continue
        p = prog[q]
        if p < TRACK - 13 or p >= TRACK + 3:
            continue
        for target in range(max(p + 1, TRACK), TRACK + 4):
            if occ[lane + target - TRACK] >= 0:
                break
            if target - p <= 13:
                bits |= 1 << (target - p)
    return bits


def hand_potential(
    weights: Weights, loc: list[int], occ: list[int], colour: int, cards: list[int]
) -> float:
    """What ``cards`` are worth on this board for ``colour``: each its flexibility,
    or more when it can bring a waiting marble out (one card per marble), take the
    4's shortcut from just past the start square, or drop a marble into the lane."""
    if not cards:
        return 0.0
    b = colour * 4
    in_base = 0
    shortcut = False
    prog = PROGRESS[colour]
    for m in range(b, b + 4):
        q = loc[m]
        if q >= BASE0:
            in_base += 1
        elif q < TRACK and prog[q] < 3:
            shortcut = True
    start = colour * QUARTER
    out_worth = weights.keep_out
    if occ[start] >= 0 and occ[start] >> 2 == colour:
        out_worth /= 2  # our own marble must leave the start square first
    enter = lane_steps(loc, occ, colour)
    flex, enter_worth = weights.keep_flex, weights.keep_enter
    total = 0.0
    bring = 0
    for card in cards:
        if card < 0:
            continue
        r = RANK[card]
        u = flex * FLEX[r]
        if (r == 1 or r == 13) and bring < in_base:
            bring += 1
            u = out_worth
        elif r == 4 and shortcut:
            u = weights.keep_shortcut
        elif enter & STEP_BITS[r]:
            u = max(u, enter_worth)
        total += u
    return total


def card_keep_value(
    weights: Weights, loc: list[int], occ: list[int], colour: int, card: int
) -> float:
    """How much a hand misses ``card`` if it is burnt now (higher: keep it)."""
    r = RANK[card]
    value = weights.keep_flex * FLEX[r]
    b = colour * 4
    if (r == 1 or r == 13) and any(loc[m] >= BASE0 for m in range(b, b + 4)):
        value += weights.keep_out
    if r == 4 and any(loc[m] < TRACK and PROGRESS[colour][loc[m]] < 3 for m in range(b, b + 4)):
        value += weights.keep_shortcut
    if lane_steps(loc, occ, colour) & STEP_BITS[r]:
        value += weights.keep_enter
    return value
