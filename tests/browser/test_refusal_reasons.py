"""A refused move is explained in the player's language, from the server's reason code.

The server answers an illegal move with a generic English ``message`` (for
developers) and a ``reason`` code with params; the toast words the reason in
Arabic or English and shows a card as printed on it (7♥), never its code (7H).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from sahrat.games.buraco.melds import MELD_FAULTS
from tests.browser.ui import JK_MY_TURN, start_with_bots

pytestmark = pytest.mark.browser

SERVER_MESSAGE = "the rules do not allow that move"
#: Unicode's first-strong isolate around a card label in a sentence.
FSI, PDI = "\u2068", "\u2069"

BOTH_GAMES = ["illegal", "game_over", "no_turn", "not_chance", "bad_chance", "not_an_action"]
JACKAROO = [
    "card_not_held",
    "must_burn",
    "must_burn_one",
    "must_burn_all",
    "may_not_burn",
    "nothing_to_burn",
    "no_such_move",
]
BURACO = [
    "draw_first",
    "already_drawn",
    "pile_closed",
    "pile_empty",
    "pile_open",
    "not_in_hand",
    *MELD_FAULTS,
    "no_such_meld",
    "last_card_no_canasta",
    "last_card_morto_stock",
    "last_card_stuck",
]
WITH_CARD = {"card_not_held", "no_such_move"}
WITH_VERB = {"last_card_no_canasta", "last_card_morto_stock"}

TRANSLATIONS = """async (keys) => {
  const i18n = await import('/static/i18n.js');
  return Object.fromEntries(keys.map((key) => [key, i18n.translations(key)]));
}"""
HAND = "[...document.querySelectorAll('.jk-hand button.card')].map((b) => b.dataset.code)"
ARABIC = re.compile(r"[\u0600-\u06ff]")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CODE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|JK)\b")


def send_act(page: Any, action: str) -> None:
    """An action over the page's own connection, as a hand-made client would send it."""
    page.evaluate("(action) => window.sahrat.conn.send('act', { action })", action)


def toast_with(page: Any, text: str) -> str:
    """The text of the error toast that shows ``text`` (waits for it)."""
    toast = page.locator("#toasts .toast.error", has_text=text).last
    toast.wait_for()
    return toast.text_content() or ""


def assert_worded(text: str) -> None:
    assert SERVER_MESSAGE not in text
    assert " — " not in text  # no detail appended
    assert not CODE.search(text), text


def test_every_reason_has_arabic_and_english_words(open_page: Any) -> None:
    page = open_page("desktop")
    codes = BOTH_GAMES + JACKAROO + BURACO
    keys = [f"refusal.{code}" for code in codes]
    keys += [f"refusal.{code}.{verb}" for code in WITH_VERB for verb in ("meld", "discard")]
    words = page.evaluate(TRANSLATIONS, keys)
    for key in keys:
        pair = words[key]
        assert pair, f"no words for {key}"
        assert ARABIC.search(pair["ar"]), (key, pair)
        assert pair["en"].strip() and not ARABIC.search(pair["en"]), (key, pair)
        code = key.split(".")[1]
        for lang in ("ar", "en"):
            placeholders = set(re.findall(r"\{(\w+)\}", pair[lang]))
            assert placeholders == ({"card"} if code in WITH_CARD else set()), (key, lang)
    # The two verbs are worded apart, in both languages.
    for code in WITH_VERB:
        meld, discard = words[f"refusal.{code}.meld"], words[f"refusal.{code}.discard"]
        assert meld["ar"] != discard["ar"] and meld["en"] != discard["en"]


def test_a_refused_jackaroo_move_is_explained_in_arabic_then_english(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "jackaroo")
    page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
    hand = set(page.evaluate(HAND))
    assert hand
    # A card we do not hold: the server refuses to burn it, naming the card.
    missing = next(
        rank + suit for rank in "7A23456789TJQK" for suit in "HSDC" if rank + suit not in hand
    )
    label = missing[0].replace("T", "10") + SUITS[missing[1]]

    send_act(page, f"{missing} discard")
    text = toast_with(page, "ما عندك")
    assert text == f"ما عندك {FSI}{label}{PDI} في يدك"
    assert_worded(text)

    page.click(".lang-toggle")
    page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
    send_act(page, f"{missing} discard")
    text = toast_with(page, "You don't hold")
    assert text == f"You don't hold {FSI}{label}{PDI}"
    assert_worded(text)

    # Words that are no move at all: the reason the server gives before any rule.
    send_act(page, "hello")
    text = toast_with(page, "isn't a move")
    assert text == "That isn't a move in this game"
    assert_worded(text)
    # Refusals change nothing: still our turn, the same hand.
    assert page.evaluate(f"() => {JK_MY_TURN}")
    assert set(page.evaluate(HAND)) == hand


def test_reasons_with_params_and_unknown_reasons(open_page: Any) -> None:
    """The client's wording of answers the server may send: a verb, a ten, a new code."""
    page = open_page("desktop")

    def refuse(reason: dict[str, Any] | None) -> None:
        answer = {"type": "error", "code": "illegal_move", "message": SERVER_MESSAGE}
        if reason is not None:
            answer["reason"] = reason
        page.evaluate("(m) => window.sahrat.onError(m)", answer)

    refuse({"code": "last_card_no_canasta", "params": {"verb": "meld"}})
    assert_worded(toast_with(page, "ما تقدر تنزّل آخر ورقة"))
    refuse({"code": "last_card_morto_stock", "params": {"verb": "discard"}})
    assert_worded(toast_with(page, "ما تقدر ترمي آخر ورقة: المورتو"))
    refuse({"code": "no_such_move", "params": {"card": "TD"}})
    assert_worded(toast_with(page, f"{FSI}10♦{PDI}"))

    # A reason this client does not know, or none at all: the generic words, still ours.
    generic = page.evaluate("async () => (await import('/static/i18n.js')).t('error.illegal_move')")
    for reason in ({"code": "a_reason_from_the_future", "params": {}}, None):
        before = page.locator("#toasts .toast.error").count()
        refuse(reason)
        page.wait_for_function(
            f"() => document.querySelectorAll('#toasts .toast.error').length > {before}"
        )
        text = page.locator("#toasts .toast.error").last.text_content() or ""
        assert text == generic
        assert_worded(text)

    page.click(".lang-toggle")
    refuse({"code": "last_card_no_canasta", "params": {"verb": "discard"}})
    text = toast_with(page, "You can't discard your last card")
    assert text == "You can't discard your last card: your side has no canasta to go out"
    # Other errors keep their words; a bad field still names the field.
    page.evaluate(
        "(m) => window.sahrat.onError(m)",
        {"type": "error", "code": "bad_field", "message": "seats: not a number"},
    )
    assert toast_with(page, "Invalid request") == "Invalid request — seats: not a number"
