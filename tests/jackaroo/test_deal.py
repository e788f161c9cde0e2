"""jackaroo.md §5: deal schedules, the dealer's rotation, reshuffles, chance steps."""

from __future__ import annotations

import random

import pytest

from sahrat.cards import parse_cards
from sahrat.errors import IllegalMove
from sahrat.fairness import FairSource, Seeds, Stream
from sahrat.game import CHANCE
from sahrat.games.jackaroo import Chance, JackarooState, Options
from sahrat.games.jackaroo.actions import DEALER, PICK, SHUFFLE
from sahrat.simulation import SimSource

SEEDS = Seeds(bytes(range(32)), "deal-test", ("a", "b", "c", "d"))


def start(options: Options, source: FairSource | SimSource) -> JackarooState:
    state = JackarooState.new_game(options)
    state.apply_action(state.sample_chance(source))  # dealer
    state.apply_action(state.sample_chance(source))  # first shuffle and deal
    return state


def play_round(state: JackarooState, rng: random.Random, source: SimSource) -> None:
    """Play until the round's hands are empty: the next round is then dealt (or, at the
    end of a deck, a shuffle is awaited)."""
    while not state.is_terminal():
        held = sum(len(state.hands[s]) for s in state.seats)
        if state.current_player() == CHANCE:
            if held == 0:
                return
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if sum(len(state.hands[s]) for s in state.seats) > held:
            return  # a new round was dealt from the stock


def test_first_dealer_comes_from_the_dealer_stream() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 4))
    assert state.current_player() == CHANCE
    chance = state.sample_chance(FairSource(SEEDS))
    assert chance == Chance(DEALER, Stream(SEEDS, "dealer").uniform(4))
    state.apply_action(chance)
    assert state.dealer == chance.value


def test_two_seat_dealer_is_an_index_into_seats_zero_and_two() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 2))
    state.apply_action(Chance(DEALER, 1))
    assert state.dealer == 2
    with pytest.raises(IllegalMove):
        JackarooState.new_game(Options.preset("sahrat", 2)).apply_action(Chance(DEALER, 2))


def test_first_shuffle_is_shuffle_zero_of_the_unshuffled_deck() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 4))
    state.apply_action(Chance(DEALER, 3))
    chance = state.sample_chance(FairSource(SEEDS))
    deck = list(range(52))
    Stream(SEEDS, "shuffle/0").shuffle(deck)
    assert chance == Chance(SHUFFLE, tuple(deck))


def test_cards_are_dealt_one_at_a_time_from_the_seat_after_the_dealer() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 4))
    state.apply_action(Chance(DEALER, 3))
    deck = tuple(range(52))
    state.apply_action(Chance(SHUFFLE, deck))
    # Seat 0 is after dealer 3: it gets cards 0, 4, 8, …; five each in 5-4-4.
    assert state.hands[0] == [0, 4, 8, 12, 16]
    assert state.hands[1] == [1, 5, 9, 13, 17]
    assert state.hands[3] == [3, 7, 11, 15, 19]
    assert state.turn == 0
    assert len(state.stock) == 32


def test_sahrat_deal_is_five_four_four_then_a_new_deck_and_dealer() -> None:
    rng, source = random.Random(1), SimSource(1)
    state = start(Options.preset("sahrat", 4), source)
    dealer = state.dealer
    sizes = []
    for _ in range(3):
        sizes.append([len(state.hands[s]) for s in state.seats])
        play_round(state, rng, source)
        if state.is_terminal():
            pytest.fail("a game does not end in one deck")
    assert sizes == [[5] * 4, [4] * 4, [4] * 4]
    assert state.current_player() == CHANCE  # a fresh deck is shuffled
    assert state.dealer == (dealer + 1) % 4
    state.apply_action(state.sample_chance(source))
    assert [len(state.hands[s]) for s in state.seats] == [5] * 4
    assert len(state.discard) == 0 and len(state.stock) == 32
    assert state.turn == (dealer + 2) % 4


