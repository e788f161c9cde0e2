"""Every game keeps the :class:`~sahrat.game.GameState` contract (``sahrat/game.py``).

One module for every game of the registry: random games (the game's own bot
for most moves, a random listed action for the rest) at every seat count and
a few option sets, and at every step of each the interface's promises are
checked — cards conserved, listed actions legal, refusals explained and
harmless, views that hide what they must, ``determinize`` and ``clone``
faithful, seating, turns and results consistent, words for every move.

Each game is played once (a module-scoped fixture) and read by every test.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from sahrat.cards import BURACO_DECK, CODES, JACKAROO_DECK
from sahrat.errors import IllegalMove, MalformedInput, Reason
from sahrat.game import CHANCE, TERMINAL, Game, GameState, JSONObject
from sahrat.games import GAMES
from sahrat.simulation import SimSource

# -- what the interface does not expose: per game, the few fields read directly ----------


def _jackaroo_hidden(state: Any) -> list[int]:
    """The stock: the one place of a Jackaroo game no seat sees (nor ``full_view``)."""
    return list(state.stock)


def _buraco_hidden(state: Any) -> list[int]:
    """The stock and both mortos: the places of a Buraco table no seat sees."""
    return [*state.stock, *state.mortos[0], *state.mortos[1]]


@dataclass(frozen=True)
class Facts:
    """What the contract needs to know of a game beyond its descriptor."""

    deck: tuple[int, ...]
    #: The cards of the places no seat sees (neither a hand nor on the table).
    hidden: Callable[[Any], list[int]]
    #: Does ``legal_actions()`` list every legal action? (Buraco lists three-card melds
    #: and single-card additions; longer ones are legal but unlisted.)
    lists_everything: bool


FACTS = {
    "jackaroo": Facts(JACKAROO_DECK, _jackaroo_hidden, lists_everything=True),
    "buraco": Facts(BURACO_DECK, _buraco_hidden, lists_everything=False),
}

#: Option sets played, per game (each at every seat count).
OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "jackaroo": [{"preset": "sahrat"}, {"preset": "classic"}, {"preset": "complex"}],
    "buraco": [{}, {"sets": True}, {"closed": True}, {"target": 1000}],
}
SEEDS = range(2)
#: Share of moves chosen at random among the listed ones (the rest are the bot's).
RANDOM_SHARE = 0.25
MAX_STEPS = 5000
NAMES = {seat: f"P{seat}" for seat in range(4)}


def test_every_registered_game_is_covered() -> None:
    assert set(GAMES) == set(FACTS) == set(OPTION_SETS)


# -- playing a game once, keeping every position ------------------------------------------


@dataclass
class Step:
    """A position of the game, the seat to act (or CHANCE), and what was played there."""

    state: GameState
    actor: int
    action: Any


@dataclass
class Played:
    game: Game[Any]
    facts: Facts
    options: Any
    steps: list[Step]
    final: GameState

    def states(self) -> Iterator[GameState]:
        for step in self.steps:
            yield step.state
        yield self.final


def _play(name: str, seats: int, raw: dict[str, object], seed: int) -> Played:
    game = GAMES[name]
    options = game.options_from_json(raw, seats)
    rng = random.Random(seed)
    source = SimSource(seed)
    bot = game.bots.heuristic(random.Random(seed))
    state = game.new_game(options)
    steps: list[Step] = []
    while not state.is_terminal():
        assert len(steps) < MAX_STEPS, "the game does not end"
        actor = state.current_player()
        legal = state.legal_actions()
        if actor == CHANCE:
            action = rng.choice(legal) if legal else state.sample_chance(source)
        elif rng.random() < RANDOM_SHARE:
            action = rng.choice(legal)
        else:
            action = bot.choose(state)
        steps.append(Step(state.clone(), actor, action))
        state.apply_action(action)
    return Played(game, FACTS[name], options, steps, state)


CASES = [
    pytest.param((name, seats, raw, seed), id=f"{name}-{seats}-{json.dumps(raw)}-{seed}")
    for name, sets in OPTION_SETS.items()
    for seats in GAMES[name].seat_counts
    for raw in sets
    for seed in SEEDS
]


@pytest.fixture(scope="module", params=CASES)
def played(request: pytest.FixtureRequest) -> Played:
    return _play(*request.param)


# -- reading a position through the interface -----------------------------------------------


def _card_codes(obj: object) -> Iterator[str]:
    """Every card code in a JSON value."""
    if isinstance(obj, str):
        if obj in _CODE_SET:
            yield obj
    elif isinstance(obj, Mapping):
        for value in obj.values():
            yield from _card_codes(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from _card_codes(value)


_CODE_SET = frozenset(CODES)


def _codes(cards: list[int]) -> Counter[str]:
    return Counter(CODES[card] for card in cards)


def _public(state: GameState, seat: int, view: JSONObject | None = None) -> Counter[str]:
    """The cards ``seat``'s view (``view``, when already built) shows beyond its own hand."""
    shown = Counter(_card_codes(state.view(seat).to_json() if view is None else view))
    own = _codes(state.hand(seat))
    assert not own - shown, f"seat {seat}'s view does not show its hand"
    return shown - own


