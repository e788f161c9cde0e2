"""Arabic (right-to-left) and English layouts, on a phone and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.ui import JK_MY_TURN, start_with_bots

pytestmark = pytest.mark.browser

OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
UNNAMED_BUTTONS = """[...document.querySelectorAll('button, a.btn, select, input')]
  .filter(e => e.offsetParent !== null)
  .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length
                 || e.placeholder || e.type === 'checkbox' && e.closest('label')))
  .map(e => e.outerHTML.slice(0, 80))"""
SMALL_TARGETS = """[...document.querySelectorAll('.btn, .seg, .tab')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 30)
  .map(e => e.textContent)"""


def check_page(page: Any, direction: str, lang: str) -> None:
    assert page.evaluate("document.documentElement.dir") == direction
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate(OVERFLOW) <= 0, "the page scrolls sideways"
    assert page.evaluate(UNNAMED_BUTTONS) == []
    assert page.evaluate(SMALL_TARGETS) == []


@pytest.mark.parametrize(
    ("size", "lang"), [("phone", "ar"), ("desktop", "ar"), ("phone", "en"), ("desktop", "en")]
)
def test_the_lobby_in_both_languages_at_both_sizes(open_page: Any, size: str, lang: str) -> None:
    # Someone else waits at a table: the live list shows it.
    other = open_page("desktop")
    other.click("[data-play-now=buraco]")
    other.wait_for_selector("#table .room")
    page = open_page(size, lang=lang)
    page.wait_for_selector("#lobby .table-row")
    check_page(page, "rtl" if lang == "ar" else "ltr", lang)
    title = page.locator(".hero-title").text_content()
    assert title == ("سهرات" if lang == "ar" else "Sahrat")
    # Every option of the rules is explained in words, in this language.
    page.locator(".rules-details summary").click()
    assert page.locator(".option-row").count() == 8
    king = page.locator("select[name=king] option").all_text_contents()
    assert any(("الشايب" if lang == "ar" else "King") in text for text in king)
    check_page(page, "rtl" if lang == "ar" else "ltr", lang)
    page.locator(".rules-details summary").click()
    shot(page, f"lobby-{lang}-{size}", full_page=size == "phone")


def test_the_language_switch_is_remembered(open_page: Any) -> None:
    page = open_page("phone")
    assert page.locator(".lang-toggle").text_content() == "English"
    page.click(".lang-toggle")
    check_page(page, "ltr", "en")
    assert page.locator("[data-play-now=jackaroo]").text_content() == "Play now: Jackaroo"
    page.reload()
    page.wait_for_selector(".link-status.open")
    check_page(page, "ltr", "en")
    page.click(".lang-toggle")
    check_page(page, "rtl", "ar")


def test_a_jackaroo_table_fits_a_phone(open_page: Any) -> None:
    page = open_page("phone")
    start_with_bots(page, "jackaroo")
    page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
    check_page(page, "rtl", "ar")
    # The whole board and the hand fit on the screen without scrolling.
    board = page.locator(".jk-board").bounding_box()
    hand = page.locator(".jk-hand").bounding_box()
    assert board and hand
    assert board["width"] >= 350
    assert hand["y"] + hand["height"] <= 844
    card = page.locator(".jk-hand button.card[data-use=board]")
    if card.count():
        card.first.click()
    shot(page, "jackaroo-ar-phone", full_page=False)
    # The same table in English, left to right.
    page.click(".lang-toggle")
    check_page(page, "ltr", "en")
    assert page.locator(".jk-hand").get_attribute("aria-label") == "Your cards"
    shot(page, "jackaroo-en-phone", full_page=False)
    page.click("[data-action=leave]")
    page.click("[data-action=confirm-leave]")  # a game that is on asks first
    page.wait_for_selector("#lobby")
