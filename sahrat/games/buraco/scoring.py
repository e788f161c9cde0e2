"""Scoring a hand and deciding the match (``buraco.md`` §5–6).

The seed's worked example: hearts 5 to 10 and a joker make a dirty canasta.

>>> from sahrat.cards import parse_cards
>>> from sahrat.games.buraco.melds import arrange_sequence
>>> canasta = arrange_sequence(parse_cards("5H 6H 7H 8H 9H TH JK".split(), joker=True))
>>> score = score_side([canasta], [], went_out=False, took_morto=True)
>>> score.canastas_dirty, score.melded, score.bonus, score.total
(1, 95, 100, 195)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sahrat.games.buraco.melds import Meld
from sahrat.games.buraco.points import points_of

CLEAN_CANASTA = 200
DIRTY_CANASTA = 100
GOING_OUT = 100
MORTO_NOT_TAKEN = -100


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's items for one hand; ``melded`` and ``hand`` are positive points."""

    canastas_clean: int
    canastas_dirty: int
    went_out: bool
    took_morto: bool
    melded: int
    hand: int

    @property
    def bonus(self) -> int:
        """Canastas, going out and the morto item together."""
        return (
            CLEAN_CANASTA * self.canastas_clean
            + DIRTY_CANASTA * self.canastas_dirty
            + (GOING_OUT if self.went_out else 0)
            + (0 if self.took_morto else MORTO_NOT_TAKEN)
        )

    @property
    def total(self) -> int:
        return self.melded + self.bonus - self.hand

    def to_json(self) -> dict[str, int]:
        """The breakdown of ``buraco.md`` §8, keys in that order."""
        return {
            "canastas_clean": self.canastas_clean,
            "canastas_dirty": self.canastas_dirty,
            "melded": self.melded,
            "hand": self.hand,
            "bonus": self.bonus,
            "total": self.total,
        }


def score_side(
    melds: Iterable[Meld], hand: Iterable[int], *, went_out: bool, took_morto: bool
) -> SideScore:
    """Score one side from its melds and every card left in its hands.

    ``hand`` includes a morto taken by discarding but not picked up yet; an
    untaken morto's cards count nothing and are not passed.
    """
    clean = dirty = melded = 0
    for meld in melds:
        melded += meld.points
        canasta = meld.canasta
        if canasta == "clean":
            clean += 1
        elif canasta == "dirty":
            dirty += 1
    return SideScore(clean, dirty, went_out, took_morto, melded, points_of(hand))


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand: both sides' breakdowns and the running totals after it."""

    number: int
    sides: tuple[SideScore, SideScore]
    totals: tuple[int, int]
    #: The side that went out, or -1 when the stock ran out.
    went_out: int


def match_winner(totals: Sequence[int], target: int) -> int:
    """The winning side once a side has reached ``target``, else -1.

    When both sides reach it the higher total wins; equal totals play on.
    """
    first, second = totals
    if max(first, second) < target or first == second:
        return -1
    return 0 if first > second else 1
