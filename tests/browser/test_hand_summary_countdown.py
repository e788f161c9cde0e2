"""The end-of-hand summary counts down to the next hand when the server says when play
resumes, in the plural forms of each language; its button closes it in this browser."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_buraco_layout import RESULT
from tests.browser.ui import start_with_bots

pytestmark = pytest.mark.browser

#: Draws the summary card with play resuming ``seconds`` from now; the countdown's line.
DRAW = """async ([result, seconds]) => {
  const { summaryCard } = await import('/static/buraco-layout.js');
  const el = document.querySelector('.bu-summary');
  const now = () => Date.now() / 1000;
  summaryCard(el, result, 0, () => { el.hidden = true; }, { at: now() + seconds, now });
  return el.querySelector('[data-role=resume]').textContent;
}"""
LINE = "document.querySelector('.bu-summary [data-role=resume]').textContent"


@pytest.mark.parametrize(
    ("lang", "three", "two", "started"),
    [
        ("en", "The next hand starts in 3 seconds", "The next hand starts in 2 seconds",
         "The next hand has started"),
        ("ar", "الجولة الجاية تبدأ بعد 3 ثواني", "الجولة الجاية تبدأ بعد ثانيتين",
         "الجولة الجاية بدأت"),
    ],
)  # fmt: skip
def test_the_summary_counts_down_to_the_next_hand(
    open_page: Any, lang: str, three: str, two: str, started: str
) -> None:
    page = open_page("phone", lang=lang)
    start_with_bots(page, "buraco")
    assert page.evaluate(DRAW, [RESULT, 2.9]) == three
    page.wait_for_function(f"() => {LINE} === {two!r}", timeout=5_000)
    page.wait_for_function(f"() => {LINE} === {started!r}", timeout=8_000)
    # Without a time to resume (an older server), the card has no countdown line.
    page.evaluate(
        """async (result) => {
          const { summaryCard } = await import('/static/buraco-layout.js');
          summaryCard(document.querySelector('.bu-summary'), result, 0, () => {});
        }""",
        RESULT,
    )
    assert page.evaluate(LINE) == ""
    page.evaluate(DRAW, [RESULT, 5])
    page.click(".bu-summary [data-action=next-hand]")
    page.locator(".bu-summary").wait_for(state="hidden")


#: The server's ``pause`` as the connection hands it on, then the hand's summary drawn.
PAUSE_THEN_SUMMARY = """([result, seconds]) => {
  const app = window.sahrat;
  const table = app.tableScreen.tableId;
  app.conn.emit('pause', {type: 'pause', table, resumes_at: app.conn.serverNow() + seconds,
                          seconds});
  app.tableScreen.game.showSummary(result);
  return document.querySelector('.bu-summary [data-role=resume]').textContent;
}"""


def test_the_servers_pause_reaches_the_summary_and_closes_it_when_play_resumes(
    open_page: Any,
) -> None:
    page = open_page("desktop", lang="en")
    start_with_bots(page, "buraco")
    line = page.evaluate(PAUSE_THEN_SUMMARY, [RESULT, 2.5])
    assert line.startswith("The next hand starts in ")
    assert page.locator(".bu-summary").is_visible()
    # The card closes by itself about a second after play resumes.
    page.locator(".bu-summary").wait_for(state="hidden", timeout=8_000)
