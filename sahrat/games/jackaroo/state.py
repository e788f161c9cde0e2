"""A Jackaroo game: hands, deals, turns, chance steps and the shared interface.

>>> from sahrat.games.jackaroo import JackarooState, Options
>>> state = JackarooState.new_game(Options.preset("sahrat"))
>>> state.current_player() == CHANCE       # the first dealer is drawn first
True

A game runs from :meth:`JackarooState.new_game`: the first dealer and every
shuffle are chance steps (``current_player() == CHANCE``) whose outcomes are
drawn with :meth:`~JackarooState.sample_chance`, so the list of applied
actions is a complete record that replays exactly. A state built from a
position (:mod:`~sahrat.games.jackaroo.position`) has no stock to deal from:
when its hands run out its turn is :data:`WAITING`.

Over 500 lines, because one object holds what every move touches (the board,
the hands, the turn, the deal) and its steps call each other; the parts that
stand alone have modules of their own: the geometry (``board``), the move
generator (``rules``), the notation, the view and the words.
"""

from __future__ import annotations

from typing import Any, Final, Self

from sahrat.cards import CODES, RANK
from sahrat.errors import GameOver, IllegalMove, MalformedInput, Reason
from sahrat.fairness import RandomSource, dealer_label, pick_label, shuffle_label
from sahrat.game import CHANCE, TERMINAL, GameState, Outcome, SideResult
from sahrat.games.jackaroo.actions import (
    BURN,
    DEALER,
    DISCARD,
    DISCARD_ALL,
    MOVE,
    PICK,
    SHUFFLE,
    SPLIT,
    SWAP,
    Chance,
    Move,
    parse_action,
)
from sahrat.games.jackaroo.board import BASE0, BITS, HOME0
from sahrat.games.jackaroo.options import Options
from sahrat.games.jackaroo.rules import DISCARD_HAND, DISCARDS, Rules
from sahrat.games.jackaroo.view import JackarooView

#: ``current_player()`` of a position whose hands are empty and that cannot deal.
WAITING: Final = -2

# What a chance node is waiting for.
_NONE: Final = 0
_DEALER: Final = 1
_DECK: Final = 2
_RESHUFFLE: Final = 3
_PICK: Final = 4

#: Cards dealt per round in one ``5-4-4`` deck cycle, by seat count.
SCHEDULES: Final = {4: (5, 4, 4), 2: (5, 4, 4, 4, 4, 5)}
FOUR_EACH: Final = 4

_RULES: dict[Options, Rules] = {}


def rules_for(options: Options) -> Rules:
    """The (shared, immutable) :class:`Rules` of ``options``."""
    rules = _RULES.get(options)
    if rules is None:
        rules = _RULES[options] = Rules(options)
    return rules


