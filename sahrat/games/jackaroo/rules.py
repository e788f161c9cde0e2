"""Move generation and move effects on the board (``jackaroo.md`` §1–4).

The board is two lists shared with :class:`~sahrat.games.jackaroo.state.JackarooState`:

* ``loc[m]``: the square of marble ``m`` (``m // 4`` is its colour, i.e. its
  owner's seat); a marble in its base is on ``92 + colour``;
* ``occ[q]``: the marble on square ``q`` (track and home lanes), or ``-1``.

Everything here is written for speed, since bots and benchmarks call it
millions of times: option flags are plain attributes, paths come from the
tables of :mod:`~sahrat.games.jackaroo.board`, and a marble is *lifted*
(its square emptied) while its moves are checked, which is both what the
rules say (§3) and what lets protection be judged without special cases.

Over 500 lines, because the move generator is one class on purpose: its loops
share the option flags and path tables as attributes and locals, and bots and
benchmarks call it millions of times (``sahrat bench jackaroo``).
"""

from __future__ import annotations

from typing import Final

from sahrat.cards import RANK
from sahrat.games.jackaroo.actions import (
    BURN,
    DISCARD,
    DISCARD_ALL,
    MOVE,
    NO_CARD,
    SPLIT,
    SWAP,
    Move,
)
from sahrat.games.jackaroo.board import (
    AHEAD,
    BACK_DEST,
    BACK_PASSED,
    BASE0,
    BEHIND,
    DEST,
    HOME0,
    PASS_MASK,
    PASSED,
    PATH_MASK,
    PROGRESS,
    QUARTER,
    SQUARES,
    TRACK,
)
from sahrat.games.jackaroo.options import Options

# King modes.
PLAIN: Final = 0
SWEEP: Final = 1
BREAKER: Final = 2
_KING_MODES = {"plain": PLAIN, "sweep": SWEEP, "breaker": BREAKER}

ACE: Final = 1
FOUR: Final = 4
FIVE: Final = 5
SEVEN: Final = 7
TEN: Final = 10
JACK: Final = 11
KING: Final = 13

#: ``FORWARD_STEPS[rank]``: the forward step counts of a rank (none for the 4, which goes
#: back, and the J, which swaps).
FORWARD_STEPS: Final[tuple[tuple[int, ...], ...]] = (
    (), (1, 11), (2,), (3,), (), (5,), (6,), (7,), (8,), (9,), (10,), (), (12,), (13,),
)  # fmt: skip

_new: Final = tuple.__new__

#: ``_PAIRS[(kind * SQUARES + a) * SQUARES + b]``: the moves of kind MOVE (``a``-``b``) and
#: SWAP (``a``~``b``) met so far, by card. A Move is an immutable value, so the generator
#: hands out one object per move instead of building the same tuple again in every
#: position where it is legal: building one (a call of ``tuple.__new__`` and two tuples)
#: was the dearest step of a list.
_PAIRS: Final[list[list[Move | None] | None]] = [None] * ((SWAP + 1) * SQUARES * SQUARES)

#: ``BURNS[card]``: the T's burn; ``DISCARDS[card]``: burning ``card`` from a stuck hand;
#: ``DISCARD_HAND``: burning the whole of one (``stuck_hand = burn-all``).
BURNS: Final[tuple[Move, ...]] = tuple(Move(card, BURN) for card in range(len(RANK)))
DISCARDS: Final[tuple[Move, ...]] = tuple(Move(card, DISCARD) for card in range(len(RANK)))
DISCARD_HAND: Final = Move(NO_CARD, DISCARD_ALL)


