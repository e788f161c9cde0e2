"""Table chat and team chat between three people, and the lobby's live list."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser

LINES = "[...document.querySelectorAll('.chat-lines .chat-text')].map(e => e.textContent)"


def chat_lines(page: Any) -> list[str]:
    return page.evaluate(LINES)  # type: ignore[no-any-return]


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function(f"() => {LINES}.includes({text!r})")


def test_table_and_team_chat_reach_the_right_people_as_text(open_page: Any) -> None:
    alia = open_page("desktop")
    # A public Buraco table, two players, created from the form.
    alia.click(".create-form [data-game=buraco]")
    alia.select_option(".create-form select[name=target]", "1000")
    alia.click(".create-form [data-action=create]")
    alia.wait_for_selector("#table .room")
    table_id = alia.locator("#table").get_attribute("data-table")

    # Two more people find it in the lobby's live list and join.
    badr = open_page("phone")
    row = badr.locator(f".table-row[data-table='{table_id}']")
    row.wait_for()
    assert "إلى 1000" in (row.locator(".rules").text_content() or "")
    row.locator("button").click()
    badr.wait_for_selector("#table .room")
    # Badr moves opposite Alia, to be her partner (seat 2).
    badr.click("[data-sit='2']")
    badr.wait_for_selector(".room-seat[data-seat='2'] .badge.you")
    chad = open_page("desktop", lang="en")
    chad.locator(f".table-row[data-table='{table_id}'] button").click()
    chad.wait_for_selector("#table .room")
    chad.wait_for_selector(".room-seat[data-seat='1'] .badge.you")

    # Table chat: everyone reads it, markup and all, as plain text.
    hello = "<b>مرحبا</b> & <img src=x onerror=alert(1)> hi"
    alia.fill(".chat-input", hello)
    alia.click(".chat-form button[type=submit]")
    for page in (alia, badr, chad):
        wait_line(page, hello)
        assert page.locator(".chat-lines b, .chat-lines img").count() == 0

    # Team chat: partners only. On a phone the chat is a drawer: it opens first.
    badr.click("[data-action=chat]")
    badr.click(".chat .tab[data-channel=team]")
    badr.fill(".chat-input", "خلنا نحمي البيت")
    badr.press(".chat-input", "Enter")
    wait_line(badr, "خلنا نحمي البيت")
    alia.locator(".chat .tab[data-channel=team] .unread").wait_for()
    alia.click(".chat .tab[data-channel=team]")
    wait_line(alia, "خلنا نحمي البيت")
    chad.click(".chat .tab[data-channel=team]")
    chad.fill(".chat-input", "we plan too")
    chad.click(".chat-form button[type=submit]")
    wait_line(chad, "we plan too")
    assert "خلنا نحمي البيت" not in chat_lines(chad)
    assert "we plan too" not in chat_lines(alia)
    chad.click(".chat .tab[data-channel=table]")
    assert hello in chat_lines(chad)

    # Chat survives a reload (the history comes back with the seat).
    badr.reload()
    badr.wait_for_selector("#table .room")
    badr.click("[data-action=chat]")
    badr.click(".chat .tab[data-channel=table]")
    wait_line(badr, hello)
    shot(alia, "chat-ar-desktop", full_page=False)
