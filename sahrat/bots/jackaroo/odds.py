"""Which cards an opponent may hold, and which cards hit a marble from where.

A seat sees its own hand and the discard pile; every other card is *unseen*,
equally likely to be in any other hand or in the stock. The chance that a
hand of ``n`` cards holds at least one card of some ranks is then
hypergeometric: ``1 - C(unseen - hits, n) / C(unseen, n)``.

>>> odds = CardOdds([0] + [4] * 13, [4, 4, 4, 4])
>>> round(odds.holds(1, KING_BIT), 3)        # a K among 4 cards from a full deck
0.281
>>> from sahrat.games.jackaroo import Options
>>> from sahrat.games.jackaroo.state import rules_for
>>> hit_masks(rules_for(Options.preset("classic")))[11] == ACE_BIT   # a plain K passes harmlessly
True
"""

from __future__ import annotations

from sahrat.cards import RANK
from sahrat.games.jackaroo.rules import PLAIN, Rules
from sahrat.games.jackaroo.state import JackarooState

# Ranks as bits, ``1 << rank``.
ACE_BIT, FOUR_BIT, FIVE_BIT, SEVEN_BIT = 1 << 1, 1 << 4, 1 << 5, 1 << 7
JACK_BIT, KING_BIT = 1 << 11, 1 << 13
BRING_OUT_BITS = ACE_BIT | KING_BIT


def _hit_masks(king_mode: int) -> list[int]:
    masks = [0] * 14
    for d in range(1, 14):
        bits = 0
        if d in (1, 11):
            bits |= ACE_BIT
        elif d not in (4, 7):
            bits |= 1 << d
        if d <= 7:
            bits |= SEVEN_BIT  # whole, or one part of a split
        if d == 13 or king_mode != PLAIN:
            bits |= KING_BIT  # a sweeping K captures what it passes
        masks[d] = bits
    return masks


_HIT_MASKS = {mode: _hit_masks(mode) for mode in range(3)}


def hit_masks(rules: Rules) -> list[int]:
    """``masks[d]``: the ranks (as bits) that hit a marble ``d`` squares ahead (d = 1..13)."""
    return _HIT_MASKS[rules.king_mode]


class CardOdds:
    """Chances that a seat holds a card of some ranks, from one seat's knowledge."""

    __slots__ = ("_cache", "sizes", "unseen", "unseen_total")

    def __init__(self, unseen: list[int], sizes: list[int]) -> None:
        #: ``unseen[rank]``: cards of that rank the deciding seat has not seen.
        self.unseen = unseen
        self.unseen_total = sum(unseen)
        #: ``sizes[seat]``: the cards that seat may choose from before our next turn.
        self.sizes = sizes
        self._cache: dict[tuple[int, int], float] = {}

    @classmethod
    def for_seat(cls, state: JackarooState, seat: int) -> CardOdds:
        """What ``seat`` knows: its hand and the discard pile; the others' hand sizes."""
        unseen = [0] + [4] * 13
        for card in state.hands[seat]:
            if card >= 0:
                unseen[RANK[card]] -= 1
        for card in state.discard:
            unseen[RANK[card]] -= 1
        return cls(unseen, [len(h) for h in state.hands])

    def with_sizes(self, sizes: list[int]) -> CardOdds:
        return CardOdds(self.unseen, sizes)

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
            miss *= max(total - hits - i, 0) / (total - i)
        return 1.0 - miss
