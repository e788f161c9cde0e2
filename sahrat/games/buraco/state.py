"""A Buraco match as a state machine implementing :class:`sahrat.game.GameState`.

>>> from sahrat.fairness import FairSource, Seeds
>>> from sahrat.games.buraco.options import BuracoOptions
>>> state = BuracoState(BuracoOptions(seats=2))
>>> state.current_player() == CHANCE          # the first dealer is drawn first
True
>>> source = FairSource(Seeds(bytes(32), "doc", ("a", "b")))
>>> state.apply_action(state.sample_chance(source))   # dealer
>>> state.apply_action(state.sample_chance(source))   # shuffle/0 and the deal
>>> state.phase_name, [len(state.hand(s)) for s in (0, 1)], state.stock_size
('draw', [11, 11], 63)

Turn structure. A turn is a ``draw`` phase (``draw`` or ``take``; with
``closed``, ``take meld …`` / ``take add …``) followed by a ``play`` phase of
any number of ``meld``/``add`` actions ended by one ``discard``. What a
turn does automatically is not an action: picking up a morto, the stock
running out, scoring the hand and moving the dealer.

What :meth:`BuracoState.legal_actions` lists. Enumerating every subset of
a hand is combinatorial, so in the play phase the list holds every distinct
valid **three-card** new meld, every **single card** that can be added to
one of the side's melds, and every distinct discard; in the closed draw
phase, every take with a three-card meld or with the top card (alone or
with one card of the hand) added to a meld. Every table a turn can reach
is reachable through listed actions, and :meth:`BuracoState.apply_action`
accepts any legal action, listed or not (a seven-card meld at once, three
cards added together).

Decisions the rules leave to the engine:

- The stock is checked when a turn begins: if it is empty, the first
  untaken morto (side 0's before side 1's) becomes the stock, else the hand
  ends. A morto taken by discarding is picked up when its holder's next
  turn begins.
- Emptying the hand is judged on the table after the move, so the card
  that completes a first canasta may be the last one.
- A meld or addition that would leave a single card its owner could
  neither discard nor meld is illegal: the turn must end with a discard.
- With ``closed``, the other cards of a ``take meld``/``take add`` come
  from the hand held before taking; the plain ``take`` is not allowed, and
  the combined forms are the closed pile's only.
"""

from __future__ import annotations

from typing import Any, Self

from sahrat.cards import BURACO_DECK
from sahrat.errors import GameOver, IllegalMove, MalformedInput, Reason
from sahrat.fairness import RandomSource, dealer_label, shuffle_label
from sahrat.game import CHANCE, TERMINAL, Outcome, SideResult
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction, parse_action
from sahrat.games.buraco.deal import deal_cards
from sahrat.games.buraco.moves import MoveGenerator
from sahrat.games.buraco.scoring import HandResult, match_winner
from sahrat.games.buraco.table import (
    CHOOSE_DEALER,
    DRAW,
    IDLE_TURNS_LIMIT,
    MORTO_NAMES,
    OVER,
    PENDING,
    PLAY,
    SHUFFLE,
    SORTED_DECK,
    STOCK,
    TAKEN,
    UNTAKEN,
    counts_to_cards,
    hand_counts,
)
from sahrat.games.buraco.view import BuracoView