def snapshot(played: Played, state: GameState) -> tuple[Any, ...]:
    """Everything observable of ``state``, to compare before and after."""
    return (
        state.current_player(),
        state.turn_count(),
        state.is_terminal(),
        state.returns(),
        state.outcome(),
        tuple(state.legal_actions()),
        tuple(tuple(state.hand(seat)) for seat in state.seats),
        tuple(json.dumps(state.view(seat).to_json(), sort_keys=True) for seat in state.seats),
        tuple(played.facts.hidden(state)),
    )


def _decisions(played: Played) -> Iterator[Step]:
    return (step for step in played.steps if step.actor >= 0)


# -- the contract -----------------------------------------------------------------------------


def _everywhere(
    played: Played, state: GameState, seat: int, view: JSONObject | None = None
) -> Counter[str]:
    """Every card of ``state``: the hands, the table as ``seat`` sees it, the hidden places."""
    hands = sum((_codes(state.hand(s)) for s in state.seats), Counter[str]())
    return hands + _public(state, seat, view) + _codes(played.facts.hidden(state))


def test_cards_are_conserved(played: Played) -> None:
    deck = _codes(list(played.facts.deck))
    for state in played.states():
        every = _everywhere(played, state, state.seats[0])
        # Before the first deal no card is anywhere yet.
        assert every in (deck, Counter()), (every - deck, deck - every)


def test_every_seat_sees_the_same_table(played: Played) -> None:
    for state in played.states():
        tables = [_public(state, seat) for seat in state.seats]
        assert all(table == tables[0] for table in tables)
        for seat in state.seats:
            assert state.view(seat).seat == seat


def test_views_hide_what_determinize_may_change(played: Played) -> None:
    """A seat's view shows its hand and the table, nothing of the cards it cannot know:
    its codes are its hand and the table's, and re-dealing the rest leaves it equal."""
    changed = 0
    for number, state in enumerate(played.states()):
        for seat in state.seats:
            view = state.view(seat).to_json()
            shown = Counter(_card_codes(view))
            assert shown == _codes(state.hand(seat)) + _public(state, seat, view)
            unknown = _codes(played.facts.hidden(state)) + sum(
                (_codes(state.hand(s)) for s in state.seats if s != seat), Counter[str]()
            )
            knowable = _everywhere(played, state, seat, view) - unknown
            assert not shown - knowable, f"seat {seat} is shown {shown - knowable}"
            other = state.determinize(seat, SimSource(number))
            assert other.view(seat).to_json() == view
            changed += any(other.hand(s) != state.hand(s) for s in state.seats if s != seat)
    assert changed, "determinize never dealt another seat different cards"


def test_determinize_keeps_the_seats_position(played: Played) -> None:
    for number, step in enumerate(played.steps):
        state = step.state
        before = snapshot(played, state)
        seats = [step.actor] if step.actor >= 0 else list(state.seats)
        for seat in seats:
            other = state.determinize(seat, SimSource(number))
            assert other.hand(seat) == state.hand(seat)
            assert [len(other.hand(s)) for s in state.seats] == [
                len(state.hand(s)) for s in state.seats
            ]
            assert other.current_player() == state.current_player()
            assert other.turn_count() == state.turn_count()
            if seat == step.actor:
                assert other.legal_actions() == state.legal_actions()
            assert _everywhere(played, other, seat) == _everywhere(played, state, seat)
        assert snapshot(played, state) == before, "determinize changed the original"


def test_every_listed_action_applies(played: Played) -> None:
    for step in played.steps:
        state = step.state
        for action in state.legal_actions():
            assert state.why_illegal(action) is None, action
            state.clone().apply_action(action)
        # The one played (a bot's may be unlisted, a shuffle is never listed) is legal too.
        assert state.why_illegal(step.action) is None, step.action
        if played.facts.lists_everything and step.actor >= 0:
            assert step.action in state.legal_actions()


