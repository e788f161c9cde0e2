"""Why a move is refused: a code a client words in its own language, never engine English.

Every refusal of the engines carries a :class:`~sahrat.errors.Reason`: a code
the browser client translates (``refusal.<code>`` in ``web/i18n.js``) and
params that hold no more than the player who sent the action may know — a card
of their own hand or of the table, or one they named themselves.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import sahrat
from sahrat.cards import CODES, JOKER, card_label, parse_card, parse_cards
from sahrat.errors import IllegalMove, MalformedInput, Reason
from sahrat.game import CHANCE, GameState
from sahrat.games import GAMES
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import MELD_FAULTS, arrange, meld_fault
from sahrat.games.buraco.setup import from_table
from sahrat.games.jackaroo import Options, from_position
from sahrat.games.jackaroo.actions import PICK, Chance
from sahrat.simulation import SimSource
from tests.jackaroo.rule_helpers import position
from tests.test_move_words import NOTATION

PACKAGE = Path(sahrat.__file__).parent
CODE = re.compile(r"[a-z]+(?:_[a-z]+)*")
CARD_CODES = frozenset(CODES)
VERBS = frozenset({"meld", "discard"})


def engine_codes() -> set[str]:
    """Every code an engine's source gives a :class:`Reason`, and the default ``illegal``."""
    found = {"illegal"}
    for path in (PACKAGE / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and (
                    (isinstance(node.func, ast.Name) and node.func.id == "Reason")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "of")
                )
            ):
                found.add(node.args[0].value)
    return found


def client_words() -> dict[str, tuple[str, str]]:
    """The browser client's ``refusal.*`` words: code (or code.verb) to (Arabic, English)."""
    text = (PACKAGE / "web" / "i18n.js").read_text(encoding="utf-8")
    pattern = re.compile(r'"refusal\.([\w.]+)":\s*\["([^"]*)",\s*"([^"]*)"\]')
    return {key: (ar, en) for key, ar, en in pattern.findall(text)}


def test_the_engines_give_reasons() -> None:
    # The scan finds what the engines raise: a check on the check.
    codes = engine_codes()
    assert {"card_not_held", "draw_first", "last_card_stuck", "game_over"} <= codes


@pytest.mark.parametrize("code", sorted(engine_codes()))
def test_every_reason_code_has_client_words(code: str) -> None:
    assert CODE.fullmatch(code), f"{code!r} is not a code"
    words = client_words()
    assert code in words, f"web/i18n.js has no refusal.{code}"
    arabic, english = words[code]
    assert re.search(r"[\u0600-\u06ff]", arabic) and english.strip()


# -- representative refusals --------------------------------------------------------------


def jackaroo(**layout: Any) -> GameState:
    return from_position(position(**layout))


def jackaroo_over() -> GameState:
    game = GAMES["jackaroo"]
    state = game.new_game(game.options_from_json({"preset": "sahrat"}, 2))
    source, rng = SimSource(3), random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if legal else state.sample_chance(source))
    return state


TWO = BuracoOptions(seats=2)
CLOSED = BuracoOptions(seats=2, closed=True)


def buraco(options: BuracoOptions = TWO, **layout: Any) -> GameState:
    layout.setdefault("hands", ["5C 6C 7C 9D", "KS KH QD"])
    layout.setdefault("discard_pile", "3H")
    return from_table(options, **layout)


def buraco_over() -> GameState:
    # The stock and both mortos are gone: the hand ends as the turn begins, and 1500
    # points already reach the target.
    state = buraco(
        BuracoOptions(seats=2, target=1000),
        rest="pile",
        mortos=([], []),
        morto_status=("stock", "stock"),
        totals=(1500, 0),
    )
    assert state.is_terminal()
    return state


def buraco_between_hands() -> GameState:
    state = buraco(rest="pile", mortos=([], []), morto_status=("stock", "stock"))
    assert state.current_player() == CHANCE
    return state


NO_CANASTA = {"morto_status": ("taken", "untaken"), "mortos": ([], None)}
MORTO_STOCK = {"morto_status": ("stock", "untaken"), "mortos": ([], None)}