class BuracoState(MoveGenerator):
    """A match of Buraco: the current hand's table, the totals and the hands played."""

    __slots__ = ()

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats 0..3 (or 0 and 1), in play order."""
        return tuple(range(self.players))

    def turn_count(self) -> int:
        return self.turns

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(
            self.seats_of(self.winner),
            tuple(
                SideResult(self.seats_of(side), 1 if side == self.winner else -1, self.totals[side])
                for side in (0, 1)
            ),
            len(self.results),
        )

    def why_illegal(self, action: Any) -> Reason | None:
        try:
            self.clone().apply_action(action)
        except IllegalMove as error:
            return error.reason
        except MalformedInput:
            return Reason("not_an_action")
        return None

    # -- the shared interface -----------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase >= DRAW:
            return TERMINAL if phase == OVER else self.to_move
        return CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            return (0.0,) * self.players
        return tuple(
            1.0 if self.side_of(seat) == self.winner else -1.0 for seat in range(self.players)
        )

    def parse_action(self, text: str) -> BuracoAction:
        return parse_action(text)

    def sample_chance(self, source: RandomSource) -> BuracoAction:
        if self.phase == CHOOSE_DEALER:
            return act.pick_dealer(source.uniform(dealer_label(), self.players))
        if self.phase == SHUFFLE:
            order = list(BURACO_DECK)
            source.shuffle(shuffle_label(self.hand_number), order)
            return act.shuffle(order)
        raise IllegalMove("not a chance node", None, Reason("not_chance"))

    def legal_actions(self) -> tuple[BuracoAction, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(self._generate())
        return legal

    def apply_action(self, action: Any) -> None:
        """Play ``action`` (a :class:`BuracoAction` or its text).

        Raises :class:`IllegalMove` (:class:`GameOver` once the match is over)
        or :class:`MalformedInput`, and then changes nothing.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, BuracoAction):
            raise MalformedInput(f"not a Buraco action: {action!r}", action)
        else:
            act.check_shape(action)
        if self.phase == OVER:
            raise GameOver(f"the match is over: {action}", action, Reason("game_over"))
        kind = action.kind
        if kind in act.CHANCE_KINDS:
            self._apply_chance(action)
        elif self.phase == DRAW:
            if kind == act.DRAW:
                self._draw()
            elif kind == act.TAKE:
                self._take(action)
            elif kind in (act.TAKE_MELD, act.TAKE_ADD):
                self._take_and_meld(action)
            else:
                raise IllegalMove(
                    f"draw or take the pile first: {action}", action, Reason("draw_first")
                )
        elif self.phase == PLAY:
            if kind in (act.MELD, act.ADD):
                self._meld(action)
            elif kind == act.DISCARD:
                self._discard(action)
            else:
                raise IllegalMove(
                    f"you have drawn already: {action}", action, Reason("already_drawn")
                )
        else:
            raise IllegalMove(f"a chance step is due, not {action}", action, Reason("no_turn"))
        self._legal = None

    def clone(self) -> Self:
        cls = type(self)
        other = cls.__new__(cls)
        other.options = self.options
        other.players = self.players
        other.phase = self.phase
        other.dealer = self.dealer
        other.hand_number = self.hand_number
        other.to_move = self.to_move
        other.totals = self.totals[:]
        other.results = self.results[:]
        other.winner = self.winner
        other.hands = [hand[:] for hand in self.hands]
        other.sizes = self.sizes[:]
        other.melds = [self.melds[0][:], self.melds[1][:]]
        other.pile = self.pile[:]
        other.stock = self.stock[:]
        other.mortos = [self.mortos[0][:], self.mortos[1][:]]
        other.morto_status = self.morto_status[:]
        other.morto_holder = self.morto_holder[:]
        other.went_out = self.went_out
        other.turns = self.turns
        other.idle_turns = self.idle_turns
        other._legal = self._legal
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled for search worker processes. A compiled state has neither __dict__ nor
        # __slots__ for pickle to read, so its fields go by hand.
        fields = (
            self.options, self.players, self.phase, self.dealer, self.hand_number, self.to_move,
            self.totals, self.results, self.winner, self.hands, self.sizes, self.melds, self.pile,
            self.stock, self.mortos, self.morto_status, self.morto_holder, self.went_out,
            self.turns, self.idle_turns,
        )  # fmt: skip
        return (_unpickle, (type(self), fields))

    def view(self, seat: int) -> BuracoView:
        if not 0 <= seat < self.players:
            raise MalformedInput(f"no seat {seat} at a table of {self.players}", seat)
        return BuracoView(
            seat=seat,
            options=self.options,
            phase=self.phase_name,
            to_move=self.current_player(),
            dealer=self.dealer,
            hand_number=self.hand_number,
            hand=tuple(self.hand(seat)),
            hand_sizes=tuple(self.sizes),
            melds=(tuple(self.melds[0]), tuple(self.melds[1])),
            discard_pile=tuple(self.pile),
            stock_size=len(self.stock),
            morto_sizes=(len(self.mortos[0]), len(self.mortos[1])),
            morto_status=(MORTO_NAMES[self.morto_status[0]], MORTO_NAMES[self.morto_status[1]]),
            totals=(self.totals[0], self.totals[1]),
            results=tuple(self.results),
            went_out=self.went_out,
            winner=self.winner,
            idle_turns=max(self.idle_turns, 0),
        )

    def determinize(self, seat: int, source: RandomSource) -> Self:
        """A copy in which the cards ``seat`` cannot see (the other hands, the stock and
        the mortos) are dealt again at random, each place keeping its size."""
        if not 0 <= seat < self.players:
            raise MalformedInput(f"no seat {seat} at a table of {self.players}", seat)
        other = self.clone()
        others = [s for s in range(self.players) if s != seat]
        hidden = [*other.stock, *other.mortos[0], *other.mortos[1]]
        for s in others:
            hidden.extend(counts_to_cards(other.hands[s]))
        # Sorted first, so the result depends only on what the seat can see, never on
        # where the hidden cards really are.
        hidden.sort()
        source.shuffle("determinize", hidden)
        at = 0
        for s in others:
            size = other.sizes[s]
            other.hands[s] = hand_counts(hidden[at : at + size])
            at += size
        for side in (0, 1):
            size = len(other.mortos[side])
            other.mortos[side] = hidden[at : at + size]
            at += size
        other.stock = hidden[at:]
        other._legal = None
        return other

    # -- chance steps -------------------------------------------------------------------

    def _apply_chance(self, action: BuracoAction) -> None:
        if action.kind == act.DEALER:
            if self.phase != CHOOSE_DEALER:
                raise IllegalMove(
                    f"the dealer is not being drawn now: {action}", action, Reason("bad_chance")
                )
            if not 0 <= action.number < self.players:
                raise IllegalMove(
                    f"no seat {action.number} to deal: {action}", action, Reason("bad_chance")
                )
            self.dealer = action.number
            self.phase = SHUFFLE
            return
        if self.phase != SHUFFLE:
            raise IllegalMove("no shuffle is due now", action, Reason("bad_chance"))
        if tuple(sorted(action.cards)) != SORTED_DECK:
            raise IllegalMove(
                "a shuffle must order the 108 cards of the deck", action, Reason("bad_chance")
            )
        deal = deal_cards(action.cards, players=self.players, dealer=self.dealer)
        self.hand_number += 1
        self.hands = [hand_counts(hand) for hand in deal.hands]
        self.sizes = [len(hand) for hand in deal.hands]
        self.mortos = deal.mortos
        self.morto_status = [UNTAKEN, UNTAKEN]
        self.morto_holder = [-1, -1]
        self.melds = [[], []]
        self.pile = [deal.discard]
        self.stock = deal.stock[::-1]
        self.went_out = -1
        self.idle_turns = 0
        self._begin_turn((self.dealer + 1) % self.players)

    # -- turns ---------------------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        self.to_move = seat
        self.phase = DRAW
        self.turns += 1
        for side in (0, 1):
            if self.morto_holder[side] == seat:
                self._pick_up_morto(seat, side)
        if self.stock:
            return
        for side in (0, 1):
            if self.morto_status[side] == UNTAKEN:
                self.stock = self.mortos[side][::-1]
                self.mortos[side] = []
                self.morto_status[side] = STOCK
                return
        self._end_hand(-1)

    def _pick_up_morto(self, seat: int, side: int) -> None:
        hand = self.hands[seat]
        for card in self.mortos[side]:
            hand[card] += 1
        self.sizes[seat] += len(self.mortos[side])
        self.mortos[side] = []
        self.morto_status[side] = TAKEN
        self.morto_holder[side] = -1

    def _draw(self) -> None:
        self.idle_turns = -1
        card = self.stock.pop()
        self.hands[self.to_move][card] += 1
        self.sizes[self.to_move] += 1
        self.phase = PLAY

    def _take(self, action: BuracoAction) -> None:
        if self.options.closed:
            raise IllegalMove(
                "the pile is closed: take it only together with melding its top card",
                action,
                Reason("pile_closed"),
            )
        if not self.pile:
            raise IllegalMove("the discard pile is empty", action, Reason("pile_empty"))
        seat = self.to_move
        hand = self.hands[seat]
        for card in self.pile:
            hand[card] += 1
        self.sizes[seat] += len(self.pile)
        self.pile = []
        self.phase = PLAY

    def _take_and_meld(self, action: BuracoAction) -> None:
        if not self.options.closed:
            raise IllegalMove(
                f"take the pile with 'take', then meld: {action}", action, Reason("pile_open")
            )
        if not self.pile:
            raise IllegalMove("the discard pile is empty", action, Reason("pile_empty"))
        seat = self.to_move
        self._check_in_hand(seat, action)
        top = self.pile[-1]
        melds_after = self._melds_after(seat, action, (top, *action.cards))
        gained = self.pile[:-1]
        self._check_emptying(seat, action, melds_after, gained)
        self._remove_from_hand(seat, action.cards)
        hand = self.hands[seat]
        for card in gained:
            hand[card] += 1
        self.sizes[seat] += len(gained)
        self.pile = []
        self.melds[self.side_of(seat)] = melds_after
        self.phase = PLAY
        self._after_melding(seat)

    def _meld(self, action: BuracoAction) -> None:
        seat = self.to_move
        self._check_in_hand(seat, action)
        melds_after = self._melds_after(seat, action, action.cards)
        self._check_emptying(seat, action, melds_after, ())
        self._remove_from_hand(seat, action.cards)
        self.melds[self.side_of(seat)] = melds_after
        self._after_melding(seat)

    def _discard(self, action: BuracoAction) -> None:
        seat = self.to_move
        self._check_in_hand(seat, action)
        side = self.side_of(seat)
        if self.sizes[seat] == 1 and not self._may_empty(side, self.melds[side]):
            raise self._last_card_refusal(side, "discard", action)
        card = action.cards[0]
        self._remove_from_hand(seat, action.cards)
        self.pile.append(card)
        if self.sizes[seat] == 0:
            if self.morto_status[side] == UNTAKEN:
                self.morto_status[side] = PENDING
                self.morto_holder[side] = seat
            else:
                self._end_hand(side)
                return
        self.idle_turns += 1
        if self.idle_turns >= IDLE_TURNS_LIMIT:
            self._end_hand(-1)  # as if the stock had run out
            return
        self._begin_turn((seat + 1) % self.players)

    def _after_melding(self, seat: int) -> None:
        """Pick up the morto at once, or go out, when melding emptied the hand."""
        if self.sizes[seat]:
            return
        side = self.side_of(seat)
        if self.morto_status[side] == UNTAKEN:
            self._pick_up_morto(seat, side)
        else:
            self._end_hand(side)

    def _end_hand(self, went_out: int) -> None:
        self.went_out = went_out
        sides = self.score_hand()
        for side in (0, 1):
            self.totals[side] += sides[side].total
        totals = (self.totals[0], self.totals[1])
        self.results.append(HandResult(self.hand_number, sides, totals, went_out))
        self.to_move = -1
        self.winner = match_winner(totals, self.options.target)
        if self.winner >= 0:
            self.phase = OVER
        else:
            self.phase = SHUFFLE
            self.dealer = (self.dealer + 1) % self.players


def _unpickle(cls: type[BuracoState], fields: tuple[Any, ...]) -> BuracoState:
    state = cls.__new__(cls)
    (
        state.options, state.players, state.phase, state.dealer, state.hand_number,
        state.to_move, state.totals, state.results, state.winner, state.hands, state.sizes,
        state.melds, state.pile, state.stock, state.mortos, state.morto_status,
        state.morto_holder, state.went_out, state.turns, state.idle_turns,
    ) = fields  # fmt: skip
    state._legal = None
    return state
