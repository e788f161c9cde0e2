"""Moves in words: what each move says, in English and Arabic, and what it never says."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

import pytest

from sahrat.cards import CODES, card_label, parse_card
from sahrat.errors import IllegalMove
from sahrat.game import CHANCE, TERMINAL
from sahrat.games import GAMES
from sahrat.games.buraco import BuracoOptions, BuracoState, from_table, parse_action
from sahrat.games.buraco import actions as bact
from sahrat.games.jackaroo import Chance, JackarooState, Move, Options, from_position
from sahrat.games.jackaroo.actions import DISCARD_ALL
from sahrat.simulation import SimSource
from sahrat.speech import BUILT_IN_NAMES, FEMININE

NAMES = {0: "Salem", 1: "Maryam", 2: "Noura", 3: "Fahd"}


def describe(
    game: str, state: Any, seat: int, action: Any, name: str, *, names: dict[int, str] | None = None
) -> dict[str, str]:
    """The move in words; without ``names`` only the mover is named."""
    words = GAMES[game].describe(state, seat, action, {**(names or {}), seat: name})
    return words.to_json()


def jackaroo(
    marbles: dict[int, list[str]], hand: list[str], preset: str = "sahrat"
) -> JackarooState:
    return from_position(
        {
            "options": {"preset": preset},
            "turn": 0,
            "marbles": {str(s): [*marbles.get(s, []), *["b"] * (4 - len(marbles.get(s, [])))]
                        for s in range(4)},
            "hands": {"0": hand, "1": 4, "2": 4, "3": 4},
        }
    )  # fmt: skip


def say(state: JackarooState, move: str, names: dict[int, str] | None = None) -> dict[str, str]:
    action = state.move_from_text(move)
    return describe("jackaroo", state, 0, action, "Salem", names=names)


def assert_hidden(words: dict[str, str], cards: Iterable[int], shown: Iterable[int]) -> None:
    """No card of ``cards`` is named, unless a card with its code is one the move shows."""
    public = {CODES[card] for card in shown}
    for card in cards:
        if CODES[card] in public:
            continue
        for text in words.values():
            assert CODES[card] not in text, (card, text)
            assert card_label(card) not in text, (card, text)


# -- Jackaroo ---------------------------------------------------------------------------


def test_capture_names_the_victim_and_no_square() -> None:
    state = jackaroo({0: ["t12"], 1: ["t20"]}, ["8C", "2H"])
    words = say(state, "8C t12-t20", NAMES)
    assert words["en"] == "Salem moves 8 steps with 8♣ and captures Maryam's marble"
    assert words["ar"] == "Salem مشّى بليته 8 خطوات (8♣) وأكل بلية Maryam"
    assert say(state, "8C t12-t20")["en"].endswith("captures an opponent's marble")


def test_sweeping_king_names_every_capture() -> None:
    state = jackaroo({0: ["t8"], 1: ["t20"], 2: ["t21"]}, ["KC"])
    words = say(state, "KC t8-t21", NAMES)
    assert words["en"].endswith("captures Maryam's marble and their partner Noura's marble"), words
    assert words["ar"].endswith("وأكل بلية Maryam وبلية الشريك Noura")


def test_a_king_sweeping_two_of_one_colour_counts_them() -> None:
    state = jackaroo({0: ["t8"], 1: ["t20", "t21"]}, ["KC"])
    words = say(state, "KC t8-t21", NAMES)
    assert words["en"].endswith("captures two of Maryam's marbles"), words
    assert words["ar"].endswith("وأكل ثنتين من بليات Maryam")


def test_bring_out_and_its_capture() -> None:
    state = jackaroo({0: ["t5"], 3: ["t0"]}, ["AS"])
    words = say(state, "AS b0-t0")
    assert words["en"] == "Salem brings a marble out with A♠ and captures an opponent's marble"
    assert words["ar"] == "Salem طلّع بلية (الإكة A♠) وأكل بلية الخصم"


def test_split_seven_says_its_parts_and_home() -> None:
    state = jackaroo({0: ["t3", "t74"]}, ["7H"])
    words = say(state, "7H t3-t8 t74-h0.1")
    assert words["en"] == "Salem splits the seven (7♥) as 5 + 2 and enters home"
    assert words["ar"] == "Salem قسم السبعة (7♥): 5 + 2 ودخلت البيت"


def test_split_seven_entering_home_and_capturing() -> None:
    state = jackaroo({0: ["t74", "t10"], 1: ["t15"]}, ["7H"])
    words = say(state, "7H t74-h0.1 t10-t15", NAMES)
    assert words["en"] == (
        "Salem splits the seven (7♥) as 2 + 5, enters home and captures Maryam's marble"
    )
    assert words["ar"] == "Salem قسم السبعة (7♥): 2 + 5 ودخلت البيت وأكل بلية Maryam"


def test_swap() -> None:
    state = jackaroo({0: ["t5"], 2: ["t40"]}, ["JD"])
    words = say(state, "JD t5~t40")
    assert words["en"] == "Salem plays J♦ and swaps places with the partner's marble"
    assert words["ar"] == "Salem لعب الولد J♦ وبدّل بليته مع بلية الشريك"


def test_five_on_another_seats_marble_and_four_backwards() -> None:
    state = jackaroo({0: ["t3"], 1: ["t25"]}, ["5S", "4D"])
    words = say(state, "5S t25-t30", NAMES)
    assert words["en"] == "Salem moves Maryam's marble 5 steps with 5♠"
    assert words["ar"] == "Salem مشّى بلية Maryam 5 خطوات (الخمسة 5♠)"
    words = say(state, "4D t3-t75")
    assert words["en"] == "Salem moves back 4 steps with 4♦"
    assert words["ar"] == "Salem رجّع بليته لورا 4 خطوات (الأربعة 4♦)"


def test_entering_home() -> None:
    state = jackaroo({0: ["t73"]}, ["3H"])
    words = say(state, "3H t73-h0.1")
    assert words["en"] == "Salem moves 3 steps with 3♥ and enters home"
    assert words["ar"].endswith("ودخلت البيت")


def test_ten_burns_without_naming_the_card() -> None:
    state = jackaroo({0: ["t3"]}, ["TD"])
    words = say(state, "TD burn", NAMES)
    assert words["en"] == "Salem plays 10♦ and burns a card from Maryam's hand"
    assert words["ar"] == "Salem لعب العشرة 10♦ وحرق ورقة من يد Maryam"
    assert "the next player's hand" in say(state, "TD burn")["en"]


def test_stuck_hand_burns() -> None:
    state = jackaroo({}, ["2S", "3H"])
    words = say(state, "2S discard")
    assert words == {"en": "Salem burns 2♠", "ar": "Salem حرق 2♠"}
    assert_hidden(words, state.hands[0], [parse_card("2S")])
    classic = jackaroo({}, ["2S", "3H"], preset="classic")
    words = describe("jackaroo", classic, 0, Move(-1, DISCARD_ALL), "Salem")
    assert words == {"en": "Salem burns the whole hand", "ar": "Salem حرق كل أوراقه"}
    assert_hidden(words, classic.hands[0], [])


def test_a_step_that_is_not_a_move_is_said_without_notation() -> None:
    state = jackaroo({0: ["t3"]}, ["TD"])
    assert describe("jackaroo", state, 0, Chance.parse("pick 2"), "Salem") == {
        "en": "Salem played",
        "ar": "Salem لعب",
    }
    shuffle = bact.shuffle(range(52))
    words = describe("buraco", BuracoState(), 0, shuffle, "Salem")
    assert words["en"] == "Salem played" and "shuffle" not in words["ar"]


def test_an_illegal_move_has_no_words() -> None:
    state = jackaroo({0: ["t3"]}, ["TD"])
    with pytest.raises(IllegalMove):
        describe("jackaroo", state, 0, Move.parse("KC b0-t0"), "Salem")


# -- Buraco -----------------------------------------------------------------------------


def buraco(**table: Any) -> BuracoState:
    options = table.pop("options", BuracoOptions(seats=2))
    return from_table(options, **table)


def says(state: BuracoState, action: str, seat: int = 0) -> dict[str, str]:
    return describe("buraco", state, seat, parse_action(action), "Salem")


def test_draw_and_take_hide_the_cards() -> None:
    state = buraco(hands=["5C 6C 7C 9D KS", "KD QH"], discard_pile="4S 3D", stock="8H")
    words = says(state, "draw")
    assert words == {"en": "Salem draws from the stock", "ar": "Salem سحب من الكومة"}
    assert_hidden(words, [*state.hand(0), *state.stock], [])
    words = says(state, "take")
    assert words["en"] == "Salem takes the discard pile (2 cards)"
    assert words["ar"] == "Salem أخذ كومة الرمي (ورقتين)"


def test_new_meld_and_discard() -> None:
    state = buraco(hands=["7C 5C 6C 9D KS", "KD QH"], phase="play")
    words = says(state, "meld 7C 5C 6C")
    assert words["en"] == "Salem lays a new sequence: 5♣ 6♣ 7♣"
    assert words["ar"] == "Salem نزّل سلسلة 5♣ 6♣ 7♣"
    assert_hidden(words, state.hand(0), parse_action("meld 7C 5C 6C").cards)
    assert says(state, "discard 9D") == {"en": "Salem discards 9♦", "ar": "Salem رمى 9♦"}


def test_canasta_completed_clean_or_dirty() -> None:
    state = buraco(hands=["AH 2D 9D KS", "KD QH"], melds=[["8H 9H TH JH QH KH"], []], phase="play")
    words = says(state, "add 0 AH")
    assert words["en"] == "Salem adds A♥ to the ♥ sequence — a clean canasta"
    assert "كاناسترا ليمبا" in words["ar"]
    words = says(state, "add 0 2D")
    assert words["en"].endswith("— a dirty canasta") and "سوجا" in words["ar"]


def test_set_meld_added_to() -> None:
    options = BuracoOptions(seats=2, sets=True)
    state = buraco(options=options, hands=["4C 9D KS", "KD QH"], melds=[["4S 4H 4D"], []],
                   phase="play")  # fmt: skip
    assert says(state, "add 0 4C")["en"] == "Salem adds 4♣ to the set of 4s"


def test_morto_taken_by_melding_or_by_discarding() -> None:
    state = buraco(hands=["5C 6C 7C", "KD QH"], phase="play")
    words = says(state, "meld 5C 6C 7C")
    assert words["en"].endswith("and takes the morto") and "المورتو" in words["ar"]
    state = buraco(hands=["9D", "KD QH"], phase="play")
    assert says(state, "discard 9D")["en"] == "Salem discards 9♦ and will take the morto"


def test_going_out() -> None:
    state = buraco(
        hands=["9D", "KD QH"],
        melds=[["8H 9H TH JH QH KH AH"], []],
        morto_status=["taken", "untaken"],
        phase="play",
    )
    words = says(state, "discard 9D")
    assert words["en"] == "Salem discards 9♦ and goes out"
    assert words["ar"] == "Salem رمى 9♦ وخلّص الجولة (باتيدا)"


def test_a_long_sequence_is_said_by_its_ends_in_arabic() -> None:
    state = buraco(hands=["5H 6H 7H 8H 9D KS", "KD QH"], phase="play")
    words = says(state, "meld 5H 6H 7H 8H")
    assert words["ar"] == "Salem نزّل سلسلة 5♥–8♥"
    assert words["en"] == "Salem lays a new sequence: 5♥ 6♥ 7♥ 8♥"


def test_closed_take_and_meld_shows_only_the_top_card() -> None:
    options = BuracoOptions(seats=2, closed=True)
    state = buraco(options=options, hands=["6C 7C 9D KS", "KD QH"], discard_pile="4S 8C")
    words = says(state, "take meld 6C 7C")
    assert words["en"] == "Salem takes the discard pile (2 cards) and lays a new sequence: 6♣ 7♣ 8♣"
    assert_hidden(words, state.hand(0), [*parse_action("take meld 6C 7C").cards, state.pile[-1]])


# -- whole games ------------------------------------------------------------------------


def shown_by(state: Any, action: Any) -> list[int]:
    """The cards a move itself puts face up."""
    if isinstance(action, Move):
        return [action.card] if action.card >= 0 else []
    if action.kind in (bact.TAKE_MELD, bact.TAKE_ADD):
        return [*action.cards, state.pile[-1]]
    return list(action.cards)


def hidden_cards(state: Any) -> list[int]:
    if isinstance(state, JackarooState):
        return [card for hand in state.hands for card in hand if card >= 0] + state.stock
    hands: list[int] = [card for seat in range(state.players) for card in state.hand(seat)]
    return [*hands, *state.stock, *state.mortos[0], *state.mortos[1]]


#: What no player reads: a square (t38, h2.3, b1, s2), the engine's signs for a move, a card
#: written as the engine writes it (7H), a form of a word left unchosen ({m|f}).
NOTATION = re.compile(r"\b[thbs]\d+(?:\.\d)?\b|[~→↔{}|]|\b[2-9TJQKA][SHDC]\b")
#: The names of a whole game: built-in ones of both genders, and a guest's.
GAME_NAMES = {0: "نورة", 1: "فهد", 2: "مريم", 3: "ضيف صقر 417"}


def assert_words_for_players(words: dict[str, str], action: Any, name: str) -> None:
    """No notation, and an Arabic verb that agrees with the player's name."""
    for text in words.values():
        assert not NOTATION.search(text), (action, text)
        # A one-word action ("draw") is an English word too; a longer one is notation.
        assert " " not in str(action) or str(action) not in text, (action, text)
    verb = words["ar"].removeprefix(name + " ").split()[0]
    # Every feminine verb the words use ends in ت (طلّعت، مشّت، رمت); no masculine one does.
    assert verb.endswith("ت") == (dict(BUILT_IN_NAMES).get(name) == FEMININE), words


