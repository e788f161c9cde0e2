"""Accounts in the browser: register, log out and in, refusals in both languages,
sessions and the password, the daily gift."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.ui import (
    PASSWORD,
    account_server,
    balance,
    form_error,
    fresh_name,
    log_in,
    open_auth,
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


ME = "window.sahrat.account.me"


def test_a_guest_registers_and_keeps_their_id_and_name(open_page: Any) -> None:
    page = open_page("phone")
    guest = page.evaluate(ME)
    assert balance(page) is None and guest["guest"] is True
    open_auth(page, "register")
    # The guest's own name is offered.
    assert page.input_value("#auth input[name=name]") == guest["name"]
    snap(page, "register-ar-phone")
    name = fresh_name()
    page.fill("#auth input[name=name]", name)
    page.fill("#auth input[name=password]", PASSWORD)
    page.click("#auth [data-action=register]")
    wait_balance(page, 1000)
    page.wait_for_function(f"() => {ME}.guest === false && {ME}.balance === 1000")
    me = page.evaluate(ME)
    assert me["id"] == guest["id"], "the guest became the account"
    assert page.locator(".app-head .me").text_content() == name
    assert page.locator(".app-head [data-action=login]").count() == 0
    assert "الرصيد" in (page.locator(".app-head .balance").get_attribute("title") or "")
    snap(page, "lobby-account-ar-phone")


def test_log_out_and_back_in(open_page: Any) -> None:
    page = open_page("desktop", lang="en")
    name = fresh_name("Omar")
    register(page, name)
    page.click(".app-head .me")
    page.wait_for_selector("#account [data-action=logout]")
    snap(page, "account-en-desktop")
    page.click("#account [data-action=logout]")
    # A new guest, with no coins.
    page.wait_for_function(f"() => {ME} && {ME}.guest !== false && {ME}.name !== {name!r}")
    page.wait_for_selector(".app-head [data-action=login]")
    assert balance(page) is None
    log_in(page, name)
    wait_balance(page, 1000)
    assert page.locator(".app-head .me").text_content() == name
    # A reload keeps the session.
    page.reload()
    page.wait_for_selector(".link-status.open")
    wait_balance(page, 1000)


def test_a_wrong_password_is_refused_in_arabic(open_page: Any) -> None:
    page = open_page("phone")
    name = fresh_name("Noura")
    register(page, name)
    page.click(".app-head .me")
    page.click("#account [data-action=logout]")
    page.wait_for_selector(".app-head [data-action=login]")
    open_auth(page, "login")
    page.fill("#auth input[name=name]", name)
    page.fill("#auth input[name=password]", "not the password")
    page.click("#auth [data-action=login]")
    code, words = form_error(page)
    assert code == "wrong_credentials"
    assert words == "الاسم أو كلمة السر غلط"
    snap(page, "login-error-ar-phone")
    assert balance(page) is None


# (name, password, the refusal's code, a piece of its Arabic words, of its English words)
REFUSALS = [
    ("ع", PASSWORD, "name_too_short", "قصير", "too short"),
    ("x" * 21, PASSWORD, "name_too_long", "طويل", "too long"),
    ("Ali<b>", PASSWORD, "name_bad_character", "<", "<"),
    ("Ali  Ahmad", PASSWORD, "name_spaces", "المسافات", "Spaces"),
    ("{fresh}", "short", "password_too_short", "8 أحرف", "8 characters"),
]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_registration_refusal_is_worded(open_page: Any, lang: str) -> None:
    taken = fresh_name("Taken")
    register(open_page("desktop"), taken)
    page = open_page("phone", lang=lang)
    open_auth(page, "register")
    cases = [*REFUSALS, (taken.upper(), PASSWORD, "name_taken", "مأخوذ", "taken")]
    for name, password, code, arabic, english in cases:
        page.fill("#auth input[name=name]", fresh_name() if name == "{fresh}" else name)
        page.fill("#auth input[name=password]", password)
        page.click("#auth [data-action=register]")
        page.wait_for_selector(f"#auth .form-error[data-code={code}]")
        words = page.locator("#auth .form-error").text_content() or ""
        assert (arabic if lang == "ar" else english) in words, (code, words)
    assert balance(page) is None


def test_sessions_are_listed_and_ended_and_the_password_changes(open_page: Any) -> None:
    name = fresh_name("Sara")
    first = open_page("desktop")
    register(first, name)
    second = open_page("phone", lang="en")
    log_in(second, name)
    first.click(".app-head .me")
    first.wait_for_function("() => document.querySelectorAll('#account .session').length >= 2")
    assert first.locator("#account .session.current").count() == 1
    assert "Chrome" in (first.locator("#account .session.current strong").text_content() or "")
    snap(first, "sessions-ar-desktop")
    # Ending the other sessions turns that browser back into a guest.
    others = "#account .session:not(.current) [data-action=revoke]"
    while first.locator(others).count():
        before = first.locator("#account .session").count()
        first.click(others + " >> nth=0")
        first.wait_for_function(
            f"() => document.querySelectorAll('#account .session').length === {before - 1}"
        )
    second.wait_for_selector(".app-head [data-action=login]", timeout=20_000)
    assert balance(second) is None
    # A new password: the old one no longer opens the account, the new one does.
    first.fill("#account input[name=old]", PASSWORD)
    first.fill("#account input[name=new]", "a brand new password")
    first.click("#account [data-action=password]")
    first.wait_for_selector(".toast:has-text('تغيّرت كلمة السر')")
    open_auth(second, "login")
    second.fill("#auth input[name=name]", name)
    second.fill("#auth input[name=password]", PASSWORD)
    second.click("#auth [data-action=login]")
    assert form_error(second)[0] == "wrong_credentials"
    assert "Wrong name or password" in form_error(second)[1]
    second.fill("#auth input[name=password]", "a brand new password")
    second.click("#auth [data-action=login]")
    wait_balance(second, 1000)


def test_the_daily_gift_is_claimed_once(open_page: Any) -> None:
    page = open_page("desktop")
    register(page, fresh_name("Hamad"))
    page.click("#coin-panel [data-action=daily]")
    wait_balance(page, 1200)
    # Claimed: the button gives way to the time until the next gift.
    page.wait_for_selector("#coin-panel .daily-next")
    assert page.locator("#coin-panel [data-action=daily]").count() == 0
    assert "الهدية الجاية" in (page.locator("#coin-panel .daily-next").text_content() or "")
    snap(page, "lobby-account-ar-desktop")
    # The statement lists the starting gift and today's, newest first.
    page.click(".app-head .balance")
    page.wait_for_selector("#statement .ledger-entry")
    kinds = page.eval_on_selector_all(
        "#statement .ledger-entry", "es => es.map(e => e.dataset.kind)"
    )
    assert kinds == ["grant_daily", "grant_start"]
    amounts = page.eval_on_selector_all(
        "#statement .ledger-entry .net", "es => es.map(e => e.dataset.coins)"
    )
    assert amounts == ["200", "1000"]
    snap(page, "statement-ar-desktop")


def test_a_refused_token_is_forgotten_for_a_new_guest(open_page: Any) -> None:
    page = open_page("phone")
    before = page.evaluate(ME)
    forged = "p0123456789abcdef.0000000000000000000000000000000000000000000000000000000000000000"
    page.evaluate(f"localStorage.setItem('sahrat.token', {forged!r})")
    page.reload()
    page.wait_for_selector(".link-status.open")
    page.wait_for_function(f"() => {ME} && {ME}.id !== {before['id']!r}")
    assert page.evaluate("localStorage.getItem('sahrat.token')") != forged
    assert page.locator(".app-head [data-action=login]").count() == 1
    assert "انتهت جلستك" in (page.locator(".toast.error").first.text_content() or "")
