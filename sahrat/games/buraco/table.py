"""The table of a Buraco match: where every card lies, and the checks a move must pass.

:class:`BuracoTable` holds a match's cards (hands as counts per card, melds,
the discard pile, the stock, the mortos), its totals and its hands played,
reads them, and makes the checks shared by applying an action
(:mod:`~sahrat.games.buraco.state`) and by listing the legal ones
(:mod:`~sahrat.games.buraco.moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Self

from sahrat.cards import BURACO_DECK, JOKER
from sahrat.errors import IllegalMove, MalformedInput, Reason
from sahrat.game import GameState
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import CANASTA, Meld, addable_cards, arrange, extend, meld_fault
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.scoring import HandResult, SideScore, score_side

# Phases.
CHOOSE_DEALER: Final = 0
SHUFFLE: Final = 1
DRAW: Final = 2
PLAY: Final = 3
OVER: Final = 4
PHASE_NAMES = ("dealer", "shuffle", "draw", "play", "over")

# What became of a side's morto.
UNTAKEN: Final = 0
PENDING: Final = 1
TAKEN: Final = 2
STOCK: Final = 3
MORTO_NAMES = ("untaken", "pending", "taken", "stock")

#: Turns in a row without a draw from the stock that end a hand (``buraco.md`` §4,
#: "No endless hands"): otherwise taking the pile and throwing a card back could go on
#: for ever once the stock is a morto nobody wants to draw from.
IDLE_TURNS_LIMIT: Final = 12

CARD_KINDS: Final = JOKER + 1
SORTED_DECK: Final = tuple(sorted(BURACO_DECK))


def hand_counts(cards: Sequence[int]) -> list[int]:
    """A hand as the engine keeps it: how many of each card."""
    counts = [0] * CARD_KINDS
    for card in cards:
        counts[card] += 1
    return counts


def counts_to_cards(counts: Sequence[int]) -> list[int]:
    return [card for card in range(CARD_KINDS) for _ in range(counts[card])]


class BuracoTable(GameState):
    """Where every card of a match lies, the totals and the hands played; the checks a
    move must pass (a base of :class:`~sahrat.games.buraco.state.BuracoState`).

    The game state's interface is this base's rather than the state's own, because
    a compiled class has at most one compiled base.
    """

    __slots__ = (
        "_legal",
        "dealer",
        "hand_number",
        "hands",
        "idle_turns",
        "melds",
        "morto_holder",
        "morto_status",
        "mortos",
        "options",
        "phase",
        "pile",
        "players",
        "results",
        "sizes",
        "stock",
        "to_move",
        "totals",
        "turns",
        "went_out",
        "winner",
    )

    options: BuracoOptions
    players: int
    phase: int
    dealer: int
    hand_number: int
    to_move: int
    totals: list[int]
    results: list[HandResult]
    winner: int
    #: ``hands[seat][card]``: how many of ``card`` the seat holds.
    hands: list[list[int]]
    sizes: list[int]
    #: ``melds[side]``, in the order they were laid down.
    melds: list[list[Meld]]
    #: The discard pile, **top card last**.
    pile: list[int]
    #: The stock, **top card last** (so drawing is ``pop()``).
    stock: list[int]
    #: ``mortos[side]`` while untaken or pending, else empty.
    mortos: list[list[int]]
    morto_status: list[int]
    #: The seat that will pick up a pending morto, else -1.
    morto_holder: list[int]
    went_out: int
    #: Turns begun in the match (a turn's clock starts with each).
    turns: int
    #: Turns in a row that ended without a draw from the stock, this hand; -1 during a
    #: turn that drew (it ends at 0). At :data:`IDLE_TURNS_LIMIT` the hand ends.
    idle_turns: int
    _legal: tuple[BuracoAction, ...] | None

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # Defined so that clone() and unpickling can make a blank table without __init__:
        # a compiled class refuses object.__new__ from outside, and its construction
        # runs __init__ unless the class has a __new__ of its own.
        return object.__new__(cls)

    def __init__(
        self,
        options: BuracoOptions | None = None,
        *,
        totals: tuple[int, int] = (0, 0),
        dealer: int | None = None,
    ) -> None:
        """A match about to start: the first chance step draws the dealer.

        ``totals`` and ``dealer`` resume a match: with a dealer the first step
        is that dealer's shuffle.
        """
        self.options = options = options or BuracoOptions()
        self.players = players = options.seats
        if dealer is not None and not 0 <= dealer < players:
            raise MalformedInput(f"no seat {dealer} at a table of {players}", dealer)
        self.phase = CHOOSE_DEALER if dealer is None else SHUFFLE
        self.dealer = -1 if dealer is None else dealer
        self.hand_number = 0
        self.to_move = -1
        self.totals = list(totals)
        self.results = []
        self.winner = -1
        self.hands = [[0] * CARD_KINDS for _ in range(players)]
        self.sizes = [0] * players
        self.melds = [[], []]
        self.pile = []
        self.stock = []
        self.mortos = [[], []]
        self.morto_status = [UNTAKEN, UNTAKEN]
        self.morto_holder = [-1, -1]
        self.went_out = -1
        self.turns = 0
        self.idle_turns = 0
        self._legal = None

    # -- reading the state -----------------------------------------------------------

    @property
    def phase_name(self) -> str:
        """``dealer``, ``shuffle``, ``draw``, ``play`` or ``over``."""
        return PHASE_NAMES[self.phase]

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, in card order."""
        return counts_to_cards(self.hands[seat])

    def side_of(self, seat: int) -> int:
        """0 for seats 0 and 2, 1 for seats 1 and 3 (in a two-player game, the seat)."""
        return seat & 1

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(range(side, self.players, 2))

    # -- checks shared by apply and the move generator ----------------------------------

    def _check_in_hand(self, seat: int, action: BuracoAction) -> None:
        hand = self.hands[seat]
        cards = action.cards
        for card in cards:
            if hand[card] < cards.count(card):
                raise IllegalMove(f"not in your hand: {action}", action, Reason("not_in_hand"))

    def _melds_after(self, seat: int, action: BuracoAction, cards: tuple[int, ...]) -> list[Meld]:
        """The side's melds once ``cards`` are laid down as ``action`` says."""
        melds = self.melds[self.side_of(seat)][:]
        if action.kind in (act.MELD, act.TAKE_MELD):
            new = arrange(cards, sets=self.options.sets)
            if new is None:
                why = Reason(meld_fault(cards, self.options.sets))
                raise IllegalMove(f"not a valid meld: {action}", action, why)
            melds.append(new)
            return melds
        if not 0 <= action.number < len(melds):
            raise IllegalMove(
                f"your side has no meld {action.number}: {action}", action, Reason("no_such_meld")
            )
        grown = extend(melds[action.number], cards)
        if grown is None:
            why = Reason(meld_fault((*melds[action.number].cards, *cards), self.options.sets,
                                    melds[action.number].kind))  # fmt: skip
            raise IllegalMove(f"the meld would not be valid: {action}", action, why)
        melds[action.number] = grown
        return melds

    def _may_empty(self, side: int, melds_after: Sequence[Meld]) -> bool:
        """May a seat of ``side`` empty its hand, the table being ``melds_after``?"""
        status = self.morto_status[side]
        if status == UNTAKEN:
            return True
        return status != STOCK and any(len(meld.cards) >= CANASTA for meld in melds_after)

    def _may_keep(self, side: int, card: int, melds_after: Sequence[Meld]) -> bool:
        """Could a single ``card`` left in hand still be discarded or melded?"""
        if self._may_empty(side, melds_after):
            return True
        if self.morto_status[side] == STOCK:
            return False
        return any(
            len(meld.cards) >= CANASTA - 1 and card in addable_cards(meld) for meld in melds_after
        )

    def _check_emptying(
        self,
        seat: int,
        action: BuracoAction,
        melds_after: Sequence[Meld],
        gained: Sequence[int],
    ) -> None:
        size_after = self.sizes[seat] - len(action.cards) + len(gained)
        if size_after > 1:
            return
        side = self.side_of(seat)
        if size_after == 0:
            if not self._may_empty(side, melds_after):
                raise self._last_card_refusal(side, "meld", action)
            return
        left = self.hands[seat][:]
        for card in action.cards:
            left[card] -= 1
        for card in gained:
            left[card] += 1
        last = next(card for card in range(CARD_KINDS) if left[card] > 0)
        if not self._may_keep(side, last, melds_after):
            raise IllegalMove(
                "you would keep a single card you could neither discard nor meld",
                action,
                Reason("last_card_stuck"),
            )

    def _last_card_refusal(self, side: int, verb: str, action: BuracoAction) -> IllegalMove:
        if self.morto_status[side] == STOCK:
            why = "your side's morto became the stock"
            reason = Reason.of("last_card_morto_stock", verb=verb)
        else:
            why = "your side has no canasta to go out"
            reason = Reason.of("last_card_no_canasta", verb=verb)
        return IllegalMove(f"you may not {verb} your last card: {why}", action, reason)

    def _remove_from_hand(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand[card] -= 1
        self.sizes[seat] -= len(cards)

    # -- the end of a hand ----------------------------------------------------------------

    def score_hand(self) -> tuple[SideScore, SideScore]:
        """Both sides' breakdowns for the table as it lies now."""
        scores = []
        for side in (0, 1):
            left: list[int] = []
            for seat in self.seats_of(side):
                left.extend(counts_to_cards(self.hands[seat]))
            status = self.morto_status[side]
            if status == PENDING:
                left.extend(self.mortos[side])
            scores.append(
                score_side(
                    self.melds[side],
                    left,
                    went_out=self.went_out == side,
                    took_morto=status in (PENDING, TAKEN),
                )
            )
        return scores[0], scores[1]
