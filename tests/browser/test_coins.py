"""Coin tables in the browser: the stake and pot in the lobby, guests kept out,
a two-account game whose stakes leave the balances and whose end pays out,
then the history and the statement."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.ui import (
    TABLE_STATUS,
    account_server,
    balance,
    create_coin_table,
    data_of,
    fresh_name,
    play_jackaroo_to_end,
    register,
    snap,
    wait_balance,
)
from tests.server.harness import Server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's own server (ui.account_server): open_page uses it instead of the suite's."""
    with account_server(tmp_path_factory.mktemp("accounts")) as srv:
        yield srv


def toast_text(page: Any) -> str:
    page.wait_for_selector(".toast.error")
    return page.locator(".toast.error").last.text_content() or ""


def test_a_guest_is_told_why_coin_tables_are_not_theirs(open_page: Any) -> None:
    page = open_page("phone")
    page.wait_for_selector("#coin-panel:not([hidden])")
    assert "للحسابات المسجّلة" in (page.locator("#coin-panel").text_content() or "")
    assert page.locator("#coin-panel [data-action=register]").count() == 1
    assert page.locator(".create-form [data-kind=coin]").is_disabled()
    assert "للحسابات المسجّلة" in (page.locator(".create-form .kind-field").text_content() or "")


def test_a_coin_table_shows_its_stake_and_pot_to_everyone(open_page: Any) -> None:
    host = open_page("desktop")
    register(host, fresh_name("Fahad"))
    create_coin_table(host, "jackaroo", 4, 100)
    # The host's waiting room: every seat shows the stake, and no bots are offered.
    seats = data_of(host, ".room-seat .seat-stake", "stake")
    assert seats == ["100"] * 4
    assert host.locator("[data-action=bots]").count() == 0
    assert host.locator(".table-head .stake-line").get_attribute("data-pot") == "400"
    snap(host, "coin-room-ar-desktop")
    table = host.locator("#table").get_attribute("data-table")

    for size, lang in (("phone", "ar"), ("desktop", "en")):
        other = open_page(size, lang=lang)
        row = other.locator(f".table-row[data-table='{table}']")
        row.wait_for()
        line = row.locator(".stake-line")
        assert line.get_attribute("data-stake") == "100"
        assert line.get_attribute("data-pot") == "400"
        words = line.text_content() or ""
        expected = ["طاولة عملات", "مجموع الطاولة"] if lang == "ar" else ["Coin table", "Pot"]
        assert all(word in words for word in expected), words
        snap(other, f"lobby-coins-{lang}-{size}")
        # A guest who tries to sit there is told why not.
        row.locator("button").click()
        text = toast_text(other)
        assert ("سجّل" in text) if lang == "ar" else ("register" in text)


def test_two_accounts_play_for_coins(open_page: Any) -> None:
    alia, badr = open_page("desktop"), open_page("phone")
    register(alia, fresh_name("Alia"))
    register(badr, fresh_name("Badr"))
    create_coin_table(alia, "jackaroo", 2, 50)
    table = alia.locator("#table").get_attribute("data-table")
    row = badr.locator(f".table-row[data-table='{table}']")
    row.locator("button").click()
    # The game starts: each stake leaves its balance.
    for page in (alia, badr):
        page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=20_000)
        wait_balance(page, 950)
    assert alia.locator(".table-head .stake-line").get_attribute("data-pot") == "100"
    snap(badr, "coin-game-ar-phone", full_page=False)
    # Badr leaves: the server plays his seat and he gets nothing.
    badr.click("[data-action=leave]")
    badr.click("[data-action=confirm-leave]")
    badr.wait_for_selector("#lobby")
    play_jackaroo_to_end(alia, deadline_s=240)
    card = alia.locator(".end-card .end-coins")
    card.wait_for()
    assert card.get_attribute("data-pot") == "100" and card.get_attribute("data-fee") == "10"
    nets = [int(n) for n in data_of(alia, ".end-coins-list li", "net")]
    assert sorted(nets) in ([-50, 40], [-50, -50])
    mine = int(alia.locator(".end-coins-list li.mine").get_attribute("data-net") or "0")
    wait_balance(alia, 1000 + mine)
    assert "رسم الطاولة" in (card.text_content() or "")
    snap(alia, "coin-end-ar-desktop", full_page=False)

    # Alia's history and statement list the game.
    alia.click(".end-card [data-action=lobby]")
    alia.wait_for_selector("#lobby")
    alia.click(".app-head .me")
    alia.click("#account [data-action=history]")
    entry = alia.locator(f"#history .game-entry[data-table='{table}']")
    entry.wait_for()
    assert int(entry.locator(".net").get_attribute("data-coins") or "") == mine
    assert entry.locator("[data-action=replay]").get_attribute("href") == f"#replay={table}"
    verify = entry.locator("[data-action=verify]").get_attribute("href") or ""
    assert f"record=/api/records/{table}" in verify
    snap(alia, "history-ar-desktop")
    alia.click(".app-head .balance")
    alia.wait_for_selector("#statement .ledger-entry")
    kinds = data_of(alia, "#statement .ledger-entry", "kind")
    assert kinds == (["payout", "stake", "grant_start"] if mine > 0 else ["stake", "grant_start"])

    # Badr's history says he left; a stake above his balance is refused with the numbers.
    badr.click(".app-head .me")
    badr.click("#account [data-action=history]")
    badr.wait_for_selector(f"#history .game-entry[data-table='{table}'] .badge.offline")
    snap(badr, "history-ar-phone")
    badr.click(".app-head .balance")
    badr.wait_for_selector("#statement .ledger-entry")
    assert data_of(badr, "#statement .ledger-entry", "kind") == ["stake", "grant_start"]
    snap(badr, "statement-ar-phone")
    badr.click(".brand")
    badr.click("#coin-panel [data-stake='1000']")
    badr.click("#coin-panel [data-play-now-coins=jackaroo]")
    text = toast_text(badr)
    assert "1000" in text and "950" in text, text
    assert balance(badr) == 950