#: (test id, position, action, expected reason).
CASES: list[tuple[str, Callable[[], GameState], Any, Reason]] = [
    ("jackaroo-card-not-held",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["2S"]}),
     "2H t10-t12", Reason.of("card_not_held", card="2H")),
    ("jackaroo-no-such-move",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["2S"]}),
     "2S t10-t13", Reason.of("no_such_move", card="2S")),
    ("jackaroo-may-not-burn",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["2S"]}),
     "2S discard", Reason("may_not_burn")),
    ("jackaroo-must-burn",
     lambda: jackaroo(hands={0: ["2S", "9H"]}),
     "2S b0-t2", Reason("must_burn")),
    ("jackaroo-must-burn-one",
     lambda: jackaroo(hands={0: ["2S", "9H"]}),
     "discard-all", Reason("must_burn_one")),
    ("jackaroo-must-burn-all",
     lambda: jackaroo(hands={0: ["2S", "9H"]}, preset="classic"),
     "2S discard", Reason("must_burn_all")),
    ("jackaroo-nothing-to-burn",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["TS"], 1: 0}),
     "TS burn", Reason("nothing_to_burn")),
    ("jackaroo-no-turn",
     lambda: jackaroo(turn=None, marbles={0: ["t10"]}, hands={0: ["2S"]}),
     "2S t10-t12", Reason("no_turn")),
    ("jackaroo-not-chance",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["2S"]}),
     Chance(PICK, 0), Reason("not_chance")),
    ("jackaroo-bad-chance",
     lambda: GAMES["jackaroo"].new_game(Options.preset()),
     Chance(PICK, 0), Reason("bad_chance")),
    ("jackaroo-not-an-action",
     lambda: jackaroo(marbles={0: ["t10"]}, hands={0: ["2S"]}),
     BuracoAction(0), Reason("not_an_action")),
    ("jackaroo-game-over", jackaroo_over, "2S t10-t12", Reason("game_over")),
    ("buraco-draw-first", buraco, "discard 9D", Reason("draw_first")),
    ("buraco-already-drawn", lambda: buraco(phase="play"), "draw", Reason("already_drawn")),
    ("buraco-pile-closed", lambda: buraco(CLOSED), "take", Reason("pile_closed")),
    ("buraco-pile-open", buraco, "take meld 3C 3D", Reason("pile_open")),
    ("buraco-pile-empty", lambda: buraco(discard_pile=""), "take", Reason("pile_empty")),
    ("buraco-closed-pile-empty", lambda: buraco(CLOSED, discard_pile=""),
     "take meld 3C 3D", Reason("pile_empty")),
    ("buraco-not-in-hand", lambda: buraco(phase="play"), "discard KS", Reason("not_in_hand")),
    ("buraco-mixed-suits", lambda: buraco(phase="play"), "meld 5C 6C 9D",
     Reason("meld_mixed_suits")),
    ("buraco-no-such-meld", lambda: buraco(phase="play"), "add 0 7C", Reason("no_such_meld")),
    ("buraco-meld-gap", lambda: buraco(phase="play", melds=[["8C 9C TC"], []]),
     "add 0 5C", Reason("meld_gap")),
    ("buraco-last-card-no-canasta-discard",
     lambda: buraco(phase="play", hands=["9D", "KS KH"], **NO_CANASTA),
     "discard 9D", Reason.of("last_card_no_canasta", verb="discard")),
    ("buraco-last-card-no-canasta-meld",
     lambda: buraco(phase="play", hands=["5C 6C 7C", "KS KH"], **NO_CANASTA),
     "meld 5C 6C 7C", Reason.of("last_card_no_canasta", verb="meld")),
    ("buraco-last-card-morto-stock",
     lambda: buraco(phase="play", hands=["9D", "KS KH"], **MORTO_STOCK),
     "discard 9D", Reason.of("last_card_morto_stock", verb="discard")),
    ("buraco-last-card-stuck",
     lambda: buraco(phase="play", hands=["5C 6C 7C 9D", "KS KH"], **NO_CANASTA),
     "meld 5C 6C 7C", Reason("last_card_stuck")),
    ("buraco-no-turn", buraco_between_hands, "draw", Reason("no_turn")),
    ("buraco-bad-chance", buraco, "dealer 1", Reason("bad_chance")),
    ("buraco-not-an-action", buraco, Chance(PICK, 0), Reason("not_an_action")),
    ("buraco-game-over", buraco_over, "draw", Reason("game_over")),
]  # fmt: skip


def _views(state: GameState) -> list[str]:
    return [json.dumps(state.view(seat).to_json(), sort_keys=True) for seat in state.seats]


