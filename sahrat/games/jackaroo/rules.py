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
"""

from __future__ import annotations

from sahrat.games.jackaroo.actions import BURN, MOVE, SPLIT, SWAP
from sahrat.games.jackaroo.board import (
    AHEAD,
    BACK_DEST,
    BACK_PASSED,
    BASE0,
    BEHIND,
    DEST,
    HOME0,
    PASSED,
    QUARTER,
    TRACK,
)
from sahrat.games.jackaroo.options import Options

# King modes.
PLAIN, SWEEP, BREAKER = 0, 1, 2
_KING_MODES = {"plain": PLAIN, "sweep": SWEEP, "breaker": BREAKER}

ACE, FOUR, FIVE, SEVEN, TEN, JACK, KING = 1, 4, 5, 7, 10, 11, 13

#: Forward step counts of each rank that moves forward (the 4 goes back, the J swaps).
FORWARD_STEPS: dict[int, tuple[int, ...]] = {
    1: (1, 11), 2: (2,), 3: (3,), 5: (5,), 6: (6,), 7: (7,), 8: (8,), 9: (9,),
    10: (10,), 12: (12,), 13: (13,),
}  # fmt: skip

#: A move before its card is known: ``(kind, a, b, c, d)``.
Effect = tuple[int, int, int, int, int]


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
        self, occ: list[int], colour: int, frm: int, steps: int, king: int, caps: list[int] | None
    ) -> int:
        """Destination of a lifted marble of ``colour`` moving ``steps`` from ``frm``, or -1.

        ``king`` is the K's mode (``PLAIN`` for every other card). When ``caps`` is
        a list, the captured marbles are appended to it.
        """
        dest = DEST[colour][frm][steps]
        if dest < 0:
            return -1
        pass_own = self.pass_own
        for q in PASSED[colour][frm][steps]:  # type: ignore[union-attr]
            o = occ[q]
            if o < 0:
                continue
            if q >= HOME0:
                return -1  # nothing in a home lane is ever passed
            if o >> 2 == colour and not pass_own:
                return -1
            if king == BREAKER:
                if self._stops_breaker(occ, q):
                    return -1
            elif self.protected(occ, q):
                return -1
            if king and caps is not None:
                caps.append(o)
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

    def effects(
        self, loc: list[int], occ: list[int], seat: int, rank: int, can_burn: bool
    ) -> list[Effect]:
        """Every legal effect of a card of ``rank`` for ``seat`` (without the card)."""
        out: list[Effect] = []
        colour = self.controlled(loc, seat)
        first = colour * 4
        if rank == JACK:
            self._swaps(loc, occ, colour, out)
            return out
        if rank in (ACE, KING):
            start = colour * QUARTER
            base = BASE0 + colour
            occupant = occ[start]
            if (occupant < 0 or occupant >> 2 != colour) and base in loc[first : first + 4]:
                out.append((MOVE, base, start, -1, -1))
        if rank == FOUR:
            for m in range(first, first + 4):
                frm = loc[m]
                if frm < TRACK:
                    occ[frm] = -1
                    dest = self.backward(occ, colour, frm, None)
                    occ[frm] = m
                    if dest >= 0:
                        out.append((MOVE, frm, dest, -1, -1))
            return out
        if rank == TEN and can_burn and self.ten_burns:
            out.append((BURN, -1, -1, -1, -1))
        king = self.king_mode if rank == KING else PLAIN
        steps_list = FORWARD_STEPS[rank]
        for m in range(first, first + 4):
            frm = loc[m]
            if frm >= BASE0:
                continue
            occ[frm] = -1
            for steps in steps_list:
                dest = self.forward(occ, colour, frm, steps, king, None)
                if dest >= 0:
                    out.append((MOVE, frm, dest, -1, -1))
            occ[frm] = m
        if rank == FIVE and self.five_any:
            self._other_fives(loc, occ, colour, out)
        elif rank == SEVEN:
            self._splits(loc, occ, seat, colour, out)
        return out

    def _other_fives(self, loc: list[int], occ: list[int], colour: int, out: list[Effect]) -> None:
        """A 5 on a marble of another colour, along its owner's path (§3.7)."""
        for frm in range(TRACK):
            m = occ[frm]
            if m < 0 or m >> 2 == colour or self.protected(occ, frm):
                continue
            occ[frm] = -1
            dest = self.forward(occ, m >> 2, frm, 5, PLAIN, None)
            occ[frm] = m
            if dest >= 0:
                out.append((MOVE, frm, dest, -1, -1))

    def _swaps(self, loc: list[int], occ: list[int], colour: int, out: list[Effect]) -> None:
        """J swaps: nothing is lifted, both marbles on the track and unprotected (§3.5)."""
        others = [
            q
            for q in range(TRACK)
            if occ[q] >= 0 and occ[q] >> 2 != colour and not self.protected(occ, q)
        ]
        if not others:
            return
        for m in range(colour * 4, colour * 4 + 4):
            frm = loc[m]
            if frm < TRACK and not self.protected(occ, frm):
                for q in others:
                    out.append((SWAP, frm, q, -1, -1))

    def _splits(
        self, loc: list[int], occ: list[int], seat: int, colour: int, out: list[Effect]
    ) -> None:
        """Split 7s: the first part is played in full, then control is re-evaluated (§2)."""
        caps: list[int] = []
        for m1 in range(colour * 4, colour * 4 + 4):
            frm1 = loc[m1]
            if frm1 >= BASE0:
                continue
            for a in range(1, 7):
                occ[frm1] = -1
                del caps[:]
                dest1 = self.forward(occ, colour, frm1, a, PLAIN, caps)
                if dest1 < 0:
                    occ[frm1] = m1
                    continue
                # Play the first part, captures included.
                for victim in caps:
                    loc[victim] = BASE0 + (victim >> 2)
                occ[dest1] = m1
                loc[m1] = dest1
                colour2 = self.controlled(loc, seat)
                b = 7 - a
                for m2 in range(colour2 * 4, colour2 * 4 + 4):
                    frm2 = loc[m2]
                    if m2 == m1 or frm2 >= BASE0:
                        continue
                    occ[frm2] = -1
                    dest2 = self.forward(occ, colour2, frm2, b, PLAIN, None)
                    occ[frm2] = m2
                    if dest2 >= 0:
                        out.append((SPLIT, frm1, dest1, frm2, dest2))
                # Take it back.
                loc[m1] = frm1
                occ[dest1] = -1
                occ[frm1] = m1
                for victim in caps:
                    loc[victim] = dest1
                    occ[dest1] = victim

    # -- effects --------------------------------------------------------------------

    def move_marble(self, loc: list[int], occ: list[int], frm: int, to: int, rank: int) -> None:
        """Play one legal ``frm``-``to`` move of a card of ``rank``, captures included."""
        if frm >= BASE0:
            colour = frm - BASE0
            marble = loc.index(frm, colour * 4, colour * 4 + 4)
            occupant = occ[to]
            if occupant >= 0:
                self._capture(loc, occ, occupant)
        else:
            marble = occ[frm]
            colour = marble >> 2
            occ[frm] = -1
            caps: list[int] = []
            if rank == FOUR:
                self.backward(occ, colour, frm, caps)
            else:
                steps = _steps(colour, frm, to)
                king = self.king_mode if rank == KING else PLAIN
                self.forward(occ, colour, frm, steps, king, caps)
            for victim in caps:
                self._capture(loc, occ, victim)
        loc[marble] = to
        occ[to] = marble

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


def _steps(colour: int, frm: int, to: int) -> int:
    """Forward steps from ``frm`` to ``to`` for a marble of ``colour`` (both on its path)."""

    def prog(q: int) -> int:
        return (q - QUARTER * colour) % TRACK if q < TRACK else TRACK + (q - HOME0) % 4

    return prog(to) - prog(frm)
