"""The notation is exact: a text is accepted only when it is the engine's own text of it.

Case and spacing variants are refused (with the canonical form in the message)
so that a record, the ``legal`` strings and what a client sends are one string
per action, compared as they are.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sahrat.cards import BURACO_DECK
from sahrat.errors import MalformedInput
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction, parse_action
from sahrat.games.buraco.setup import from_table

from .helpers import RandomModuleSource, deal_first_hand, snapshot

#: One canonical text of every kind of action.
CANONICAL = [
    "dealer 2",
    "shuffle AS 2S JK",
    "draw",
    "take",
    "take meld QS QH",
    "take add 2",
    "take add 2 8C",
    "take add 10 8C JK",
    "meld 5C 6C 7C",
    "meld 7C 5C 6C",  # the order is the player's; the engine arranges the meld
    "add 2 7C 8C",
    "add 0 JK",
    "discard 9S",
    "discard JK",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_is_accepted_and_written_back(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" draw", "draw"),
        ("draw ", "draw"),
        ("\tdraw", "draw"),
        ("draw\n", "draw"),
        ("draw\r\n", "draw"),
        (" take ", "take"),
        ("meld  5C 6C 7C", "meld 5C 6C 7C"),
        ("meld 5C 6C  7C", "meld 5C 6C 7C"),
        ("meld\t5C 6C 7C", "meld 5C 6C 7C"),
        ("meld 5C\n6C 7C", "meld 5C 6C 7C"),
        ("meld 5C\u00a06C 7C", "meld 5C 6C 7C"),
        ("  add 1  7C ", "add 1 7C"),
        ("add 1 7C\n", "add 1 7C"),
        ("take  meld QS QH", "take meld QS QH"),
        ("take meld\tQS QH", "take meld QS QH"),
        ("take add 2 ", "take add 2"),
        ("take add  2 8C", "take add 2 8C"),
        ("discard 9S ", "discard 9S"),
        (" discard 9S", "discard 9S"),
        ("dealer  2", "dealer 2"),
        ("shuffle AS  2S", "shuffle AS 2S"),
    ],
)
def test_padded_text_is_refused_naming_the_canonical_form(text: str, canonical: str) -> None:
    with pytest.raises(MalformedInput, match="exact notation") as raised:
        parse_action(text)
    assert repr(canonical) in str(raised.value)
    assert raised.value.text == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Draw", "draw"),
        ("DRAW", "draw"),
        ("Take", "take"),
        ("discard 9s", "discard 9S"),
        ("Discard 9S", "discard 9S"),
        ("discard jk", "discard JK"),
        ("discard Jk", "discard JK"),
        ("meld 5c 6C 7C", "meld 5C 6C 7C"),
        ("MELD 5C 6C 7C", "meld 5C 6C 7C"),
        ("add 1 7c", "add 1 7C"),
        ("Add 1 7C", "add 1 7C"),
        ("take Meld QS QH", "take meld QS QH"),
        ("TAKE MELD qs qh", "take meld QS QH"),
        ("take ADD 2", "take add 2"),
        ("take add 2 8c", "take add 2 8C"),
        ("Dealer 2", "dealer 2"),
        ("SHUFFLE AS", "shuffle AS"),
        ("shuffle as", "shuffle AS"),
    ],
)
def test_wrong_case_is_refused_naming_the_canonical_form(text: str, canonical: str) -> None:
    with pytest.raises(MalformedInput, match="exact notation") as raised:
        parse_action(text)
    assert repr(canonical) in str(raised.value)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("add 02 7C", "add 2 7C"),
        ("take add 00", "take add 0"),
        ("dealer 01", "dealer 1"),
    ],
)
def test_an_index_with_leading_zeros_is_refused(text: str, canonical: str) -> None:
    with pytest.raises(MalformedInput, match="exact notation") as raised:
        parse_action(text)
    assert repr(canonical) in str(raised.value)


@pytest.mark.parametrize("text", ["", " ", "\n", "\t \t"])
def test_blank_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedInput):
        parse_action(text)


def test_the_state_refuses_a_padded_text_and_changes_nothing() -> None:
    state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C 9D", "8H 9H TH"], discard_pile="3H")
    state.apply_action("draw")
    before = snapshot(state)
    for text in (" meld 5C 6C 7C", "meld 5C 6C 7C ", "meld  5C 6C 7C", "Meld 5C 6C 7C"):
        with pytest.raises(MalformedInput):
            state.apply_action(text)
        with pytest.raises(MalformedInput):
            state.parse_action(text)
        assert snapshot(state) == before
    state.apply_action("meld 5C 6C 7C")
    assert state.melds[0]


# -- property: every listed action, in random positions -------------------------------------

#: Whitespace a sender might pad with, including what ``str.split`` would swallow.
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", " \t"]


def _reached(options: BuracoOptions, seed: int, steps: int) -> tuple[BuracoState, random.Random]:
    """A position ``steps`` random actions (chance steps included) into a match."""
    state, source = deal_first_hand(options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, rng


def _some_action(state: BuracoState, rng: random.Random) -> BuracoAction | None:
    if state.is_terminal():
        return None
    if state.current_player() == CHANCE:
        return state.sample_chance(RandomModuleSource(rng.randrange(2**32)))
    return rng.choice(state.legal_actions())


def _mutations(text: str, rng: random.Random) -> list[str]:
    """Spellings of ``text`` that only change its spacing or case."""
    out = [
        rng.choice(SPACES) + text,
        text + rng.choice(SPACES),
        rng.choice(SPACES) + text + rng.choice(SPACES),
    ]
    gaps = [i for i, char in enumerate(text) if char == " "]
    if gaps:
        gap = rng.choice(gaps)
        out.append(text[:gap] + rng.choice(SPACES[1:]) + text[gap + 1 :])
        out.append(text.replace(" ", "  "))
    letters = [i for i, char in enumerate(text) if char.isalpha()]
    flip = rng.choice(letters)
    out.append(text[:flip] + text[flip].swapcase() + text[flip + 1 :])
    out.append(text.swapcase())
    return out


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from([2, 4]),
    sets=st.booleans(),
    closed=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 250),
)
def test_listed_actions_round_trip_and_respaced_ones_are_refused(
    players: int, sets: bool, closed: bool, seed: int, steps: int
) -> None:
    options = BuracoOptions(seats=players, sets=sets, closed=closed)
    state, rng = _reached(options, seed, steps)
    action = _some_action(state, rng)
    if action is None:
        return
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text
    copy = state.clone()
    copy.apply_action(text)  # the text of a listed action plays as the action does
    before = snapshot(state)
    for variant in _mutations(text, rng):
        assert variant != text
        with pytest.raises(MalformedInput):
            parse_action(variant)
        with pytest.raises(MalformedInput):
            state.apply_action(variant)
    assert snapshot(state) == before


@given(st.permutations(BURACO_DECK))
def test_a_shuffle_text_round_trips_and_respaced_is_refused(order: list[int]) -> None:
    text = str(act.shuffle(order))
    assert str(parse_action(text)) == text
    for variant in (text + " ", " " + text, text.replace(" ", "  ", 1), text.lower()):
        with pytest.raises(MalformedInput):
            parse_action(variant)


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 2**32 - 1))
def test_chance_steps_round_trip_and_respaced_ones_are_refused(players: int, seed: int) -> None:
    state = BuracoState(BuracoOptions(seats=players))
    source = RandomModuleSource(seed)
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        text = str(state.sample_chance(source))
        assert str(parse_action(text)) == text
        for variant in _mutations(text, rng):
            with pytest.raises(MalformedInput):
                state.apply_action(variant)
        state.apply_action(text)
