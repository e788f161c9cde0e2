"""The shared game interface (design.md §1) on Jackaroo states."""

from __future__ import annotations

import random

import pytest

from sahrat.cards import CODES
from sahrat.errors import GameOver, IllegalMove, MalformedInput
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.jackaroo import JackarooState, Move, Options, from_position, parse_action
from sahrat.simulation import SimSource


def midgame(seed: int, moves: int = 60, preset: str = "sahrat") -> JackarooState:
    rng, source = random.Random(seed), SimSource(seed)
    state = JackarooState.new_game(Options.preset(preset, 4))
    played = 0
    while played < moves and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            played += 1
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(source))
    return state


def test_new_game_starts_at_a_chance_node() -> None:
    state = JackarooState.new_game()
    assert state.current_player() == CHANCE
    assert not state.is_terminal()
    assert state.returns() == (0.0, 0.0, 0.0, 0.0)


def test_apply_to_a_clone_leaves_the_original_untouched() -> None:
    state = midgame(1)
    before = state.view(state.turn), state.loc[:], [h[:] for h in state.hands], state.stock[:]
    for move in state.legal_actions():
        state.clone().apply_action(move)
    assert (state.view(state.turn), state.loc, state.hands, state.stock) == before


def test_view_shows_own_hand_and_only_sizes_of_the_others() -> None:
    state = midgame(2)
    for seat in state.seats:
        view = state.view(seat).to_json()
        assert view["seat"] == seat
        assert view["hands"][str(seat)] == [CODES[c] for c in state.hands[seat]]
        hidden = {CODES[c] for other in state.seats if other != seat for c in state.hands[other]}
        hidden |= {CODES[c] for c in state.stock}
        shown = set(view["hands"][str(seat)]) | set(view["discard"])
        assert not hidden & shown
        assert not any(code in repr(view) for code in hidden)
        assert view["stock"] == len(state.stock)


def test_determinize_keeps_what_the_seat_knows_and_deals_the_rest() -> None:
    state = midgame(3)
    seat = state.turn
    for trial in range(5):
        world = state.determinize(seat, SimSource(trial))
        assert world.view(seat) == state.view(seat)
        assert world.hands[seat] == state.hands[seat]
        assert world.discard == state.discard
        cards = world.stock + world.discard + [c for s in world.seats for c in world.hands[s]]
        assert sorted(cards) == list(range(52))
        assert world.legal_actions() == state.legal_actions()


def test_determinize_varies_the_hidden_cards() -> None:
    state = midgame(4)
    seat = state.turn
    other = state.rules.next_seat[seat]
    hands = {tuple(state.determinize(seat, SimSource(i)).hands[other]) for i in range(10)}
    assert len(hands) > 1


def test_returns_at_the_end() -> None:
    rng, source = random.Random(5), SimSource(5)
    state = JackarooState.new_game(Options.preset("classic", 4))
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == TERMINAL
    winners = state.winners()
    assert len(winners) == 2 and winners[1] == winners[0] + 2
    assert [state.returns()[s] for s in range(4)] == [
        1.0 if s in winners else -1.0 for s in range(4)
    ]
    with pytest.raises(GameOver):
        state.apply_action(Move.parse("AS b0-t0"))


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    state = midgame(6)
    before = state.view(state.turn)
    not_held = next(c for c in range(52) if c not in state.hands[state.turn])
    with pytest.raises(IllegalMove, match="does not hold"):
        state.apply_action(Move(not_held, 4))
    with pytest.raises(IllegalMove):
        state.move_from_text("9S t1-t10" if state.turn else "9S t20-t29")
    with pytest.raises(MalformedInput):
        state.move_from_text("9S t1-t99")
    assert state.view(state.turn) == before


def test_parse_action_reads_moves_and_chance_outcomes() -> None:
    state = JackarooState.new_game()
    for text in ["7C t5-t8 t20-t24", "JH t5~t40", "TD burn", "9S discard", "discard-all",
                 "KC b0-t0", "3S t74-h0.2", "dealer 2", "pick 3", "shuffle AS 2S"]:  # fmt: skip
        assert str(state.parse_action(text)) == text
        assert str(parse_action(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "7C", "7C t5", "XX t1-t2", "7C t5-t80", "QH t5-t17 t1-t2", "AS b4-t0", "9S burnt",
     "7C t5-t8  t20-t24", "pick", "pick x", "dealer -1", "shuffle ZZ", "t5-t6 AS"],
)  # fmt: skip
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(MalformedInput):
        parse_action(text)


def test_a_position_cannot_deal_so_its_turn_ends_waiting() -> None:
    state = from_position({
        "turn": 0,
        "marbles": {"0": ["t3", "b", "b", "b"], "1": ["b"] * 4, "2": ["b"] * 4, "3": ["b"] * 4},
        "hands": {"0": ["5S"], "1": 0, "2": 0, "3": 0},
    })  # fmt: skip
    state.apply_action(state.move_from_text("5S t3-t8"))
    assert state.current_player() == -2
    assert state.legal_actions() == ()


def test_states_and_actions_survive_pickling() -> None:
    # Search runs in worker processes: states go there and actions come back by pickle.
    import pickle

    state = midgame(7)
    state.legal_actions()  # with its cache of Move objects
    copy = pickle.loads(pickle.dumps(state))
    assert copy.view(copy.turn) == state.view(state.turn)
    assert copy.legal_actions() == state.legal_actions()
    for action in [*state.legal_actions(), parse_action("dealer 1"), parse_action("shuffle AS")]:
        assert pickle.loads(pickle.dumps(action)) == action
        assert type(pickle.loads(pickle.dumps(action))) is type(action)