@pytest.mark.parametrize(("make", "text", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_a_refused_action_gives_its_reason(
    make: Callable[[], GameState], text: Any, expected: Reason
) -> None:
    state = make()
    action = state.parse_action(text) if isinstance(text, str) else text
    assert state.why_illegal(action) == expected
    views, hands = _views(state), [state.hand(seat) for seat in state.seats]
    if expected.code == "not_an_action" and isinstance(state, BuracoState):
        # Buraco's apply_action refuses what is no Buraco action as malformed input.
        with pytest.raises(MalformedInput):
            state.apply_action(action)
    else:
        with pytest.raises(IllegalMove) as error:
            state.apply_action(action)
        assert error.value.reason == expected
    assert (_views(state), [state.hand(seat) for seat in state.seats]) == (views, hands)


def test_every_engine_code_has_a_representative() -> None:
    # ``illegal`` is only the default of an IllegalMove without a reason; ``not_chance``
    # comes from Buraco's sample_chance.
    shown = {reason.code for *_, reason in CASES}
    assert engine_codes() - shown == {"illegal"}


# -- params never tell more than the player knows ---------------------------------------


def _knowable(state: GameState, seat: int, action: Any) -> set[str]:
    """The card codes ``seat`` may be told about: what its view shows, what it named."""
    shown = _card_codes(state.view(seat).to_json()) if seat >= 0 else set()
    return shown | set(str(action).split())


def _card_codes(obj: object) -> set[str]:
    if isinstance(obj, str):
        return {obj} & CARD_CODES
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, list | tuple):
        return set().union(*(_card_codes(item) for item in obj)) if obj else set()
    return set()


def _check_params(state: GameState, seat: int, action: Any, reason: Reason) -> None:
    assert CODE.fullmatch(reason.code), reason
    for key, value in reason.params:
        assert key in ("card", "verb"), reason
        if key == "card":
            assert value in _knowable(state, seat, action), f"{reason} tells of a hidden card"
        else:
            assert value in VERBS, reason


@pytest.mark.parametrize(("make", "text", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_representative_params_name_only_known_cards(
    make: Callable[[], GameState], text: Any, expected: Reason
) -> None:
    state = make()
    action = state.parse_action(text) if isinstance(text, str) else text
    _check_params(state, state.current_player(), action, expected)


MAX_STEPS = 600


def _refusals(name: str, seats: int, seed: int) -> Iterator[tuple[GameState, Any]]:
    """Positions of a random game, each with actions listed or played elsewhere in it (by
    others, or by the same seat at its last turn) and its own listed actions written with
    a card of another seat."""
    game = GAMES[name]
    state = game.new_game(game.options_from_json(None, seats))
    source, rng = SimSource(seed), random.Random(seed)
    recent: list[Any] = []
    #: What each seat could play at its last turn (its cards may still be in hand).
    before: dict[int, list[Any]] = {}
    # Random players may never reach a Buraco match's target: a few hands are enough.
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        seat = state.current_player()
        if seat >= 0:
            for action in [*recent, *before.get(seat, [])]:
                yield state, action
            before[seat] = list(legal[::3])
            others = sorted(
                {CODES[c] for s in state.seats if s != seat for c in state.hand(s)}
                - {CODES[c] for c in state.hand(seat)}
            )
            for action in legal[:3]:
                words = str(action).split()
                own = [w for w in words if w in CARD_CODES]
                if own and others:
                    swapped = " ".join(rng.choice(others) if w == own[0] else w for w in words)
                    try:
                        refused = state.parse_action(swapped)
                    except MalformedInput:  # a 7's split with another card, say
                        continue
                    yield state, refused
        action = rng.choice(legal) if legal else state.sample_chance(source)
        if seat >= 0:
            recent = [action, *recent][:4]
        state.apply_action(action)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("name", "seats"), [(n, s) for n in sorted(GAMES) for s in (4, 2)])
def test_reasons_depend_only_on_what_the_player_knows(name: str, seats: int, seed: int) -> None:
    """Through random games: every refusal names only cards the player knows, and the
    same refusal comes whatever the hidden cards are (``determinize`` re-deals them)."""
    codes: set[str] = set()
    for number, (state, action) in enumerate(_refusals(name, seats, seed)):
        seat = state.current_player()
        reason = state.why_illegal(action)
        if reason is None:
            continue
        codes.add(reason.code)
        assert reason.code != "illegal", f"no precise reason for {action}"
        _check_params(state, seat, action, reason)
        other = state.determinize(seat, SimSource(number))
        assert other.why_illegal(action) == reason, action
    assert len(codes) >= 2, codes


# -- what a player reads of a refusal -----------------------------------------------------


def refusal_text(reason: Reason) -> tuple[str, str]:
    """A refusal as the client words it (Arabic, English): its words, params filled in."""
    words = client_words()
    params = dict(reason.params)
    key = (
        f"{reason.code}.{params['verb']}"
        if f"{reason.code}.{params.get('verb')}" in words
        else reason.code
    )
    filled = {
        k: card_label(parse_card(str(v))) if k == "card" else str(v) for k, v in params.items()
    }
    arabic, english = (re.sub(r"\{(\w+)\}", lambda m: filled[m.group(1)], t) for t in words[key])
    return arabic, english


def test_refusal_words_name_no_square_nor_notation() -> None:
    for code in engine_codes():
        for text in refusal_text(Reason.of(code, card="7H")):
            assert not NOTATION.search(text), (code, text)


@pytest.mark.parametrize(
    ("name", "options"),
    [("jackaroo", {"preset": "sahrat"}), ("jackaroo", {"preset": "classic"}),
     ("jackaroo", {"preset": "complex"}), ("buraco", None), ("buraco", {"closed": True})],
)  # fmt: skip
def test_every_refusal_of_whole_games_reads_without_notation(name: str, options: Any) -> None:
    """Whole seeded games, each seat's turn tried with what others played and with cards it
    does not hold: every refusal, as the player reads it, is words, not coordinates."""
    game = GAMES[name]
    said = 0
    for seed in range(2):
        state = game.new_game(game.options_from_json(options, 4))
        source, rng = SimSource(seed), random.Random(seed)
        recent: list[Any] = []
        while not state.is_terminal() and said < 4000:
            legal = state.legal_actions()
            if state.current_player() >= 0:
                for action in recent:
                    reason = state.why_illegal(action)
                    if reason is not None:
                        said += 1
                        for text in refusal_text(reason):
                            assert not NOTATION.search(text), (action, reason, text)
            action = rng.choice(legal) if legal else state.sample_chance(source)
            if state.current_player() >= 0:
                recent = [action, *recent][:3]
            state.apply_action(action)
    assert said > 50


# -- an illegal meld says why -------------------------------------------------------------


@pytest.mark.parametrize("code", MELD_FAULTS)
def test_every_meld_fault_has_client_words(code: str) -> None:
    arabic, english = client_words()[code]
    assert re.search(r"[\u0600-\u06ff]", arabic) and english.strip()
    assert not NOTATION.search(arabic) and not NOTATION.search(english)


@pytest.mark.parametrize(
    ("cards", "sets", "kind", "fault"),
    [("5H 6H", False, None, "meld_too_short"),
     ("5H JK 2C 7H", False, None, "meld_too_many_wilds"),
     ("5H 5C 5D", False, None, "meld_no_sets"),
     ("5H 5C 5D JK 2S", True, None, "meld_too_many_wilds"),
     ("5H 6H 7C", True, None, "meld_mixed_suits"),
     ("5H 5H 6H", False, None, "meld_repeated"),
     ("5H 6H 9H", False, None, "meld_gap"),
     ("5H 5C 6C", True, "set", "meld_mixed_ranks"),
     ("5H 5C JK 2D", True, "set", "meld_too_many_wilds"),
     ("KC AC 2C 3C", False, "sequence", "meld_gap")],
)  # fmt: skip
def test_a_meld_fault_says_why(cards: str, sets: bool, kind: str | None, fault: str) -> None:
    parsed = parse_cards(cards.split(), joker=True)
    assert arrange(parsed, sets=sets) is None or kind == "set"
    assert meld_fault(parsed, sets, kind) == fault


@pytest.mark.parametrize("sets", [False, True])
def test_every_refused_meld_of_random_cards_has_a_fault(sets: bool) -> None:
    """Many random handfuls from two decks: each one :func:`arrange` refuses gets a fault
    with words; each one it accepts is left alone (the helper is for refusals only)."""
    rng = random.Random(sets)
    deck = [*range(52), *range(52), JOKER, JOKER]
    faults: set[str] = set()
    for _ in range(4000):
        cards = rng.sample(deck, rng.choice((2, 3, 3, 4, 5)))
        if rng.random() < 0.5:  # near misses: a run of one suit with a card changed
            start, suit = rng.randrange(11), rng.randrange(4)
            cards = [suit * 13 + (start + i) % 13 for i in range(rng.choice((3, 4, 5)))]
            cards[rng.randrange(len(cards))] = rng.choice(deck)
        if arrange(cards, sets=sets) is None:
            faults.add(meld_fault(cards, sets))
    assert faults <= set(MELD_FAULTS) and len(faults) >= 5, faults
