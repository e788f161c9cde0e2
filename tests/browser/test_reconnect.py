"""The seat survives a reload and a dropped connection: the same token brings it back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.ui import JK_MY_TURN, TABLE_STATUS, jackaroo_turn, start_with_bots

pytestmark = pytest.mark.browser

HAND = "[...document.querySelectorAll('.jk-hand .card')].map(c => c.dataset.code)"


def test_a_reload_and_a_dropped_link_bring_the_seat_back(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "jackaroo")
    table_id = page.locator("#table").get_attribute("data-table")
    name = page.locator(".app-head .me").text_content()
    token = page.evaluate("localStorage.getItem('sahrat.token')")
    page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
    hand = page.evaluate(HAND)
    moves = page.locator(".jk-table").get_attribute("data-moves")
    page.click(".fair summary")
    seed = page.locator(".fair .hash.mine").text_content()

    page.reload()
    page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=15_000)
    assert page.locator("#table").get_attribute("data-table") == table_id
    assert page.locator(".app-head .me").text_content() == name
    assert page.evaluate("localStorage.getItem('sahrat.token')") == token
    me = page.locator(".seat-chips .seat-chip.bottom.right")
    assert me.locator(".badge.you").count() == 1
    assert me.locator(".badge.offline").count() == 0
    if page.locator(".jk-table").get_attribute("data-moves") == moves:
        assert page.evaluate(HAND) == hand  # same position, same cards
    page.click(".fair summary")
    assert page.locator(".fair .hash.mine").text_content() == seed

    # A connection that dies without a reload comes back by itself.
    page.evaluate("window.sahrat.conn.ws.close()")
    page.wait_for_selector(".link-status.closed", timeout=5_000)
    page.wait_for_selector(".link-status.open", timeout=10_000)
    page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'")
    assert page.locator(".seat-chips .seat-chip.bottom.right .badge.offline").count() == 0

    # And play goes on by clicks.
    page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
    before = page.locator(".jk-table").get_attribute("data-moves")
    jackaroo_turn(page)
    page.wait_for_function(
        f"() => document.querySelector('.jk-table').dataset.moves !== '{before}'", polling=50
    )
