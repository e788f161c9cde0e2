"""The action text form: every action round-trips, bad text is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sahrat.cards import BURACO_DECK, JOKER
from sahrat.errors import MalformedInput
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction, check_shape, parse_action

from .helpers import c


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", act.draw()),
        ("take", act.take()),
        ("discard 9S", act.discard(c("9S")[0])),
        ("meld 5C 6C 7C", act.meld(c("5C 6C 7C"))),
        ("add 2 7C", act.add(2, c("7C"))),
        ("add 0 7C JK", act.add(0, c("7C JK"))),
        ("take meld QS QH", act.take_meld(c("QS QH"))),
        ("take add 2", act.take_add(2)),
        ("take add 2 8C", act.take_add(2, c("8C"))),
        ("dealer 3", act.pick_dealer(3)),
    ],
)
def test_action_text_round_trips(text: str, action: BuracoAction) -> None:
    assert parse_action(text) == action
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_shuffle_text_carries_the_whole_order() -> None:
    action = act.shuffle(BURACO_DECK)
    text = str(action)
    assert text.startswith("shuffle AS 2S 3S")
    assert text.endswith("KC JK JK JK JK")
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pass",
        "draw 5C",
        "discard",
        "discard 5C 6C",
        "discard XX",
        "meld",
        "add 7C",
        "add -1 7C",
        "add x 7C",
        "add 1",
        "take meld",
        "take add",
        "take 5C",
        "dealer",
        "dealer 1 2",
        "shuffle",
    ],
)
def test_malformed_action_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedInput):
        parse_action(text)


@pytest.mark.parametrize(
    "action",
    [
        BuracoAction(act.DRAW, 1),
        BuracoAction(act.DISCARD, -1, (1, 2)),
        BuracoAction(act.MELD, -1, ()),
        BuracoAction(act.ADD, -1, (3,)),
        BuracoAction(act.MELD, -1, (99,)),
        BuracoAction(42),
    ],
)
def test_badly_built_actions_are_refused(action: BuracoAction) -> None:
    with pytest.raises(MalformedInput):
        check_shape(action)


cards = st.lists(st.integers(0, JOKER), min_size=1, max_size=9).map(tuple)
actions = st.one_of(
    st.just(act.draw()),
    st.just(act.take()),
    st.integers(0, JOKER).map(act.discard),
    cards.map(act.meld),
    st.builds(act.add, st.integers(0, 30), cards),
    cards.map(act.take_meld),
    st.builds(act.take_add, st.integers(0, 30), st.lists(st.integers(0, JOKER), max_size=3)),
    st.integers(0, 3).map(act.pick_dealer),
    st.permutations(BURACO_DECK).map(act.shuffle),
)


@given(actions)
def test_every_action_round_trips_through_text(action: BuracoAction) -> None:
    check_shape(action)
    assert parse_action(str(action)) == action
