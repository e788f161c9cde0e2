"""Setting up a hand (buraco.md §3) and the chance steps (fairness.md)."""

from __future__ import annotations

import random

import pytest

from sahrat.cards import BURACO_DECK
from sahrat.errors import IllegalMove
from sahrat.fairness import FairSource, Seeds, Stream
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.deal import deal_cards
from sahrat.games.buraco.table import UNTAKEN

from .helpers import RandomModuleSource, play_random


def test_deal_eleven_each_one_at_a_time_starting_after_the_dealer() -> None:
    order = list(range(108))  # positions stand for cards here
    deal = deal_cards(order, players=4, dealer=1)
    assert deal.hands[2] == list(range(0, 44, 4))
    assert deal.hands[3] == list(range(1, 44, 4))
    assert deal.hands[0] == list(range(2, 44, 4))
    assert deal.hands[1] == list(range(3, 44, 4))


def test_two_players_deal_alternately() -> None:
    deal = deal_cards(list(range(108)), players=2, dealer=0)
    assert deal.hands[1] == list(range(0, 22, 2))
    assert deal.hands[0] == list(range(1, 22, 2))


def test_mortos_then_one_card_up_then_the_stock() -> None:
    deal = deal_cards(list(range(108)), players=4, dealer=0)
    assert deal.mortos == [list(range(44, 55)), list(range(55, 66))]
    assert deal.discard == 66
    assert deal.stock == list(range(67, 108))


def test_first_dealer_drawn_with_label_dealer() -> None:
    state = BuracoState(BuracoOptions(seats=4))
    assert state.current_player() == CHANCE
    assert state.legal_actions() == tuple(act.pick_dealer(seat) for seat in range(4))
    source = RandomModuleSource(3)
    action = state.sample_chance(source)
    assert source.labels == ["dealer"]
    assert action == act.pick_dealer(random.Random(3).randrange(4))


def test_shuffle_is_a_chance_step_with_no_listed_outcomes() -> None:
    state = BuracoState(BuracoOptions(seats=2), dealer=0)
    assert state.current_player() == CHANCE
    assert state.legal_actions() == ()


def test_fair_shuffle_uses_label_shuffle_0_and_the_buraco_deck() -> None:
    seeds = Seeds(bytes(range(32)), "demo-1", ("alice", "bob", "carol", "dave"))
    state = BuracoState(BuracoOptions(seats=4))
    source = FairSource(seeds)
    state.apply_action(state.sample_chance(source))
    action = state.sample_chance(source)
    expected = list(BURACO_DECK)
    Stream(seeds, "shuffle/0").shuffle(expected)
    assert action == act.shuffle(expected)
    assert Stream(seeds, "dealer").uniform(4) == state.dealer


def test_kth_shuffle_of_the_match_uses_label_shuffle_k() -> None:
    state = BuracoState(BuracoOptions(seats=2, target=3000), dealer=0)
    source = RandomModuleSource(5)
    play_random(state, source, random.Random(5), hands=2)
    assert [label for label in source.labels if label.startswith("shuffle")] == [
        "shuffle/0",
        "shuffle/1",
    ]


def test_player_after_the_dealer_starts() -> None:
    state = BuracoState(BuracoOptions(seats=4), dealer=3)
    state.apply_action(act.shuffle(BURACO_DECK))
    assert state.current_player() == 0
    assert state.phase_name == "draw"


def test_dealt_hand_matches_the_order() -> None:
    state = BuracoState(BuracoOptions(seats=2), dealer=1)
    state.apply_action(act.shuffle(BURACO_DECK))
    deal = deal_cards(BURACO_DECK, players=2, dealer=1)
    assert state.hand(0) == sorted(deal.hands[0])
    assert state.pile == [deal.discard]
    assert state.stock[::-1] == deal.stock
    assert state.mortos == deal.mortos
    assert state.morto_status == [UNTAKEN, UNTAKEN]
    assert state.stock_size == 108 - 22 - 22 - 1


def test_dealer_moves_one_seat_each_hand() -> None:
    state = BuracoState(BuracoOptions(seats=4, target=3000), dealer=2)
    source = RandomModuleSource(9)
    play_random(state, source, random.Random(9), hands=1)
    assert state.phase_name == "shuffle"
    assert state.dealer == 3
    state.apply_action(state.sample_chance(source))
    assert state.current_player() == 0


def test_shuffle_that_is_not_the_deck_is_illegal() -> None:
    state = BuracoState(BuracoOptions(seats=2), dealer=0)
    wrong = list(BURACO_DECK)
    wrong[0] = wrong[1]
    with pytest.raises(IllegalMove):
        state.apply_action(act.shuffle(wrong))
    with pytest.raises(IllegalMove):
        state.apply_action(act.shuffle(BURACO_DECK[:-1]))
    assert state.current_player() == CHANCE and state.hand_number == 0


def test_chance_steps_only_at_chance_nodes() -> None:
    state = BuracoState(BuracoOptions(seats=2), dealer=0)
    with pytest.raises(IllegalMove):
        state.apply_action(act.pick_dealer(1))
    with pytest.raises(IllegalMove):
        state.apply_action(act.draw())
    state.apply_action(act.shuffle(BURACO_DECK))
    with pytest.raises(IllegalMove):
        state.apply_action(act.shuffle(BURACO_DECK))
    with pytest.raises(IllegalMove):
        state.sample_chance(RandomModuleSource())


def test_record_of_texts_replays_the_hand() -> None:
    state = BuracoState(BuracoOptions(seats=4, sets=True))
    record = play_random(state, RandomModuleSource(2), random.Random(2), hands=1)
    replay = BuracoState(BuracoOptions(seats=4, sets=True))
    for action in record:
        replay.apply_action(replay.parse_action(str(action)))
    assert replay.results == state.results
    assert replay.view(0) == state.view(0)