def _swapped_cards(state: GameState, action: Any) -> Iterator[Any]:
    """``action`` written with one of its cards replaced by a card another seat holds
    and the actor does not."""
    actor = state.current_player()
    text = str(action)
    own = {CODES[card] for card in state.hand(actor)}
    theirs = sorted(
        {CODES[card] for seat in state.seats if seat != actor for card in state.hand(seat)} - own
    )
    for word in dict.fromkeys(text.split()):
        if word in own and theirs:
            replaced = " ".join(theirs[0] if w == word else w for w in text.split())
            try:
                yield state.parse_action(replaced)
            except MalformedInput:
                continue


def _refusal_candidates(played: Played) -> Iterator[tuple[GameState, list[Any]]]:
    """Per position: a few actions listed or played elsewhere in the game, and listed
    actions written with a card of another seat."""
    recent: list[Any] = []
    for number, step in enumerate(played.steps):
        state = step.state
        legal = state.legal_actions()
        candidates = [action for action in recent if action not in legal]
        # One listed action per position, taken in turn.
        sample = [legal[number % len(legal)]] if legal else []
        if step.actor >= 0:
            candidates.extend(_swapped_cards(state, sample[0]))
        yield state, candidates
        recent = [step.action, *sample, *recent][:4]
    yield played.final, recent


def test_refused_actions_say_why_and_change_nothing(played: Played) -> None:
    refused: Counter[str] = Counter()
    for state, candidates in _refusal_candidates(played):
        before = snapshot(played, state)
        for action in candidates:
            reason = state.why_illegal(action)
            if reason is None:
                # Legal after all: it must then apply (and be listed where all are).
                if played.facts.lists_everything and state.current_player() >= 0:
                    assert action in state.legal_actions(), action
                state.clone().apply_action(action)
                continue
            refused[reason.code] += 1
            assert isinstance(reason, Reason)
            assert reason.code and reason.code.isidentifier(), reason
            with pytest.raises(IllegalMove) as error:
                state.apply_action(action)
            assert error.value.reason == reason, action
            assert snapshot(played, state) == before, f"refusing {action} changed the state"
    assert len(refused) >= 3, refused


def test_the_game_is_over_for_every_action(played: Played) -> None:
    final = played.final
    assert final.current_player() == TERMINAL
    assert not final.legal_actions()
    for step in played.steps[-8:]:
        assert final.why_illegal(step.action) == Reason("game_over")
        with pytest.raises(IllegalMove) as error:
            final.apply_action(step.action)
        assert error.value.reason == Reason("game_over")


def test_clone_is_independent(played: Played) -> None:
    snapshots = [snapshot(played, state) for state in played.states()]
    for number, step in enumerate(played.steps):
        state = step.state
        copy = state.clone()
        copy.apply_action(step.action)
        assert snapshot(played, state) == snapshots[number], "applying to a clone changed it"
        # Replaying the recorded action reaches the recorded position.
        assert snapshot(played, copy) == snapshots[number + 1]


def test_seats_and_sides_agree_with_the_descriptor(played: Played) -> None:
    seating = played.game.seating(played.options)
    assert len(seating.seats) == played.options.seats
    for state in played.states():
        assert state.seats == seating.seats
        for seat in seating.seats:
            assert state.side_of(seat) == seating.side_of(seat)


def test_turn_count_never_decreases_and_counts_changes_of_player(played: Played) -> None:
    last_count = played.steps[0].state.turn_count()
    last_player, last_turn = -1, -1
    for state in played.states():
        count = state.turn_count()
        assert count >= last_count
        last_count = count
        player = state.current_player()
        if player >= 0:
            if last_player >= 0 and player != last_player:
                assert count > last_turn, f"seat {player} follows {last_player} in one turn"
            last_player, last_turn = player, count


def test_returns_agree_with_the_outcome(played: Played) -> None:
    for step in played.steps:
        assert not step.state.is_terminal()
        assert step.state.outcome() is None
        assert all(step.state.returns()[seat] == 0 for seat in step.state.seats)
    final = played.final
    assert final.is_terminal()
    outcome = final.outcome()
    assert outcome is not None
    json.dumps(outcome.to_json())
    seating = played.game.seating(played.options)
    assert outcome.winners
    winning_side = seating.side_of(outcome.winners[0])
    assert set(outcome.winners) == set(seating.partners(outcome.winners[0]))
    for seat in final.seats:
        expected = 1.0 if seat in outcome.winners else -1.0
        assert final.returns()[seat] == expected
    assert sorted(seat for side in outcome.sides for seat in side.seats) == sorted(final.seats)
    for side in outcome.sides:
        side_number = seating.side_of(side.seats[0])
        assert set(side.seats) == set(seating.partners(side.seats[0]))
        assert side.result == (1 if side_number == winning_side else -1)


