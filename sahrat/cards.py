"""Playing cards: codes, ranks, suits and the unshuffled deck orders.

A card is a small int so that engines can keep hands in plain lists and
compare cards cheaply. Within one 52-card deck, ``card = suit * 13 + rank``
with suits in the order ``S H D C`` and ranks ``A 2 … K``, which is exactly
the unshuffled order of ``fairness.md`` §3, so ``range(52)`` *is* that deck.
Buraco's second deck reuses the same ints (identical cards are
interchangeable) and the joker is ``JOKER`` (52).

>>> CODES[parse_card("TD")], RANK[parse_card("KC")]
('TD', 13)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sahrat.errors import MalformedInput

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER: Final = 52
JOKER_CODE = "JK"

#: ``CODES[card]`` is the two-character code of ``card``.
CODES: Final[tuple[str, ...]] = (*tuple(r + s for s in SUITS for r in RANKS), JOKER_CODE)
_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}

#: ``RANK[card]`` is 1 for an ace … 13 for a king, 0 for the joker.
RANK: Final[tuple[int, ...]] = (*tuple(r + 1 for _ in SUITS for r in range(13)), 0)
#: ``SUIT[card]`` is 0..3 for ``S H D C``, -1 for the joker.
SUIT: Final[tuple[int, ...]] = (*tuple(s for s in range(4) for _ in RANKS), -1)

JACKAROO_DECK: Final[tuple[int, ...]] = tuple(range(52))
BURACO_DECK: Final[tuple[int, ...]] = tuple(range(52)) * 2 + (JOKER,) * 4


def parse_card(code: str, *, joker: bool = False) -> int:
    """The card whose code is ``code`` (``"AS"``, ``"TD"``; ``"JK"`` when ``joker``)."""
    card = _BY_CODE.get(code)
    if card is None or (card == JOKER and not joker):
        raise MalformedInput(f"not a card code: {code!r}", code)
    return card


def parse_cards(codes: Iterable[str], *, joker: bool = False) -> list[int]:
    """Every card of ``codes``, in order."""
    return [parse_card(code, joker=joker) for code in codes]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated codes, in order."""
    return " ".join(CODES[c] for c in cards)


#: Suit signs in suit order (``S H D C``).
SUIT_SIGNS = "♠♥♦♣"


def card_label(card: int) -> str:
    """A card as players read it: ``7♥``, ``10♦``, ``★`` for the joker.

    Not 🃏: fonts without emoji, common on phones and Linux, draw it as a box.

    >>> card_label(parse_card("TD")), card_label(JOKER)
    ('10♦', '★')
    """
    if card == JOKER:
        return "★"
    rank = RANKS[RANK[card] - 1]
    return ("10" if rank == "T" else rank) + SUIT_SIGNS[SUIT[card]]
