"""A private table: the host creates it, a friend comes by its link, the host seats them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.ui import TABLE_STATUS

pytestmark = pytest.mark.browser


def test_a_host_seats_a_friend_who_came_by_the_link(open_page: Any) -> None:
    host = open_page("desktop")
    host_name = host.locator(".app-head .me").text_content()

    # Create: Jackaroo, classic rules with one change, four seats, private.
    host.click(".create-form [data-preset=classic]")
    host.locator(".create-form .rules-details summary").click()
    host.select_option(".create-form select[name=king]", "sweep")
    host.select_option(".create-form select[name=turn]", "20")
    host.check(".create-form input[name=private]")
    host.click(".create-form [data-action=create]")
    host.wait_for_selector("#table .room .invite")
    code = host.locator(".table-code").text_content() or ""
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    link = host.locator(".invite-link").input_value()
    assert link.endswith(f"/#code={code}")
    header = host.locator(".table-head .rules").text_content() or ""
    assert "جاكارو الكلاسيكية" in header and "الشايب ياكل كل بلية يتخطاها" in header

    # The friend opens the link (in English, on a phone) and sits down.
    guest = open_page("phone", lang="en", hash=f"code={code}")
    guest.wait_for_selector("#table .room")
    guest_name = guest.locator(".app-head .me").text_content() or ""
    host.wait_for_function(
        "name => [...document.querySelectorAll('.room-seat .seat-name')]"
        ".some(e => e.textContent === name)",
        arg=guest_name,
    )
    assert guest.locator(".room-seat .badge.you").count() == 1
    assert guest.locator("[data-action=start]").count() == 0  # only the host starts

    # The host puts the friend opposite, as partner (seat 3 of the list = engine seat 2).
    assigned_by_host = host.locator("select[name=assign-2]").count() == 1
    if assigned_by_host:
        host.locator("select[name=assign-2]").select_option(label=guest_name)
        host.click("[data-action=assign]")
    else:
        # The server sends no player ids yet: the friend moves by themself meanwhile.
        guest.click("[data-sit='2']")
    partner_seat = ".room-seat[data-seat='2'] .seat-name"
    host.wait_for_function(
        f'() => document.querySelector("{partner_seat}")?.textContent === {guest_name!r}'
    )
    guest.wait_for_selector(".room-seat[data-seat='2'] .badge.you")

    # The host changes the turn time; everyone sees it.
    host.select_option("select[name=turn_time]", "30")
    guest.wait_for_function(
        "() => document.querySelector('.table-head').textContent.includes('30 s')"
    )
    shot(host, "private-host", full_page=True)
    shot(guest, "private-guest-en-phone", full_page=True)

    # Bots in the empty seats, then the host starts: the shuffle is committed first.
    host.click("[data-action=bots]")
    host.click("[data-action=start]:not([disabled])")
    for page in (host, guest):
        page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=20_000)
    partner = ".seat-chips .seat-chip:has(.badge.partner) .seat-name"
    assert host.locator(partner).text_content() == guest_name
    assert guest.locator(partner).text_content() == host_name
    assert guest.locator(".seat-chips .seat-chip.bottom .badge.you").count() == 1
    guest.click(".fair summary")
    assert re.fullmatch(r"[0-9a-f]{64}", guest.locator(".fair .hash").first.text_content() or "")

    # Both leave (a game that is on asks first): the players are back in the lobby.
    for page in (guest, host):
        page.click("[data-action=leave]")
        page.click("[data-action=confirm-leave]")
        page.wait_for_selector("#lobby")

    if not assigned_by_host:
        pytest.xfail("the table message carries no player ids, so the host cannot assign seats")