class JackarooState(GameState):
    """A Jackaroo position with everything needed to continue the game."""

    __slots__ = (
        "_legal",
        "actor",
        "dealer",
        "dealing",
        "discard",
        "hands",
        "loc",
        "mask",
        "moves",
        "occ",
        "options",
        "pending",
        "picks",
        "round",
        "rules",
        "shuffles",
        "stock",
        "turn",
        "winner",
    )

    options: Options
    rules: Rules
    loc: list[int]
    occ: list[int]
    mask: int
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    turn: int
    dealer: int
    pending: int
    actor: int
    picks: int
    shuffles: int
    round: int
    winner: int
    dealing: bool
    moves: int
    _legal: tuple[Any, ...] | None

    def __new__(cls, *args: object) -> Self:
        # Defined so that clone() and unpickling can make a blank state without __init__:
        # a compiled class refuses object.__new__ from outside, and its construction
        # runs __init__ unless the class has a __new__ of its own.
        return object.__new__(cls)

    def __init__(self, options: Options) -> None:
        """An empty board (every marble in its base), no cards dealt, nobody to move.

        Use :meth:`new_game` for a game, or :func:`~sahrat.games.jackaroo.position.from_position`.
        """
        self.options = options
        self.rules = rules_for(options)
        self.loc = [BASE0 + (m >> 2) for m in range(16)]
        self.occ = [-1] * BASE0
        #: A bit per occupied square (``1 << square``), kept in step with ``occ``.
        self.mask = 0
        self.hands = [[] for _ in range(4)]
        #: The stock, **top card last** (so dealing is ``pop()``).
        self.stock = []
        #: Played and burnt cards, oldest first.
        self.discard = []
        self.turn = WAITING
        self.dealer = -1
        self.pending = _NONE
        self.actor = -1
        self.picks = 0
        self.shuffles = 0
        self.round = 0
        self.winner = -1
        self.dealing = False
        #: Moves played (each is one turn; a chance step is not a move).
        self.moves = 0
        self._legal = None

    @classmethod
    def new_game(cls, options: Options | None = None) -> JackarooState:
        """A game about to start: the first chance step draws the dealer."""
        state = cls(options or Options.preset())
        state.dealing = True
        state.pending = _DEALER
        state.turn = CHANCE
        return state

    # -- the shared interface -------------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in play, in play order."""
        return self.rules.order

    def side_of(self, seat: int) -> int:
        """Partners share a side (seats 0+2, 1+3); a two-seat table's seats 0 and 2 do not."""
        return seat & 1 if self.options.seats == 4 else seat >> 1

    def current_player(self) -> int:
        turn = self.turn
        return TERMINAL if self.winner >= 0 else turn

    def turn_count(self) -> int:
        return self.moves

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, in the order they were dealt."""
        return list(self.hands[seat])

    def outcome(self) -> Outcome | None:
        if self.winner < 0:
            return None
        winners = self.winners()
        sides = tuple(
            SideResult(seats, 1 if winners[0] in seats else -1)
            for seats in (
                tuple(s for s in self.rules.order if self.side_of(s) == side) for side in (0, 1)
            )
        )
        return Outcome(winners, sides)

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def returns(self) -> tuple[float, ...]:
        if self.winner < 0:
            return (0.0, 0.0, 0.0, 0.0)
        partner = self.rules.partner[self.winner]
        out = [0.0] * 4
        for seat in self.rules.order:
            out[seat] = 1.0 if seat in (self.winner, partner) else -1.0
        return tuple(out)

    def winners(self) -> tuple[int, ...]:
        """The seats of the winning side (empty while the game runs)."""
        if self.winner < 0:
            return ()
        partner = self.rules.partner[self.winner]
        return (self.winner,) if partner < 0 else tuple(sorted((self.winner, partner)))

    def legal_actions(self) -> tuple[Any, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to move (empty at chance nodes and at the end)."""
        return self.legal_actions() if self.turn >= 0 and self.winner < 0 else ()

    def apply_action(self, action: Any) -> None:
        if self.winner >= 0:
            raise GameOver(f"the game is over: {action}", action, Reason("game_over"))
        if isinstance(action, Chance):
            self._apply_chance(action)
            return
        if self.turn < 0:
            raise IllegalMove(f"no seat is to move: {action}", action, Reason("no_turn"))
        if not self._allows(action):
            raise self._refusal(action)
        self._play(action)

    def why_illegal(self, action: Any) -> Reason | None:
        if self.winner >= 0:
            return Reason("game_over")
        if isinstance(action, Chance):
            if self.turn != CHANCE:
                return Reason("not_chance")
            try:
                self.clone()._apply_chance(action)
            except IllegalMove as error:
                return error.reason
            return None
        if not isinstance(action, Move):
            return Reason("not_an_action")
        if self.turn < 0:
            return Reason("no_turn")
        if self._allows(action):
            return None
        kind = action.kind
        hand = self.hands[self.turn]
        if kind != DISCARD_ALL and action.card not in hand:
            return Reason.of("card_not_held", card=CODES[action.card])
        stuck = all(a.kind in (DISCARD, DISCARD_ALL) for a in self.legal_actions())
        if stuck and kind not in (DISCARD, DISCARD_ALL):
            return Reason("must_burn")
        if kind == DISCARD_ALL and stuck:
            return Reason("must_burn_one")
        if kind == DISCARD and stuck:
            return Reason("must_burn_all")
        if kind in (DISCARD, DISCARD_ALL):
            return Reason("may_not_burn")
        if kind == BURN and self.rules.ten_burns and RANK[action.card] == 10:
            return Reason("nothing_to_burn")
        return Reason.of("no_such_move", card=CODES[action.card])

    def _allows(self, action: Any) -> bool:
        """Whether ``action`` is legal, without listing every move when they are not
        listed yet: a card's own moves decide (simulations play many moves they never
        list, and a 7's splits are the dearest part of a list)."""
        legal = self._legal
        if legal is not None:
            return action in legal
        if not isinstance(action, Move) or action.kind > BURN:
            return action in self.legal_actions()
        turn = self.turn
        hand = self.hands[turn]
        if action.card not in hand:
            return False
        can_burn = len(self.hands[self.rules.next_seat[turn]]) > 0
        return action in self.rules.moves(
            [action.card], self.loc, self.occ, self.mask, turn, can_burn
        )

    def sample_chance(self, source: RandomSource) -> Chance:
        pending = self.pending
        if self.turn != CHANCE:
            raise IllegalMove("not a chance node", None, Reason("not_chance"))
        if pending == _DEALER:
            return Chance(DEALER, source.uniform(dealer_label(), len(self.rules.order)))
        if pending == _PICK:
            victim = self.rules.next_seat[self.actor]
            return Chance(PICK, source.uniform(pick_label(self.picks), len(self.hands[victim])))
        deck = list(range(52)) if pending == _DECK else list(self.discard)
        source.shuffle(shuffle_label(self.shuffles), deck)
        return Chance(SHUFFLE, tuple(deck))

    def clone(self) -> Self:
        cls = type(self)
        new = cls.__new__(cls)
        new.options = self.options
        new.rules = self.rules
        new.loc = self.loc[:]
        new.occ = self.occ[:]
        new.mask = self.mask
        new.hands = [h[:] for h in self.hands]
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.turn = self.turn
        new.dealer = self.dealer
        new.pending = self.pending
        new.actor = self.actor
        new.picks = self.picks
        new.shuffles = self.shuffles
        new.round = self.round
        new.winner = self.winner
        new.dealing = self.dealing
        new.moves = self.moves
        new._legal = self._legal
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled for search worker processes. A compiled state has neither __dict__ nor
        # __slots__ for pickle to read, so its fields go by hand (the rules are shared
        # per options, and found again on the other side).
        fields = (
            self.loc, self.occ, self.mask, self.hands, self.stock, self.discard, self.turn,
            self.dealer, self.pending, self.actor, self.picks, self.shuffles, self.round,
            self.winner, self.dealing, self.moves,
        )  # fmt: skip
        return (_unpickle, (type(self), self.options, fields))

    def view(self, seat: int) -> JackarooView:
        """The position as ``seat`` sees it: its own hand, the others' hand sizes, the
        board, the discard pile and the size of the stock (``jackaroo.md`` §6 form)."""
        if seat not in self.rules.order:
            raise MalformedInput(f"no seat {seat} at this table", seat)
        return JackarooView.of(self, seat)

    def determinize(self, seat: int, source: RandomSource) -> Self:
        """Deal every card ``seat`` has not seen (others' hands, the stock) at random."""
        new = self.clone()
        seen = set(self.hands[seat]) | set(self.discard)
        pool = [card for card in range(52) if card not in seen]
        source.shuffle("determinize", pool)
        for other in self.rules.order:
            if other != seat:
                size = len(new.hands[other])
                new.hands[other] = pool[:size]
                del pool[:size]
        # Before the first deal there is no card yet: the stock keeps its size (none).
        new.stock = pool[: len(self.stock)] if self.dealing else pool
        new._legal = None
        return new

    def parse_action(self, text: str) -> Move | Chance:
        return parse_action(text)

    # -- helpers for callers --------------------------------------------------------

    def move_from_text(self, text: str) -> Move:
        """The legal move written ``text``; :class:`IllegalMove` when it is not legal here."""
        move = Move.parse(text)
        if self.turn < 0 or self.winner >= 0 or move not in self.legal_actions():
            raise self._refusal(move)
        return move

    # -- generation -----------------------------------------------------------------

    def _generate(self) -> tuple[Any, ...]:
        turn = self.turn
        if self.winner >= 0:
            return ()
        if turn == CHANCE:
            if self.pending == _PICK:
                n = len(self.hands[self.rules.next_seat[self.actor]])
                return tuple(Chance(PICK, i) for i in range(n))
            if self.pending == _DEALER:
                return tuple(Chance(DEALER, i) for i in range(len(self.rules.order)))
            return ()
        if turn < 0:
            return ()
        hand = self.hands[turn]
        rules = self.rules
        loc = self.loc
        can_burn = len(self.hands[rules.next_seat[turn]]) > 0
        out = rules.moves(hand, loc, self.occ, self.mask, turn, can_burn)
        if out:
            return tuple(out)
        # Stuck: nothing in the hand moves (§5).
        colour = rules.controlled(loc, turn)
        if rules.burn_all and all(q >= BASE0 for q in loc[colour * 4 : colour * 4 + 4]):
            return (DISCARD_HAND,)
        return tuple(DISCARDS[card] for card in hand if card >= 0)

    def _refusal(self, action: Any) -> IllegalMove:
        """The error for an action that is not legal here: its reason, and English for the
        command line."""
        reason = self.why_illegal(action) or Reason("illegal")
        if reason.code == "game_over":
            text = f"the game is over: {action}"
        elif reason.code == "no_turn":
            text = f"no seat is to move: {action}"
        elif reason.code == "card_not_held":
            text = f"illegal move {action}: seat {self.turn} does not hold that card"
        else:
            text = f"illegal move {action} for seat {self.turn}"
        return IllegalMove(text, action, reason)

    # -- playing --------------------------------------------------------------------

    def _play(self, move: Move) -> None:
        card, kind, a, b, c, d = move
        seat = self.turn
        hand = self.hands[seat]
        rules = self.rules
        self._legal = None
        self.moves += 1
        if kind == DISCARD_ALL:
            self.discard.extend(hand)
            hand.clear()
        else:
            hand.remove(card)
            self.discard.append(card)
        if kind == MOVE:
            vacated = rules.move_marble(self.loc, self.occ, a, b, RANK[card])
            self.mask = (self.mask & ~(BITS[a] | vacated)) | BITS[b]
        elif kind == SPLIT:
            rules.move_marble(self.loc, self.occ, a, b, 7)
            rules.move_marble(self.loc, self.occ, c, d, 7)
            self.mask = (self.mask & ~(BITS[a] | BITS[c])) | BITS[b] | BITS[d]
        elif kind == SWAP:
            rules.swap(self.loc, self.occ, a, b)
        elif kind == BURN:
            # The burnt card is a chance step; the turn passes on after it.
            self.actor = seat
            self.pending = _PICK
            self.turn = CHANCE
            return
        if (a < HOME0 <= b < BASE0) or (c < HOME0 <= d < BASE0):
            # Only a marble entering its home lane can end the game.
            self.winner = rules.winner(self.loc)
        self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        """Give the turn to the next seat holding cards, or end the round."""
        if self.winner >= 0:
            self.turn = TERMINAL
            return
        rules = self.rules
        nxt = seat
        for _ in range(len(rules.order)):
            nxt = rules.next_seat[nxt]
            if self.hands[nxt]:
                self.turn = nxt
                return
        self._end_round()

    def _end_round(self) -> None:
        if not self.dealing:
            self.turn = WAITING
            return
        rules = self.rules
        if self.options.deal == "5-4-4":
            self.round += 1
            schedule = SCHEDULES[self.options.seats]
            if self.round < len(schedule):
                self._deal(schedule[self.round])
                return
            # A new deck cycle: every card comes back, the deal passes on.
            self.round = 0
            self.dealer = rules.next_seat[self.dealer]
            self.pending = _DECK
            self.turn = CHANCE
            return
        self.dealer = rules.next_seat[self.dealer]
        if len(self.stock) >= FOUR_EACH * len(rules.order):
            self._deal(FOUR_EACH)
        else:
            self.pending = _RESHUFFLE
            self.turn = CHANCE

    def _deal(self, per_seat: int) -> None:
        """Deal ``per_seat`` cards each, one at a time from the top, from the seat after
        the dealer; that seat then starts."""
        rules = self.rules
        first = rules.next_seat[self.dealer]
        order = [first]
        while len(order) < len(rules.order):
            order.append(rules.next_seat[order[-1]])
        stock, hands = self.stock, self.hands
        for _ in range(per_seat):
            for seat in order:
                hands[seat].append(stock.pop())
        self.pending = _NONE
        self._legal = None
        self.turn = first

    def _apply_chance(self, chance: Chance) -> None:
        if self.turn != CHANCE:
            raise IllegalMove(f"not a chance node: {chance}", chance, Reason("not_chance"))
        kind, value = chance
        pending = self.pending
        rules = self.rules
        if pending == _DEALER:
            if kind != DEALER or not isinstance(value, int) or not 0 <= value < len(rules.order):
                raise IllegalMove(
                    f"expected the first dealer, got {chance}", chance, Reason("bad_chance")
                )
            self.dealer = rules.order[value]
            self.pending = _DECK
            self._legal = None
            return
        if pending == _PICK:
            victim = rules.next_seat[self.actor]
            hand = self.hands[victim]
            if kind != PICK or not isinstance(value, int) or not 0 <= value < len(hand):
                raise IllegalMove(
                    f"expected a pick in 0..{len(hand) - 1}, got {chance}",
                    chance,
                    Reason("bad_chance"),
                )
            self.discard.append(hand.pop(value))
            self.picks += 1
            self.pending = _NONE
            self._legal = None
            self._pass_turn(self.actor)
            return
        expected = range(52) if pending == _DECK else sorted(self.discard)
        if kind != SHUFFLE or not isinstance(value, tuple) or sorted(value) != list(expected):
            raise IllegalMove(
                f"expected a shuffle of {len(expected)} cards, got {chance}",
                chance,
                Reason("bad_chance"),
            )
        if pending == _DECK:
            self.stock = list(reversed(value))
        else:
            # The shuffled discard pile goes under what is left of the stock.
            self.stock[:0] = reversed(value)
        self.discard.clear()
        self.shuffles += 1
        self._deal(SCHEDULES[self.options.seats][0] if self.options.deal == "5-4-4" else FOUR_EACH)


def occupancy_mask(occ: list[int]) -> int:
    """The bits of the occupied squares of ``occ``."""
    return sum(1 << q for q, m in enumerate(occ) if m >= 0)


def _unpickle(cls: type[JackarooState], options: Options, fields: tuple[Any, ...]) -> JackarooState:
    state = cls.__new__(cls)
    state.options = options
    state.rules = rules_for(options)
    (
        state.loc, state.occ, state.mask, state.hands, state.stock, state.discard, state.turn,
        state.dealer, state.pending, state.actor, state.picks, state.shuffles, state.round,
        state.winner, state.dealing, state.moves,
    ) = fields  # fmt: skip
    state._legal = None
    return state
