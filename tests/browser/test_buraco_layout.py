"""The Buraco table laid out as a table: seats around a compact centre, the other side's
melds at the top, ours above the hand, the hand always on screen and scrolling sideways;
melds with their points and canasta state; the end-of-hand summary card."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.ui import start_with_bots

pytestmark = pytest.mark.browser

#: Where each part of the table is on screen (CSS px), at the top of the page.
LAYOUT = """() => {
  window.scrollTo(0, 0);
  const box = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            width: r.width, height: r.height};
  };
  const hand = document.querySelector('.bu-dock .bu-hand');
  const cards = [...hand.querySelectorAll('.card')].map((c) => c.getBoundingClientRect());
  return {
    top: box('.bu-seat.top .seat-chip'),
    start: box('.bu-seat.start .seat-chip'),
    end: box('.bu-seat.end .seat-chip'),
    me: box('.bu-seat.me .seat-chip'),
    them: box('.bu-melds.them'),
    centre: box('.bu-centre'),
    stock: box('.bu-centre .stock'),
    pile: box('.bu-centre .discard'),
    mortos: box('.bu-centre .mortos'),
    us: box('.bu-melds.us'),
    hand: box('.bu-dock .bu-hand'),
    rows: new Set(cards.map((r) => Math.round(r.top))).size,
    cardWidth: cards.length ? Math.min(...cards.map((r) => r.width)) : 0,
    sideways: getComputedStyle(hand).overflowX,
    viewport: {width: innerWidth, height: innerHeight},
  };
}"""


def check_layout(page: Any) -> dict[str, Any]:
    page.wait_for_selector(".bu-dock .bu-hand .card")
    at = page.evaluate(LAYOUT)
    view = at["viewport"]
    # The hand is on screen without scrolling, in one row that scrolls sideways.
    assert at["hand"]["top"] >= 0 and at["hand"]["bottom"] <= view["height"], at
    assert at["rows"] == 1 and at["sideways"] in ("auto", "scroll"), at
    assert at["cardWidth"] >= 44, at
    # Four seats around the centre: the partner above it, the others at its sides.
    assert at["top"]["bottom"] <= at["centre"]["top"], at
    assert at["start"] and at["end"], at
    assert at["them"]["bottom"] <= at["centre"]["top"] <= at["centre"]["bottom"] <= at["us"]["top"]
    assert at["us"]["top"] < at["hand"]["top"], at
    for part in ("stock", "pile", "mortos"):
        assert at[part]["width"] > 0, part
    return at


def test_the_phone_table_has_everything_on_one_screen(open_page: Any) -> None:
    page = open_page("phone")
    start_with_bots(page, "buraco")
    at = check_layout(page)
    # The dock is fixed at the bottom: scrolling the page never hides the hand.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    hand = page.locator(".bu-dock .bu-hand").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= at["viewport"]["height"]
    assert page.locator(".bu-score .running").count() == 2
    shot(page, "buraco-table-ar-phone", full_page=False)
    page.click(".lang-toggle")
    check_layout(page)
    shot(page, "buraco-table-en-phone", full_page=False)


def test_the_desktop_table_in_english(open_page: Any) -> None:
    page = open_page("desktop", lang="en")
    start_with_bots(page, "buraco")
    check_layout(page)
    shot(page, "buraco-table-en-desktop", full_page=False)
    page.click(".lang-toggle")
    check_layout(page)
    shot(page, "buraco-table-ar-desktop", full_page=False)


#: Our side's melds replaced, for one render, by a clean canasta and a short meld.
MELDS = """() => {
  const game = window.sahrat.tableScreen.game;
  const msg = structuredClone(game.msg);
  const side = msg.you & 1;
  msg.view.melds[side] = [
    {cards: ['3H', '4H', '5H', '6H', '7H', '8H', '9H', 'TH'], kind: 'sequence', clean: true},
    {cards: ['JK', 'QS', 'KS'], kind: 'sequence', clean: false},
  ];
  game.msg = msg;
  game.render();
  const melds = [...document.querySelectorAll('.bu-melds.us .meld')];
  const us = document.querySelector(`.bu-score .score-item[data-side="${side}"] .running`);
  return {
    points: melds.map((m) => m.querySelector('.meld-points').dataset.points),
    canasta: melds.map((m) => m.className),
    progress: melds[1].querySelector('.meld-progress')?.textContent,
    running: us.dataset.running,
  };
}"""


def test_melds_show_their_points_and_canasta_state(open_page: Any) -> None:
    page = open_page("phone", lang="en")
    start_with_bots(page, "buraco")
    got = page.evaluate(MELDS)
    # 3..7 are 5 each, 8..T 10 each: 25 + 30; a joker 50, Q and K 10 each.
    assert got["points"] == ["55", "70"]
    assert "canasta-clean" in got["canasta"][0] and "long" in got["canasta"][0]
    assert got["progress"] == "3/7"
    # This hand so far: both melds, and 200 for the clean canasta.
    assert got["running"] == str(55 + 70 + 200)


RESULT = {
    "hand": 1,
    "went_out": 0,
    "sides": [
        {"canastas_clean": 1, "canastas_dirty": 1, "melded": 320, "hand": 0, "bonus": 400,
         "total": 720},
        {"canastas_clean": 0, "canastas_dirty": 0, "melded": 95, "hand": 40, "bonus": -100,
         "total": -45},
    ],
    "totals": [720, -45],
}  # fmt: skip


def test_the_end_of_a_hand_shows_a_summary_that_waits_for_the_player(open_page: Any) -> None:
    page = open_page("phone", lang="en")
    start_with_bots(page, "buraco")
    page.evaluate("(r) => window.sahrat.tableScreen.game.showSummary(r)", RESULT)
    card = page.locator(".bu-summary")
    card.wait_for()
    assert card.get_attribute("data-hand") == "1"
    rows = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.summary-table tbody tr')]
             .map((tr) => [tr.dataset.row,
                           [...tr.querySelectorAll('td')].map((td) => td.textContent)]))"""
    )
    side = page.evaluate("window.sahrat.tableScreen.msg.you") & 1

    def row(key: str) -> list[str]:
        """A row's cells as side 0's, then side 1's (the card shows ours first)."""
        cells: list[str] = rows[key]
        return cells if side == 0 else cells[::-1]

    assert row("canastas") == ["1 clean · 1 dirty", "0 clean · 0 dirty"]
    assert row("melded") == ["320", "95"]
    assert row("inHand") == ["0", "\u221240"]
    # Side 0 went out (100) with 300 in canastas; side 1 never took its morto.
    assert row("bonuses") == ["400", "0"]
    assert row("morto") == ["taken", "\u2212100"]
    assert row("handTotal") == ["720", "\u221245"]
    assert row("matchTotal") == ["720", "\u221245"]
    shot(page, "buraco-hand-summary-en-phone", full_page=False)
    page.click("[data-action=next-hand]")
    card.wait_for(state="hidden")