def play_and_describe(
    game: str, state: Any, seed: int, hands: int = 2, names: dict[int, str] | None = None
) -> int:
    rng, source, said = random.Random(seed), SimSource(seed), 0
    while said < 3000:
        seat = state.current_player()
        if seat == TERMINAL or (game == "buraco" and len(state.results) >= hands):
            break
        if seat == CHANCE:
            state.apply_action(state.sample_chance(source))
            continue
        action = rng.choice(state.legal_actions())
        name = (names or {}).get(seat, "Salem")
        words = describe(game, state, seat, action, name, names=names)
        assert not words["en"].startswith(name + ":"), words
        assert words["ar"] and words["ar"].startswith(name + " ")
        assert_hidden(words, hidden_cards(state), shown_by(state, action))
        assert_words_for_players(words, action, name)
        state.apply_action(action)
        said += 1
    return said


@pytest.mark.parametrize("seats", [4, 2])
@pytest.mark.parametrize("preset", ["sahrat", "classic", "complex"])
def test_every_jackaroo_move_of_random_games(preset: str, seats: int) -> None:
    for seed in range(2):
        state = JackarooState.new_game(Options.preset(preset, seats))
        assert play_and_describe("jackaroo", state, seed, names=GAME_NAMES) > 50


@pytest.mark.parametrize(
    "options",
    [
        BuracoOptions(seats=4),
        BuracoOptions(seats=2, sets=True),
        BuracoOptions(seats=2, closed=True),
        BuracoOptions(seats=4, sets=True, closed=True),
    ],
)
def test_every_buraco_action_of_random_hands(options: BuracoOptions) -> None:
    for seed in range(2):
        state = BuracoState(options)
        assert play_and_describe("buraco", state, seed, names=GAME_NAMES) > 50