def test_full_view_shows_everything_on_the_table(played: Played) -> None:
    for state in played.states():
        full = played.game.full_view(state)
        json.dumps(full)
        shown = Counter(_card_codes(full))
        hands = sum((_codes(state.hand(seat)) for seat in state.seats), Counter[str]())
        assert shown == hands + _public(state, state.seats[0])


def test_every_player_action_has_words(played: Played) -> None:
    game = played.game
    for step in _decisions(played):
        state = step.state
        name = NAMES[step.actor]
        for action in {*state.legal_actions(), step.action}:
            words = game.describe(state, step.actor, action, NAMES)
            assert words.en.strip() and words.ar.strip(), action
            assert words.en.startswith(name) and words.ar.startswith(name)
            assert words.en != f"{name} played", f"no words for {action}"
        # Said only with what every seat may know: the other hands do not matter.
        words = game.describe(state, step.actor, step.action, NAMES)
        other = state.determinize(step.actor, SimSource(step.actor))
        assert game.describe(other, step.actor, step.action, NAMES) == words
        assert state.view(step.actor).to_json() == other.view(step.actor).to_json()


# -- the descriptors ------------------------------------------------------------------------

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_default_options_round_trip(name: str) -> None:
    game = GAMES[name]
    catalogue = game.catalogue()
    assert json.loads(json.dumps(catalogue)) == catalogue
    assert catalogue["name"] == name
    assert catalogue["seats"] == list(game.seat_counts)
    defaults = game.options_from_json(catalogue["defaults"])
    assert defaults.to_json() == catalogue["defaults"]
    assert game.options_from_json(defaults.to_json()) == defaults
    assert game.options_from_json(None) == defaults
    assert defaults.seats == game.seat_counts[0]
    assert catalogue["defaults"][catalogue["seat_option"]] == game.seat_counts[0]


def _presets(name: str) -> list[dict[str, object]]:
    presets = GAMES[name].catalogue()["presets"]
    return [{"preset": preset} for preset in presets] or [{}]


@pytest.mark.parametrize(
    ("name", "raw", "seats"),
    [
        (name, raw, seats)
        for name in GAME_NAMES
        for raw in _presets(name)
        for seats in GAMES[name].seat_counts
    ],
)
def test_every_preset_works_at_every_seat_count(
    name: str, raw: dict[str, object], seats: int
) -> None:
    game = GAMES[name]
    options = game.options_from_json(raw, seats)
    assert options.seats == seats
    assert game.options_from_json(options.to_json()) == options
    seating = game.seating(options)
    assert len(seating.seats) == seats
    state = game.new_game(options)
    source = SimSource(seats)
    while state.current_player() == CHANCE:
        legal = state.legal_actions()
        state.apply_action(legal[0] if legal else state.sample_chance(source))
    assert state.seats == seating.seats
    assert state.current_player() in seating.seats
    assert all(state.hand(seat) for seat in seating.seats)
    assert state.legal_actions()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_offered_choice_is_accepted(name: str) -> None:
    game = GAMES[name]
    for key, values in game.catalogue()["choices"].items():
        for value in values:
            options = game.options_from_json({key: value})
            assert game.options_from_json(options.to_json()) == options
            assert options.to_json().get(key, value) == value


def _bad_options(name: str) -> list[tuple[object, int | None]]:
    catalogue = GAMES[name].catalogue()
    seat_option = catalogue["seat_option"]
    bad: list[tuple[object, int | None]] = [
        ([], None),
        ("sahrat", None),
        (3, None),
        ({"no_such_option": True}, None),
        ({seat_option: 3}, None),
        ({seat_option: "four"}, None),
        ({}, 3),
        ({}, 0),
        ({"preset": "no_such_preset"}, None),
    ]
    for key, values in catalogue["choices"].items():
        bad.append(({key: "no-such-value"}, None))
        if all(isinstance(value, bool) for value in values):
            bad.append(({key: 1}, None))
        else:
            bad.append(({key: True}, None))
    return bad


@pytest.mark.parametrize(
    ("name", "obj", "seats"),
    [(name, obj, seats) for name in GAME_NAMES for obj, seats in _bad_options(name)],
)
def test_bad_options_are_malformed(name: str, obj: object, seats: int | None) -> None:
    with pytest.raises(MalformedInput):
        GAMES[name].options_from_json(obj, seats)
