"""A person plays Jackaroo in the browser: a whole game against three bots, by clicks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.ui import JK_MY_TURN, TABLE_STATUS, play_jackaroo_to_end, start_with_bots

pytestmark = [pytest.mark.browser, pytest.mark.long]


def wait_for_board_move(page: Any) -> None:
    """Wait for a turn of ours where some card moves a marble, and select that card."""
    for _ in range(40):
        page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
        card = page.locator(".jk-hand button.card[data-use=board]")
        if card.count():
            card.first.click()
            return
        # Only burns this turn: burn one, by clicks, and wait for the next turn.
        page.locator(".jk-hand button.card.playable").first.click()
        before = page.locator(".jk-table").get_attribute("data-moves")
        page.locator(".move-actions button[data-kind]").first.click()
        page.wait_for_function(
            f"() => document.querySelector('.jk-table').dataset.moves !== '{before}'", polling=50
        )
    raise AssertionError("no turn with a move on the board")


def test_a_person_plays_a_whole_jackaroo_game_against_three_bots(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "jackaroo")
    table_id = page.locator("#table").get_attribute("data-table")
    assert table_id

    # Four seats around the board: us at the bottom, three bots with their badge.
    chips = page.locator(".seat-chips .seat-chip")
    assert chips.count() == 4
    assert page.locator(".seat-chips .seat-chip.bottom.right .badge.you").count() == 1
    assert page.locator(".seat-chips .badge.bot").count() == 3
    assert page.locator(".seat-chips .badge.partner").count() == 1
    assert page.locator(".seat-chips .seat-chip.top.left .badge.partner").count() == 1

    # Choosing a card lights up what it can move; the board is the screenshot.
    wait_for_board_move(page)
    assert page.locator(".jk-board .marble.movable, .jk-board .target").count() >= 1
    assert page.locator(".jk-hand .card.selected").count() == 1
    shot(page, "jackaroo-ar-desktop", full_page=False)

    # The fair shuffle: the commitment and every client seed, ours among them.
    page.click(".fair summary")
    commitment = page.locator(".fair .fair-list .hash").first.text_content() or ""
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    seeds = page.locator(".fair .seeds code").all_text_contents()
    mine = page.locator(".fair .hash.mine").text_content()
    assert len(seeds) == 4 and mine in seeds
    page.click(".fair summary")

    turns = play_jackaroo_to_end(page)
    assert turns >= 10
    assert page.evaluate(TABLE_STATUS) == "finished"

    # The end: the winners, the replay and the record on the Verify page.
    end = page.locator(".end-card")
    end.wait_for()
    assert end.locator("h2").text_content()
    verify = end.locator("[data-action=verify]").get_attribute("href")
    assert verify == f"/static/verify.html#record=/api/records/{table_id}"
    assert page.locator(".move-words li").count() >= 1
    shot(page, "jackaroo-end", full_page=False)

    end.locator("[data-action=replay]").click()
    page.wait_for_selector("#replay .frame-count")
    assert page.url.endswith(f"#replay={table_id}")
    first = page.locator(".replay-hand").first.locator(".card").count()
    assert first >= 4  # every hand is visible in a replay
    page.click("[data-step=next]")
    page.click("[data-step=next]")
    assert page.locator(".frame-count").get_attribute("data-frame") == "2"
    assert page.locator(".replay-words").text_content()
    page.click("[data-step=last]")
    shot(page, "replay", full_page=False)

    # The replay's address opens it directly.
    again = open_page("phone", hash=f"replay={table_id}")
    again.wait_for_selector("#replay .frame-count")
    again.click("[data-step=next]")
    assert again.locator(".frame-count").get_attribute("data-frame") == "1"
    shot(again, "replay-ar-phone", full_page=False)