def test_the_notation_check_catches_notation() -> None:
    # A check on the check: each of these is what the words used to say.
    for text in ("من t38 إلى t34", "JC t75~t60", "to h3.4", "b1", "8C t12-t20", "{لعب|لعبت}"):
        assert NOTATION.search(text), text
    assert not NOTATION.search("Salem moves 8 steps with 8♣ and captures Maryam's marble")


# -- a verb agrees with the player's name ---------------------------------------------


def test_feminine_names_take_feminine_verbs() -> None:
    state = jackaroo({0: ["t12"], 1: ["t20"]}, ["8C", "AS"])
    assert describe("jackaroo", state, 0, state.move_from_text("AS b0-t0"), "نورة")["ar"] == (
        "نورة طلّعت بلية (الإكة A♠)"
    )
    words = describe("jackaroo", state, 0, state.move_from_text("8C t12-t20"), "مريم",
                     names={1: "فهد"})  # fmt: skip
    assert words["ar"] == "مريم مشّت بليتها 8 خطوات (8♣) وأكلت بلية فهد"
    words = describe("jackaroo", state, 0, state.move_from_text("8C t12-t20"), "فهد",
                     names={1: "مريم"})  # fmt: skip
    assert words["ar"] == "فهد مشّى بليته 8 خطوات (8♣) وأكل بلية مريم"
    melds = buraco(hands=["5H 6H 7H 8H 9D KS", "KD QH"], phase="play")
    words = describe("buraco", melds, 0, parse_action("meld 5H 6H 7H 8H"), "مريم")
    assert words["ar"] == "مريم نزّلت سلسلة 5♥–8♥"


def test_every_built_in_name_has_a_gender_and_others_take_the_unmarked_form() -> None:
    state = buraco(hands=["5C 6C 7C 9D KS", "KD QH"], discard_pile="4S 3D", stock="8H")
    for name, gender in BUILT_IN_NAMES:
        said = describe("buraco", state, 0, parse_action("draw"), name)["ar"]
        assert said == f"{name} {'سحبت' if gender == FEMININE else 'سحب'} من الكومة"
    for name in ("ضيف صقر 417", "Sara", "لاعب"):
        assert describe("buraco", state, 0, parse_action("draw"), name)["ar"] == (
            f"{name} سحب من الكومة"
        )