def test_two_seat_sahrat_deal_is_five_four_four_four_four_five() -> None:
    rng, source = random.Random(2), SimSource(2)
    state = start(Options.preset("sahrat", 2), source)
    sizes = []
    for _ in range(6):
        sizes.append([len(state.hands[s]) for s in state.seats])
        play_round(state, rng, source)
    assert sizes == [[5, 5], [4, 4], [4, 4], [4, 4], [4, 4], [5, 5]]
    assert state.current_player() == CHANCE and not state.stock


def test_four_each_moves_the_dealer_every_round_and_reshuffles_under_the_stock() -> None:
    rng, source = random.Random(3), SimSource(3)
    state = start(Options.preset("classic", 4), source)
    dealers = [state.dealer]
    for _ in range(3):
        assert [len(state.hands[s]) for s in state.seats] == [4] * 4
        play_round(state, rng, source)
        if state.current_player() != CHANCE:
            dealers.append(state.dealer)
    assert dealers == [(dealers[0] + i) % 4 for i in range(3)]
    # After three rounds 4 cards remain: not enough, so the discard pile is reshuffled.
    assert state.current_player() == CHANCE and len(state.stock) == 4
    remaining = state.stock[:]
    pile = state.discard[:]
    chance = state.sample_chance(source)
    assert sorted(chance.value) == sorted(pile)  # type: ignore[arg-type]
    state.apply_action(chance)
    # The old stock was dealt first (it was on top), then the shuffled pile.
    dealt_first = remaining[::-1]
    first_cards = [state.hands[(state.dealer + 1 + i) % 4][0] for i in range(4)]
    assert first_cards == dealt_first
    assert state.discard == []
    assert len(state.stock) == 52 - 16


def test_reshuffle_uses_the_discard_pile_in_played_order() -> None:
    rng, source = random.Random(4), SimSource(4)
    state = start(Options.preset("complex", 4), source)
    for _ in range(3):
        play_round(state, rng, source)
    pile = state.discard[:]
    seeds = Seeds(bytes(32), "g", ("a",))
    chance = state.sample_chance(FairSource(seeds))
    expected = pile[:]
    Stream(seeds, f"shuffle/{state.shuffles}").shuffle(expected)
    assert chance.value == tuple(expected)


def test_a_shuffle_that_is_not_a_permutation_is_refused() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 4))
    state.apply_action(Chance(DEALER, 0))
    with pytest.raises(IllegalMove):
        state.apply_action(Chance(SHUFFLE, (0,) * 52))
    with pytest.raises(IllegalMove):
        state.apply_action(Chance(SHUFFLE, tuple(range(51))))
    assert state.current_player() == CHANCE


def test_ten_burn_is_a_pick_from_the_next_hand_in_dealt_order() -> None:
    state = JackarooState.new_game(Options.preset("sahrat", 4))
    state.apply_action(Chance(DEALER, 3))
    deck = parse_cards(["TS", "2S", "3S", "4S"]) + [c for c in range(52) if c not in (9, 1, 2, 3)]
    state.apply_action(Chance(SHUFFLE, tuple(deck)))
    burn = state.move_from_text("TS burn")
    state.apply_action(burn)
    assert state.current_player() == CHANCE
    assert state.legal_actions() == tuple(Chance(PICK, i) for i in range(5))
    victim_hand = state.hands[1][:]
    pick = state.sample_chance(FairSource(SEEDS))
    assert pick == Chance(PICK, Stream(SEEDS, "pick/0").uniform(5))
    state.apply_action(pick)
    assert state.discard == [parse_cards(["TS"])[0], victim_hand[pick.value]]  # type: ignore[index]
    assert len(state.hands[1]) == 4 and state.turn == 1 and state.picks == 1


def test_turn_skips_seats_with_empty_hands() -> None:
    state = JackarooState.new_game(Options.preset("classic", 4))
    state.apply_action(Chance(DEALER, 3))
    state.apply_action(Chance(SHUFFLE, tuple(range(52))))
    state.hands[1] = []
    state.hands[2] = []
    state._legal = None
    state.apply_action(state.legal_actions()[0])
    assert state.turn == 3
