"""Quick reactions and phrases across two browsers, a mute, the chat drawer and its unread
badge on a phone, and the host of a private table told who left."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser

BUBBLE = ".reaction-bubble[data-seat='{seat}'][data-reaction='{reaction}']"


def react(page: Any, reaction: str) -> None:
    page.click("[data-action=reactions]")
    page.click(f".react-panel [data-reaction={reaction}]")


def test_reactions_phrases_mute_and_the_chat_drawer(open_page: Any) -> None:
    host = open_page("desktop", lang="en")
    host.evaluate("window.sahrat.conn.send('create', {game: 'buraco', seats: 4, private: true})")
    host.wait_for_selector("#table .room")
    code = host.evaluate("window.sahrat.tableScreen.msg.table.code")
    guest = open_page("phone", hash=f"code={code}")
    guest.wait_for_selector("#table .room")
    host.wait_for_function(
        "window.sahrat.tableScreen.msg.seats.filter((s) => !s.empty).length === 2"
    )
    host_seat = host.evaluate("window.sahrat.tableScreen.msg.you")
    host_id = host.evaluate("window.sahrat.conn.player.id")

    # An emoji shows on the sender's seat, for everyone at the table.
    react(host, "clap")
    guest.wait_for_selector(BUBBLE.format(seat=host_seat, reaction="clap"))
    host.wait_for_selector(BUBBLE.format(seat=host_seat, reaction="clap"))

    # A phrase shows in each one's language, and in the chat: on a phone the drawer is
    # closed, and its button counts the line.
    react(host, "well_played")
    bubble = guest.locator(BUBBLE.format(seat=host_seat, reaction="well_played"))
    bubble.wait_for()
    assert "كفو!" in (bubble.text_content() or "")
    badge = guest.locator("[data-action=chat] .chat-badge")
    badge.wait_for()
    assert badge.text_content() == "1"
    assert not guest.locator(".chat.drawer").is_visible()
    guest.click("[data-action=chat]")
    guest.wait_for_selector(".chat.drawer.open .chat-line.quick")
    assert guest.locator(".chat.drawer").is_visible() and not badge.is_visible()
    shot(guest, "chat-drawer-ar-phone", full_page=False)
    guest.click(".chat-close")

    # Muted, the host's reactions no longer show for the guest (they still do for the host).
    guest.click("[data-action=reactions]")
    guest.click(f".react-panel [data-mute='{host_id}']")
    guest.click("[data-action=reactions]")
    react(host, "fire")
    host.wait_for_selector(BUBBLE.format(seat=host_seat, reaction="fire"))
    guest.wait_for_timeout(800)
    assert guest.locator(BUBBLE.format(seat=host_seat, reaction="fire")).count() == 0

    # The guest leaves the waiting table: the host is told who left.
    guest_name = guest.evaluate("window.sahrat.conn.player.name")
    guest.click("[data-action=leave]")
    guest.wait_for_selector("#lobby")
    host.wait_for_selector(".room .left-list")
    assert guest_name in (host.locator(".room .left-list").text_content() or "")