class Rules:
    """The rules of one set of :class:`Options`, applied to ``loc``/``occ`` lists."""

    __slots__ = (
        "barrier",
        "burn_all",
        "five_any",
        "king_mode",
        "next_seat",
        "options",
        "order",
        "partner",
        "pass_own",
        "start_any",
        "ten_burns",
    )

    def __init__(self, options: Options) -> None:
        self.options = options
        self.pass_own = options.pass_own
        self.barrier = options.barrier
        self.start_any = options.start_guard == "any"
        self.king_mode = _KING_MODES[options.king]
        self.five_any = options.five == "any"
        self.ten_burns = options.ten == "move-or-burn"
        self.burn_all = options.stuck_hand == "burn-all"
        #: Seats in play order; two-seat tables use seats 0 and 2.
        self.order: tuple[int, ...] = (0, 1, 2, 3) if options.seats == 4 else (0, 2)
        self.next_seat = [-1] * 4
        for i, seat in enumerate(self.order):
            self.next_seat[seat] = self.order[(i + 1) % len(self.order)]
        self.partner = [(s + 2) % 4 if options.seats == 4 else -1 for s in range(4)]

    # -- protection -----------------------------------------------------------------

    def protected(self, occ: list[int], q: int) -> bool:
        """Whether the marble on track square ``q`` is protected (§3.4)."""
        if q % QUARTER == 0 and (self.start_any or occ[q] >> 2 == q // QUARTER):
            return True
        return self.barrier and occ[BEHIND[q]] >= 0

    def _stops_breaker(self, occ: list[int], q: int) -> bool:
        """Whether a breaker K must stop at the marble on ``q``: only a start-square guard
        with both neighbouring squares empty holds it (barriers do not)."""
        if q % QUARTER == 0 and (self.start_any or occ[q] >> 2 == q // QUARTER):
            return occ[BEHIND[q]] < 0 and occ[AHEAD[q]] < 0
        return False

    # -- single moves ---------------------------------------------------------------

    def forward(
        self,
        occ: list[int],
        colour: int,
        frm: int,
        steps: int,
        king: int,
        caps: list[int] | None,
        mask: int = -1,
    ) -> int:
        """Destination of a lifted marble of ``colour`` moving ``steps`` from ``frm``, or -1.

        ``king`` is the K's mode (``PLAIN`` for every other card). When ``caps`` is
        a list, the captured marbles are appended to it. ``mask``, when given, has
        a bit set for every occupied square: most moves pass nobody, and one AND
        tells so without walking the path.
        """
        dest = DEST[colour][frm][steps]
        if dest < 0:
            return -1
        if mask & PASS_MASK[colour][frm][steps] and not self._may_pass(
            occ, colour, frm, steps, king, caps
        ):
            return -1
        o = occ[dest]
        if o >= 0:
            if dest >= HOME0 or o >> 2 == colour:
                return -1
            if king == BREAKER:
                if self._stops_breaker(occ, dest):
                    return -1
            elif self.protected(occ, dest):
                return -1
            if caps is not None:
                caps.append(o)
        return dest

    def _may_pass(
        self, occ: list[int], colour: int, frm: int, steps: int, king: int, caps: list[int] | None
    ) -> bool:
        """Whether every marble passed on the way may be passed (swept by a K into ``caps``)."""
        pass_own = self.pass_own
        for q in PASSED[colour][frm][steps]:  # type: ignore[union-attr]
            o = occ[q]
            if o < 0:
                continue
            if q >= HOME0:
                return False  # nothing in a home lane is ever passed
            if o >> 2 == colour and not pass_own:
                return False
            if king == BREAKER:
                if self._stops_breaker(occ, q):
                    return False
            elif self.protected(occ, q):
                return False
            if king and caps is not None:
                caps.append(o)
        return True

    def backward(self, occ: list[int], colour: int, frm: int, caps: list[int] | None) -> int:
        """Destination of a lifted marble moving 4 back on the track, or -1."""
        pass_own = self.pass_own
        for q in BACK_PASSED[frm]:
            o = occ[q]
            if o >= 0 and ((o >> 2 == colour and not pass_own) or self.protected(occ, q)):
                return -1
        dest = BACK_DEST[frm]
        o = occ[dest]
        if o >= 0:
            if o >> 2 == colour or self.protected(occ, dest):
                return -1
            if caps is not None:
                caps.append(o)
        return dest

    # -- control --------------------------------------------------------------------

    def controlled(self, loc: list[int], seat: int) -> int:
        """The colour ``seat`` moves: its own, or its partner's once its four are home."""
        partner = self.partner[seat]
        if partner < 0:
            return seat
        base = seat * 4
        for m in range(base, base + 4):
            q = loc[m]
            if q < HOME0 or q >= BASE0:
                return seat
        return partner

    # -- generation -----------------------------------------------------------------

    @staticmethod
    def pair(card: int, kind: int, a: int, b: int) -> Move:
        """The move of ``card`` of ``kind`` MOVE (one marble from ``a`` to ``b``) or SWAP."""
        key = (kind * SQUARES + a) * SQUARES + b
        row = _PAIRS[key]
        if row is None:
            row = _PAIRS[key] = [None] * len(RANK)
        move = row[card]
        if move is None:
            move = row[card] = _new(Move, (card, kind, a, b, -1, -1))
        return move

    def again(self, card: int, move: Move) -> Move:
        """``move`` played with ``card`` instead (a card of the same rank)."""
        kind = move[1]
        if kind == MOVE or kind == SWAP:
            return self.pair(card, kind, move[2], move[3])
        if kind == BURN:
            return BURNS[card]
        return _new(Move, (card, kind, move[2], move[3], move[4], move[5]))

    def moves(
        self,
        hand: list[int],
        loc: list[int],
        occ: list[int],
        mask: int,
        seat: int,
        can_burn: bool,
    ) -> list[Move]:
        """Every legal move of the cards in ``hand`` for ``seat`` (not counting the burns
        of a stuck hand). ``mask`` has the bit of every occupied square; ``can_burn``
        says whether the next seat holds cards, for the T."""
        out: list[Move] = []
        first = seat * 4
        colour = seat
        # Control passes to the partner once all four are home (checked cheaply: almost
        # always the first marble already says no).
        if HOME0 <= loc[first] < BASE0 and self.partner[seat] >= 0:
            colour = self.controlled(loc, seat)
            first = colour * 4
        # The squares of the marbles on the track or in the home lane (``occ`` says which
        # marble), and whether one waits in the base.
        squares = [q for q in loc[first : first + 4] if q < BASE0]
        out_of_base = len(squares)
        start = colour * QUARTER
        occupant = occ[start]
        can_enter = out_of_base < 4 and (occupant < 0 or occupant >> 2 != colour)
        dest_rows = DEST[colour]
        mask_rows = PASS_MASK[colour]
        others: list[tuple[int, int]] | None = None
        # Where each rank's moves are in ``out`` once listed (begin at ``rank``, end at
        # ``rank + 14``): two cards of one rank have the same moves.
        spans = [-1] * 28
        for card in hand:
            if card < 0:
                continue
            rank = RANK[card]
            begin = spans[rank]
            if begin >= 0:
                for move in out[begin : spans[rank + 14]]:
                    out.append(self.again(card, move))
                continue
            begin = len(out)
            if rank == JACK:
                if out_of_base:
                    if others is None:
                        others = self.exposed(loc, occ, colour)
                    self._swaps(card, loc, occ, first, others, out)
            elif rank == FOUR:
                for frm in squares:
                    if frm < TRACK:
                        m = occ[frm]
                        occ[frm] = -1
                        dest = self.backward(occ, colour, frm, None)
                        occ[frm] = m
                        if dest >= 0:
                            out.append(self.pair(card, MOVE, frm, dest))
            else:
                if can_enter and (rank == ACE or rank == KING):
                    out.append(self.pair(card, MOVE, BASE0 + colour, start))
                if rank == TEN and can_burn and self.ten_burns:
                    out.append(BURNS[card])
                king = self.king_mode if rank == KING else PLAIN
                for frm in squares:
                    dests = dest_rows[frm]
                    masks = mask_rows[frm]
                    for steps in FORWARD_STEPS[rank]:
                        dest = dests[steps]
                        if dest < 0:
                            continue
                        # Fast path: nobody passed and an empty destination is always legal.
                        if mask & masks[steps] or occ[dest] >= 0:
                            m = occ[frm]
                            occ[frm] = -1
                            dest = self.forward(occ, colour, frm, steps, king, None, mask)
                            occ[frm] = m
                            if dest < 0:
                                continue
                        # pair(), inlined for the moves met before (nearly all of them).
                        row = _PAIRS[frm * SQUARES + dest]
                        known = None if row is None else row[card]
                        out.append(self.pair(card, MOVE, frm, dest) if known is None else known)
                if rank == FIVE:
                    if self.five_any:
                        if others is None:
                            others = self.exposed(loc, occ, colour)
                        self._other_fives(card, occ, others, mask, out)
                elif rank == SEVEN and out_of_base > 1:
                    # One marble cannot split, even when its last step hands control over:
                    # the partner's marbles move only once all of ours are home.
                    self._splits(card, loc, occ, seat, colour, mask, out)
            spans[rank] = begin
            spans[rank + 14] = len(out)
        return out

    def exposed(self, loc: list[int], occ: list[int], colour: int) -> list[tuple[int, int]]:
        """``(marble, square)`` of every unprotected marble of another colour on the track:
        what a J may swap with and a 5 (``five = any``) may move."""
        out = []
        start_any, barrier = self.start_any, self.barrier
        for m, q in enumerate(loc):
            if q >= TRACK or m >> 2 == colour:
                continue
            # protected(), inlined: this runs for every J and 5 in every hand.
            if q % QUARTER == 0 and (start_any or m >> 2 == q // QUARTER):
                continue
            if barrier and occ[BEHIND[q]] >= 0:
                continue
            out.append((m, q))
        return out

    def _other_fives(
        self, card: int, occ: list[int], others: list[tuple[int, int]], mask: int, out: list[Move]
    ) -> None:
        """A 5 on a marble of another colour, along its owner's path (§3.7)."""
        for m, frm in others:
            colour = m >> 2
            dest = DEST[colour][frm][5]
            if dest < 0:
                continue
            if mask & PASS_MASK[colour][frm][5] or occ[dest] >= 0:
                occ[frm] = -1
                dest = self.forward(occ, colour, frm, 5, PLAIN, None, mask)
                occ[frm] = m
                if dest < 0:
                    continue
            out.append(self.pair(card, MOVE, frm, dest))

    def _swaps(
        self,
        card: int,
        loc: list[int],
        occ: list[int],
        first: int,
        others: list[tuple[int, int]],
        out: list[Move],
    ) -> None:
        """J swaps: nothing is lifted, both marbles on the track and unprotected (§3.5)."""
        for m in range(first, first + 4):
            frm = loc[m]
            if frm < TRACK and not self.protected(occ, frm):
                for _, q in others:
                    out.append(self.pair(card, SWAP, frm, q))

    def _splits(
        self,
        card: int,
        loc: list[int],
        occ: list[int],
        seat: int,
        colour: int,
        mask: int,
        out: list[Move],
    ) -> None:
        """Split 7s: the first part is played in full, then control is re-evaluated (§2).

        Each marble's moves of 1..6 are computed once on the board as it stands; the
        second part is recomputed on the board after the first only when the first
        part's squares lie on its path (or when the first part hands control to the
        partner), since nothing else can change its legality.
        """
        movable = [(m, loc[m]) for m in range(colour * 4, colour * 4 + 4) if loc[m] < BASE0]
        singles: list[list[int]] = []
        for m, frm in movable:
            dests = DEST[colour][frm]
            masks = PASS_MASK[colour][frm]
            row = [-1] * 7
            for a in range(1, 7):
                dest = dests[a]
                if dest >= 0 and (mask & masks[a] or occ[dest] >= 0):
                    occ[frm] = -1
                    dest = self.forward(occ, colour, frm, a, PLAIN, None, mask)
                    occ[frm] = m
                row[a] = dest
            singles.append(row)
        may_hand_over = colour == seat and self.partner[seat] >= 0
        path_rows = PATH_MASK[colour]
        for i, (m1, frm1) in enumerate(movable):
            row1 = singles[i]
            for a in range(1, 7):
                dest1 = row1[a]
                if dest1 < 0:
                    continue
                b = 7 - a
                if may_hand_over and dest1 >= HOME0 and self._last_one_out(loc, m1):
                    self._second_parts(card, loc, occ, m1, frm1, dest1, self.partner[seat], b, out)
                    continue
                touched = (1 << frm1) | (1 << dest1)
                for j, (m2, frm2) in enumerate(movable):
                    if j == i:
                        continue
                    if path_rows[frm2][b] & touched:
                        dest2 = self._after_first(loc, occ, m1, frm1, dest1, m2, frm2, b)
                    else:
                        dest2 = singles[j][b]
                    if dest2 >= 0:
                        out.append(_new(Move, (card, SPLIT, frm1, dest1, frm2, dest2)))

    @staticmethod
    def _last_one_out(loc: list[int], m1: int) -> bool:
        """Whether every marble of ``m1``'s colour but ``m1`` is in its home lane."""
        first = m1 & ~3
        return all(HOME0 <= loc[m] < BASE0 for m in range(first, first + 4) if m != m1)

    def _play_first(self, loc: list[int], occ: list[int], m1: int, frm1: int, dest1: int) -> int:
        """Play a split's first part (a plain move); returns the captured marble or -1."""
        victim = occ[dest1]
        if victim >= 0:
            loc[victim] = BASE0 + (victim >> 2)
        occ[frm1] = -1
        occ[dest1] = m1
        loc[m1] = dest1
        return victim

    @staticmethod
    def _undo_first(
        loc: list[int], occ: list[int], m1: int, frm1: int, dest1: int, victim: int
    ) -> None:
        loc[m1] = frm1
        occ[frm1] = m1
        occ[dest1] = victim
        if victim >= 0:
            loc[victim] = dest1

    def _after_first(
        self,
        loc: list[int],
        occ: list[int],
        m1: int,
        frm1: int,
        dest1: int,
        m2: int,
        frm2: int,
        b: int,
    ) -> int:
        """Destination of ``m2`` moving ``b`` once the first part has been played, or -1."""
        victim = self._play_first(loc, occ, m1, frm1, dest1)
        occ[frm2] = -1
        dest2 = self.forward(occ, m2 >> 2, frm2, b, PLAIN, None)
        occ[frm2] = m2
        self._undo_first(loc, occ, m1, frm1, dest1, victim)
        return dest2

    def _second_parts(
        self,
        card: int,
        loc: list[int],
        occ: list[int],
        m1: int,
        frm1: int,
        dest1: int,
        colour2: int,
        b: int,
        out: list[Move],
    ) -> None:
        """Second parts with the partner's marbles, the first part having finished ours."""
        victim = self._play_first(loc, occ, m1, frm1, dest1)
        for m2 in range(colour2 * 4, colour2 * 4 + 4):
            frm2 = loc[m2]
            if frm2 >= BASE0:
                continue
            occ[frm2] = -1
            dest2 = self.forward(occ, colour2, frm2, b, PLAIN, None)
            occ[frm2] = m2
            if dest2 >= 0:
                out.append(_new(Move, (card, SPLIT, frm1, dest1, frm2, dest2)))
        self._undo_first(loc, occ, m1, frm1, dest1, victim)

    # -- effects --------------------------------------------------------------------

    def move_marble(self, loc: list[int], occ: list[int], frm: int, to: int, rank: int) -> int:
        """Play one legal ``frm``-``to`` move of a card of ``rank``, captures included.

        Returns the bits of the squares a sweeping K emptied on its way (0 otherwise),
        so that the caller can keep its occupancy mask without recomputing it.
        """
        vacated = 0
        if frm >= BASE0:
            colour = frm - BASE0
            marble = loc.index(frm, colour * 4, colour * 4 + 4)
            occupant = occ[to]
            if occupant >= 0:
                self._capture(loc, occ, occupant)
        else:
            marble = occ[frm]
            occ[frm] = -1
            if rank == KING and self.king_mode != PLAIN:
                # A sweeping K also captures what it passes.
                colour = marble >> 2
                caps: list[int] = []
                steps = PROGRESS[colour][to] - PROGRESS[colour][frm]
                self.forward(occ, colour, frm, steps, self.king_mode, caps)
                for victim in caps:
                    vacated |= 1 << loc[victim]
                    self._capture(loc, occ, victim)
            else:
                occupant = occ[to]
                if occupant >= 0:
                    self._capture(loc, occ, occupant)
        loc[marble] = to
        occ[to] = marble
        return vacated & ~(1 << to)

    def swap(self, loc: list[int], occ: list[int], a: int, b: int) -> None:
        ma, mb = occ[a], occ[b]
        occ[a], occ[b] = mb, ma
        loc[ma], loc[mb] = b, a

    @staticmethod
    def _capture(loc: list[int], occ: list[int], marble: int) -> None:
        occ[loc[marble]] = -1
        loc[marble] = BASE0 + (marble >> 2)

    def winner(self, loc: list[int]) -> int:
        """The seat whose side has every marble home (the lower seat of a team), or -1."""
        for seat in self.order[:2] if self.partner[0] >= 0 else self.order:
            team = (seat, self.partner[seat]) if self.partner[seat] >= 0 else (seat,)
            if all(HOME0 <= loc[m] < BASE0 for s in team for m in range(s * 4, s * 4 + 4)):
                return seat
        return -1
