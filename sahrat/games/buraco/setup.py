"""A setup builder: a Buraco table laid out card by card, for puzzles, tutorials and
rule tests.

A real hand starts from a shuffle; :func:`from_table` instead places the
cards where they are wanted and puts every card not mentioned into the
mortos (if untaken) and the stock, so the 108 cards are always there.

>>> from sahrat.games.buraco import BuracoOptions
>>> state = from_table(
...     BuracoOptions(seats=2),
...     hands=["5C 6C 7C 9D", "KS KH"],
...     melds=[["8H 9H TH"], []],
...     discard_pile="4S",
...     phase="play",
... )
>>> [str(a) for a in state.legal_actions()][:3]
['meld 5C 6C 7C', 'discard 9D', 'discard 5C']
>>> state.stock_size, state.view(1).morto_sizes
(76, (11, 11))
"""

from __future__ import annotations

from collections.abc import Sequence

from sahrat.cards import BURACO_DECK, JOKER, parse_cards
from sahrat.errors import MalformedInput
from sahrat.games.buraco.deal import MORTO_SIZE
from sahrat.games.buraco.melds import Meld, arrange
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import MORTO_NAMES, PENDING, PLAY, UNTAKEN, hand_counts

#: Cards written as a string of codes (``"5C 6C JK"``) or as card ints.
Cards = str | Sequence[int]


def cards_of(cards: Cards) -> list[int]:
    """The card ints of ``cards``."""
    if isinstance(cards, str):
        return parse_cards(cards.split(), joker=True)
    for card in cards:
        if type(card) is not int or not 0 <= card <= JOKER:
            raise MalformedInput(f"not a card: {card!r}", card)
    return list(cards)


def from_table(
    options: BuracoOptions | None = None,
    *,
    hands: Sequence[Cards],
    to_move: int = 0,
    phase: str = "draw",
    melds: Sequence[Sequence[Cards]] = ((), ()),
    discard_pile: Cards = (),
    stock: Cards = (),
    rest: str = "stock",
    mortos: Sequence[Cards | None] = (None, None),
    morto_status: Sequence[str] = ("untaken", "untaken"),
    dealer: int | None = None,
    totals: tuple[int, int] = (0, 0),
) -> BuracoState:
    """A state in the ``draw`` or ``play`` phase of ``to_move``'s turn, in the first hand.

    ``discard_pile`` is bottom card first; ``stock`` and ``mortos`` top card
    first. An untaken morto given as ``None`` gets eleven of the cards not
    placed elsewhere; all the others go under the stock (``rest="stock"``)
    or under the discard pile (``rest="pile"``). Morto statuses are
    ``untaken``, ``taken`` or ``stock`` (a taken or stock morto is empty).
    Beginning in the ``draw`` phase runs the start of the turn, so an empty
    stock is handled at once as in play.
    """
    options = options or BuracoOptions()
    players = options.seats
    if len(hands) != players:
        raise MalformedInput(f"{players} hands expected, got {len(hands)}", hands)
    if not 0 <= to_move < players:
        raise MalformedInput(f"no seat {to_move} at a table of {players}", to_move)
    if phase not in ("draw", "play"):
        raise MalformedInput(f"a table starts in the draw or play phase, not {phase!r}", phase)
    if rest not in ("stock", "pile"):
        raise MalformedInput(f"the other cards go to the stock or the pile, not {rest!r}", rest)
    if len(melds) != 2 or len(mortos) != 2 or len(morto_status) != 2:
        raise MalformedInput("melds, mortos and morto statuses are given per side (two)", melds)
    statuses = []
    for name in morto_status:
        if name not in MORTO_NAMES or MORTO_NAMES.index(name) == PENDING:
            raise MalformedInput(f"a morto is untaken, taken or stock, not {name!r}", name)
        statuses.append(MORTO_NAMES.index(name))

    unplaced = list(BURACO_DECK)

    def place(cards: Cards) -> list[int]:
        ints = cards_of(cards)
        for card in ints:
            try:
                unplaced.remove(card)
            except ValueError:
                raise MalformedInput(f"more cards than the deck holds: {cards!r}", cards) from None
        return ints

    hand_cards = [place(hand) for hand in hands]
    side_melds: list[list[Meld]] = []
    for side_cards in melds:
        side: list[Meld] = []
        for meld_cards in side_cards:
            meld = arrange(place(meld_cards), sets=options.sets)
            if meld is None:
                raise MalformedInput(f"not a valid meld: {meld_cards!r}", meld_cards)
            side.append(meld)
        side_melds.append(side)
    pile = place(discard_pile)
    stock_cards = place(stock)
    morto_cards: list[list[int]] = []
    for status, morto in zip(statuses, mortos, strict=True):
        if status != UNTAKEN:
            if morto:
                raise MalformedInput("a taken morto or one that became the stock is empty", morto)
            morto_cards.append([])
        elif morto is None:
            morto_cards.append(unplaced[-MORTO_SIZE:])
            del unplaced[-MORTO_SIZE:]
        else:
            morto_cards.append(place(morto))
    if rest == "stock":
        stock_cards += unplaced
    else:
        pile[:0] = unplaced

    state = BuracoState(options)
    state.hand_number = 1
    state.dealer = (to_move - 1) % players if dealer is None else dealer
    state.totals = list(totals)
    state.hands = [hand_counts(cards) for cards in hand_cards]
    state.sizes = [len(cards) for cards in hand_cards]
    state.melds = side_melds
    state.pile = pile
    state.stock = stock_cards[::-1]
    state.mortos = morto_cards
    state.morto_status = statuses
    if phase == "draw":
        state._begin_turn(to_move)
    else:
        state.to_move = to_move
        state.phase = PLAY
    return state
