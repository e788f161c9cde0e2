"""Spectators in the browser: watching a whole bot game from the lobby without ever
seeing a hand, and the seats' page counting who watches (phone and desktop, Arabic and
English)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.bot_game import BotGame
from tests.browser.conftest import shot
from tests.server.harness import Server

pytestmark = [pytest.mark.browser, pytest.mark.long]

#: Anything of a seat's own on the page: a hand, a card in the hand's area, the action bar.
SEAT_ONLY = ".hand, .hand-area .card[data-code], .move-actions, .bu-suggestions, [data-sit]"


def no_seat_parts(page: Any) -> None:
    assert page.locator(SEAT_ONLY).count() == 0


@pytest.mark.parametrize(
    ("size", "lang", "game"), [("phone", "ar", "jackaroo"), ("desktop", "en", "buraco")]
)
def test_a_spectator_watches_a_whole_bot_game_and_never_sees_a_hand(
    open_page: Any, server: Server, size: str, lang: str, game: str
) -> None:
    with BotGame(server, game) as played:
        page = open_page(size, lang=lang)
        row = page.locator(f".table-row[data-table='{played.table_id}']")
        row.locator("[data-action=watch]").click()
        page.wait_for_selector("#table.spectating")
        page.wait_for_selector(".watch-badge.spectating")
        no_seat_parts(page)
        assert page.locator(".chat-form").is_hidden()
        assert page.locator(".read-only-note").count() == 1
        if game == "buraco":
            # A spectator has no side: the sides are named by their players, not Us/Them.
            names = page.locator(".bu-score .score-item > span:first-child").all_inner_texts()
            assert len(names) == 2 and "Salem" in names and "Us" not in names, names
            assert page.locator(".bu-melds.us .melds-title").inner_text() == "Melds of Salem"
        shot(page, f"watch-{lang}-{size}", full_page=False)
        played.go.set()
        # Sampled all along the game: never a hand, never an action bar.
        while not page.locator(".end-card:not([hidden])").count():
            no_seat_parts(page)
            page.wait_for_timeout(150)
        no_seat_parts(page)
        assert page.locator("#table").get_attribute("data-status") == "finished"
        page.click(".end-card [data-action=lobby]")
        page.wait_for_selector("#lobby")
    assert played.result is not None


def test_the_seats_page_shows_how_many_watch(open_page: Any) -> None:
    alia = open_page("desktop")
    alia.click(".create-form [data-game=buraco]")
    alia.click(".create-form [data-action=create]")
    alia.wait_for_selector("#table .room")
    table_id = alia.locator("#table").get_attribute("data-table")
    alia.click("[data-action=bots]")
    alia.wait_for_selector("#table[data-status=playing]")
    assert alia.locator(".watch-badge").count() == 0
    badr = open_page("phone", lang="en")
    badr.locator(f".table-row[data-table='{table_id}'] [data-action=watch]").click()
    badr.wait_for_selector("#table.spectating")
    alia.wait_for_selector(".watch-badge[data-watching='1']")
    shot(alia, "watched-seat-ar-desktop", full_page=False)
    # Stopping the watch takes the spectator to the lobby; the seats see nobody watching.
    badr.click("[data-action=leave]")
    badr.wait_for_selector("#lobby")
    alia.wait_for_selector(".watch-badge", state="detached")


def test_a_private_table_is_watched_by_its_code_once_its_host_allows(open_page: Any) -> None:
    host = open_page("desktop")
    host.click(".create-form [data-game=buraco]")
    host.check(".create-form input[name=private]")
    host.click(".create-form [data-action=create]")
    host.wait_for_selector("#table .room .invite")
    code = host.locator(".table-code").text_content() or ""
    friend = open_page("phone", lang="en")
    friend.fill(".code-input", code)
    friend.click("[data-action=watch-code]")
    friend.wait_for_selector(".toast")  # refused: the host has not allowed it
    assert friend.locator("#lobby").count() == 1
    host.check(".watch-toggle input[name=allow]")
    host.wait_for_function(
        "() => document.querySelector('.watch-toggle input[name=allow]').checked"
    )
    friend.click("[data-action=watch-code]")
    friend.wait_for_selector("#table.spectating .room")
    # From the room a spectator takes no seat; the host sees one watching.
    assert friend.locator("[data-sit], [data-action=bots]").count() == 0
    host.wait_for_selector(".watch-badge[data-watching='1']")
    shot(friend, "watch-room-en-phone", full_page=False)
