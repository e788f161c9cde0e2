"""Random games of every preset and both seat counts, with invariants after every move."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sahrat.cards import CODES
from sahrat.errors import IllegalMove, MalformedInput
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.jackaroo import JackarooState, Move, Options, parse_position, to_position
from sahrat.games.jackaroo.actions import MOVE, SPLIT, SWAP, Chance
from sahrat.games.jackaroo.board import BASE0, HOME0, TRACK
from sahrat.games.jackaroo.options import CHOICES, PRESETS
from sahrat.games.jackaroo.state import occupancy_mask
from sahrat.simulation import SimSource

CONFIGS = [(preset, seats) for preset in PRESETS for seats in (4, 2)]


def snapshot(state: JackarooState) -> tuple[object, ...]:
    return (
        state.loc[:], state.occ[:], state.mask, [h[:] for h in state.hands], state.stock[:],
        state.discard[:], state.turn, state.dealer, state.pending, state.winner, state.round,
        state.shuffles, state.picks,
    )  # fmt: skip


def check_invariants(state: JackarooState) -> None:
    check_board(state)  # loc, occ and the mask agree; no two marbles on a square
    seats = state.seats
    marbles = [q for s in seats for q in state.loc[s * 4 : s * 4 + 4]]
    assert len(marbles) == 4 * len(seats)
    on_board = [q for q in marbles if q < BASE0]
    assert len(on_board) == len(set(on_board))
    cards = Counter(state.stock + state.discard + [c for s in seats for c in state.hands[s]])
    assert sorted(cards) == list(range(52)) and set(cards.values()) == {1}


def unlisted_moves(state: JackarooState, rng: random.Random) -> list[Move]:
    """Well-formed moves that are not legal here: shifted destinations, foreign cards."""
    legal = set(state.legal_actions())
    out = []
    for move in state.legal_actions()[:5]:
        card, kind, a, b, c, d = move
        if kind in (MOVE, SWAP) and b < TRACK:
            out.append(Move(card, kind, a, (b + 1 + rng.randrange(5)) % TRACK))
        if kind == SPLIT:
            out.append(Move(card, kind, c, d, a, b))
    foreign = [c for c in range(52) if c not in state.hands[state.turn]]
    out.append(Move(rng.choice(foreign), MOVE, BASE0 + state.turn, 19 * state.turn))
    return [m for m in out if m not in legal]


def play_checked(preset: str, seats: int, seed: int) -> int:
    rng = random.Random(seed)
    source = SimSource(seed)
    state = JackarooState.new_game(Options.preset(preset, seats))
    moves = 0
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            chance = state.sample_chance(source)
            assert Chance.parse(str(chance)) == chance
            state.apply_action(chance)
            continue
        check_invariants(state)
        legal = state.legal_actions()
        assert legal, "a seat to move always has a move or a burn"
        assert len(set(map(str, legal))) == len(legal), "no move is listed twice"
        before = snapshot(state)
        # Every listed move applies, on a clone, and leaves the original untouched.
        for move in legal if len(legal) <= 12 else rng.sample(legal, 12):
            assert Move.parse(str(move)) == move
            state.clone().apply_action(move)
        for move in unlisted_moves(state, rng):
            with pytest.raises(IllegalMove):
                state.apply_action(move)
        assert snapshot(state) == before
        check_unlisted_state_agrees(state, legal, rng)
        check_view(state, player)
        state.apply_action(rng.choice(legal))
        moves += 1
    check_invariants(state)
    assert state.legal_actions() == ()
    winners = set(state.winners())
    assert all(HOME0 <= q < BASE0 for s in winners for q in state.loc[s * 4 : s * 4 + 4])
    assert sum(state.returns()) == 0
    return moves


def check_unlisted_state_agrees(
    state: JackarooState, legal: tuple[Move, ...], rng: random.Random
) -> None:
    """A state that has not listed its moves checks a move against its card's own moves
    only; it must accept and refuse exactly what the full list does."""
    fresh = parse_position(to_position(state, state.seats)).state
    for move in legal if len(legal) <= 6 else rng.sample(legal, 6):
        fresh.clone().apply_action(move)
    for move in unlisted_moves(state, rng):
        probe = fresh.clone()
        with pytest.raises(IllegalMove):
            probe.apply_action(move)


def check_view(state: JackarooState, seat: int) -> None:
    view = state.view(seat).to_json()
    text = repr(view)
    for other in state.seats:
        if other != seat:
            assert view["hands"][str(other)] == len(state.hands[other])
            for card in state.hands[other]:
                assert f"'{CODES[card]}'" not in text
    assert view["stock"] == len(state.stock)
    assert view["hands"][str(seat)] == [CODES[c] for c in state.hands[seat]]


@pytest.mark.parametrize(("preset", "seats"), CONFIGS)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_every_invariant(preset: str, seats: int, seed: int) -> None:
    assert play_checked(preset, seats, seed) > 0


@pytest.mark.parametrize(("preset", "seats"), CONFIGS)
def test_many_random_games_end(preset: str, seats: int) -> None:
    rng = random.Random(f"{preset}{seats}")
    source = SimSource(rng)
    for _ in range(25):
        state = JackarooState.new_game(Options.preset(preset, seats))
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(source))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < 20_000
        check_invariants(state)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    steps=st.integers(min_value=0, max_value=400),
    config=st.sampled_from(CONFIGS),
)
def test_positions_round_trip_through_json(seed: int, steps: int, config: tuple[str, int]) -> None:
    rng = random.Random(seed)
    source = SimSource(seed)
    state = JackarooState.new_game(Options.preset(*config))
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    position = to_position(state, state.seats)
    parsed = parse_position(position)
    again = to_position(parsed.state, state.seats)
    position.pop("stock", None)
    assert again == position
    if state.turn >= 0 and not state.is_terminal():
        assert sorted(map(str, parsed.state.legal_moves())) == sorted(map(str, state.legal_moves()))


option_sets = st.fixed_dictionaries(
    {key: st.sampled_from(values) for key, values in CHOICES.items()}
)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seats=st.sampled_from((2, 4)),
    overrides=option_sets,
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_any_combination_of_options_plays_to_the_end(
    preset: str, seats: int, overrides: dict[str, object], seed: int
) -> None:
    options = Options.preset(preset, seats, **overrides)
    assert Options.from_json(options.to_json()) == options
    rng = random.Random(seed)
    source = SimSource(seed)
    state = JackarooState.new_game(options)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        legal = state.legal_actions()
        assert legal
        move = rng.choice(legal)
        assert Move.parse(str(move)) == move
        state.apply_action(move)
        check_invariants(state)


def check_board(state: JackarooState) -> None:
    """Raise :class:`MalformedInput` if ``loc`` and ``occ`` disagree ."""
    for m, q in enumerate(state.loc):
        if (m >> 2) not in state.rules.order:
            continue
        if q < BASE0 and state.occ[q] != m:
            raise MalformedInput(f"marble {m} on {q} but the square holds {state.occ[q]}")
        if HOME0 <= q < BASE0 and (q - HOME0) // 4 != m >> 2:
            raise MalformedInput(f"marble {m} in another seat's home lane")
    for q, m in enumerate(state.occ):
        if m >= 0 and state.loc[m] != q:
            raise MalformedInput(f"square {q} holds marble {m} which is on {state.loc[m]}")
    if state.mask != occupancy_mask(state.occ):
        raise MalformedInput("the occupancy mask disagrees with the board")
