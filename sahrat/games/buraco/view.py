"""What one seat may see of a Buraco table.

Its own hand; how many cards every seat holds; both sides' melds; the whole
discard pile (it lies spread out); the sizes of the stock and the mortos;
the score. Nothing else: no other hand, no stock or morto card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sahrat.cards import CODES
from sahrat.games.buraco.melds import Meld
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.scoring import HandResult


@dataclass(frozen=True, slots=True)
class BuracoView:
    """One seat's view; ``to_move`` is a seat, ``CHANCE`` or ``TERMINAL``."""

    seat: int
    options: BuracoOptions
    phase: str
    to_move: int
    dealer: int
    hand_number: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    #: Bottom card first, top card last.
    discard_pile: tuple[int, ...]
    stock_size: int
    morto_sizes: tuple[int, int]
    #: Per side: ``untaken``, ``pending`` (taken by discarding, picked up next
    #: turn), ``taken`` or ``stock`` (it became the stock).
    morto_status: tuple[str, str]
    totals: tuple[int, int]
    results: tuple[HandResult, ...]
    went_out: int
    winner: int
    #: Turns in a row ended without a draw from the stock (twelve end the hand).
    idle_turns: int = 0

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready values, cards as codes."""

        def codes(cards: tuple[int, ...]) -> list[str]:
            return [CODES[card] for card in cards]

        return {
            "seat": self.seat,
            "options": self.options.to_json(),
            "phase": self.phase,
            "to_move": self.to_move,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "melds": [
                [{"cards": codes(m.cards), "kind": m.kind, "clean": m.clean} for m in side]
                for side in self.melds
            ],
            "discard_pile": codes(self.discard_pile),
            "stock_size": self.stock_size,
            "morto_sizes": list(self.morto_sizes),
            "morto_status": list(self.morto_status),
            "totals": list(self.totals),
            "results": [
                {
                    "hand": result.number,
                    "went_out": result.went_out,
                    "sides": [side.to_json() for side in result.sides],
                    "totals": list(result.totals),
                }
                for result in self.results
            ],
            "went_out": self.went_out,
            "winner": self.winner,
            "idle_turns": self.idle_turns,
        }
