"""The leaderboard, profile and friends screens in real Chromium, on phone and desktop, in
Arabic and English, against a real server whose players have played rated games.

The accounts and their games are made over REST and the WebSocket before the browsers
open; a browser is signed in by the account's session token in its storage.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shot
from tests.browser.ui import account_server
from tests.server.harness import Account, Server, call, new_account, run, unique_name
from tests.server.people_games import rated_game

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's own server: one rated game puts a player on the leaderboard."""
    with account_server(tmp_path_factory.mktemp("people"), leaderboard_min_games=1) as srv:
        yield srv


@dataclass
class Players:
    me: Account
    rival: Account
    third: Account


@pytest.fixture(scope="module")
def players(server: Server) -> Players:
    """Three accounts who played two rated Jackaroo games; the rival asked ``me`` to be
    friends."""
    me, rival, third = (new_account(server, unique_name("Reem")) for _ in range(3))
    run(rated_game(server, [me, rival], 3), timeout=300)
    run(rated_game(server, [rival, third], 5), timeout=300)
    assert call(server, "POST", "/api/friends", {"name": me.name}, token=rival.token).status == 201
    return Players(me, rival, third)


@pytest.fixture
def as_account(browser: Any, open_page: Callable[..., Any]) -> Iterator[Callable[..., Any]]:
    """``as_account(account, size, lang, hash)``: a page signed in as ``account``."""
    contexts: list[Any] = []

    def make(account: Account, size: str = "desktop", lang: str = "ar", hash: str = "") -> Any:
        context = browser.new_context(
            viewport=PHONE if size == "phone" else DESKTOP, reduced_motion="reduce"
        )
        contexts.append(context)
        script = f"localStorage.setItem('sahrat.token', {json.dumps(account.token)});"
        if lang != "ar":
            script += f"localStorage.setItem('sahrat.lang', {json.dumps(lang)});"
        context.add_init_script(script)
        page = open_page(size, lang, hash, context=context)
        page.wait_for_function(
            "id => window.sahrat.account.me && window.sahrat.account.me.id === id", arg=account.id
        )
        return page

    yield make
    for context in contexts:
        context.close()


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def board_ids(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#leaderboard tbody .board-row", "rows => rows.map(r => r.dataset.player)"
    )
    return found


# -- the leaderboard ----------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [("phone", "ar"), ("desktop", "en")])
def test_the_leaderboard_is_reached_from_the_header_and_lists_the_rated_players(
    as_account: Callable[..., Any], players: Players, size: str, lang: str
) -> None:
    page = as_account(players.me, size, lang)
    page.click(".app-head [data-people=leaderboard]")
    page.wait_for_selector("#leaderboard .board-row")
    assert set(board_ids(page)) == {players.me.id, players.rival.id, players.third.id}
    assert page.locator("#leaderboard .board-row.you").get_attribute("data-player") == players.me.id
    # Ranks run from 1 in order; a new player's rating is marked provisional.
    ranks = page.eval_on_selector_all(
        "#leaderboard tbody .board-row", "rows => rows.map(r => +r.dataset.rank)"
    )
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert page.locator("#leaderboard .board-row .provisional").count() == 3
    heading = page.locator("#leaderboard .page-title").text_content()
    assert heading == ("المتصدرين" if lang == "ar" else "Leaderboard")
    no_sideways_scroll(page)
    shot(page, f"leaderboard-{lang}-{size}")


def test_the_weeks_board_by_wins_and_another_games_empty_board(
    as_account: Callable[..., Any], players: Players
) -> None:
    page = as_account(players.me, "desktop", "en", "account&people=leaderboard")
    page.wait_for_selector("#leaderboard .board-row")
    page.click("#leaderboard [data-period=week]")
    page.click("#leaderboard [data-by=wins]")
    page.wait_for_selector("#leaderboard [data-by=wins].on")
    page.wait_for_function(
        "() => document.querySelector('#leaderboard th:nth-child(3)').textContent === 'Wins'"
    )
    wins = page.eval_on_selector_all(
        "#leaderboard tbody .board-row td:nth-child(3)", "cells => cells.map(c => +c.textContent)"
    )
    assert sum(wins) == 2 and wins == sorted(wins, reverse=True)
    page.click("#leaderboard [data-game=buraco]")
    page.wait_for_selector("#leaderboard .board-empty")
    assert board_ids(page) == []


def test_a_guest_sees_the_leaderboard_but_no_friends_button(
    open_page: Callable[..., Any], players: Players
) -> None:
    page = open_page("phone", hash="account&people=leaderboard")
    page.wait_for_selector("#leaderboard .board-row")
    assert page.locator(".app-head [data-people=friends]").count() == 0
    assert page.locator("#leaderboard .board-row.you").count() == 0


# -- profiles -----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [("phone", "ar"), ("desktop", "en")])
def test_ones_own_profile_shows_games_rating_and_last_games(
    as_account: Callable[..., Any], players: Players, size: str, lang: str
) -> None:
    page = as_account(players.me, size, lang, "account&people=profile")
    page.wait_for_selector("#profile .profile-edit")
    assert page.locator("#profile .profile-name").text_content() == players.me.name
    stats = "#profile .game-stats[data-game=jackaroo]"
    assert page.locator(f"{stats} [data-stat=played]").text_content() == "1"
    assert page.locator(f"{stats} [data-stat=rating]").text_content() != ""
    assert page.locator("#profile .last-game").count() == 1
    verify = page.locator("#profile .last-game [data-action=verify]").get_attribute("href") or ""
    assert verify.startswith("/static/verify.html#record=/api/records/")
    assert page.locator("#profile .avatar-choice").count() == 12
    no_sideways_scroll(page)
    shot(page, f"profile-{lang}-{size}")


def test_choosing_an_avatar_and_a_refused_then_accepted_name(
    as_account: Callable[..., Any], server: Server
) -> None:
    account = new_account(server, unique_name("Sara"))
    page = as_account(account, "phone", "ar", "account&people=profile")
    page.wait_for_selector("#profile .profile-edit")
    page.click("#profile .avatar-choice[data-avatar=moon]")
    page.wait_for_selector("#profile .profile-head .avatar[data-avatar=moon]")
    assert call(server, "GET", f"/api/players/{account.id}").body["avatar"] == "moon"
    page.fill("#profile input[name=name]", "x")
    page.click("#profile [data-action=rename]")
    error = page.locator("#profile .form-error:not([hidden])")
    error.wait_for()
    assert error.get_attribute("data-code") == "name_too_short"
    assert call(server, "GET", "/api/me", token=account.token).body["name"] == account.name
    new = unique_name("Noura")
    page.fill("#profile input[name=name]", new)
    page.click("#profile [data-action=rename]")
    page.wait_for_function(
        "n => document.querySelector('#profile .profile-name').textContent === n", arg=new
    )
    page.wait_for_function(
        "n => document.querySelector('.app-head .me').textContent === n", arg=new
    )
    # Once a month: the form now says when, and does not send.
    assert page.locator("#profile [data-action=rename]").is_disabled()


def test_someone_elses_profile_from_the_leaderboard_offers_friendship(
    as_account: Callable[..., Any], players: Players, server: Server
) -> None:
    page = as_account(players.third, "desktop", "en", "account&people=leaderboard")
    page.click(f"#leaderboard .board-row[data-player={players.me.id}] .person")
    page.wait_for_selector("#profile .profile-head [data-action=befriend]")
    assert page.locator("#profile .profile-name").text_content() == players.me.name
    assert page.locator("#profile .profile-edit").count() == 0
    page.click("#profile [data-action=befriend]")
    page.wait_for_selector("#toasts .toast")
    incoming = call(server, "GET", "/api/friends", token=players.me.token).body["incoming"]
    assert players.third.id in [p["id"] for p in incoming]
    shot(page, "profile-other-en-desktop")


def test_an_unknown_profile_says_so(as_account: Callable[..., Any], players: Players) -> None:
    page = as_account(players.me, "phone", "ar", "account&people=profile&player=nobody-here")
    notice = page.locator("#profile .notice.error")
    notice.wait_for()
    assert notice.get_attribute("data-code") == "no_such_player"
    assert notice.text_content() == "ما فيه لاعب بهالاسم"


# -- friends ------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [("phone", "ar"), ("desktop", "en")])
def test_the_friends_screen_lists_requests_and_refuses_bad_names(
    as_account: Callable[..., Any], server: Server, size: str, lang: str
) -> None:
    me, other = new_account(server, unique_name("Huda")), new_account(server, unique_name("Ali"))
    call(server, "POST", "/api/friends", {"name": me.name}, token=other.token)
    page = as_account(me, size, lang)
    page.click(".app-head [data-people=friends]")
    page.wait_for_selector(f"#friends [data-list=incoming] [data-player={other.id}]")
    shot(page, f"friends-{lang}-{size}")
    for name, code in ((me.name, "cannot_friend_self"), (unique_name("ghost"), "no_such_player")):
        page.fill("#friends input[name=friend]", name)
        page.click("#friends [data-action=add-friend]")
        page.wait_for_selector(f"#friends .form-error[data-code={code}]:not([hidden])")
    assert call(server, "GET", "/api/friends", token=me.token).body["outgoing"] == []
    no_sideways_scroll(page)


def test_accepting_removing_blocking_and_unblocking_a_friend(
    as_account: Callable[..., Any], server: Server
) -> None:
    me, other = new_account(server, unique_name("Huda")), new_account(server, unique_name("Ali"))
    call(server, "POST", "/api/friends", {"name": me.name}, token=other.token)
    page = as_account(me, "desktop", "en", "account&people=friends")
    row = f"[data-player={other.id}]"
    page.click(f"#friends [data-list=incoming] {row} [data-action=accept]")
    page.wait_for_selector(f"#friends [data-list=friends] {row}")
    friends = call(server, "GET", "/api/friends", token=other.token).body["friends"]
    assert [p["id"] for p in friends] == [me.id]
    page.click(f"#friends [data-list=friends] {row} [data-action=block]")
    page.wait_for_selector(f"#friends [data-list=blocked] {row}")
    assert page.locator(f"#friends [data-list=friends] {row}").count() == 0
    refused = call(server, "POST", "/api/friends", {"name": me.name}, token=other.token)
    assert refused.code == "blocked"
    page.click(f"#friends [data-list=blocked] {row} [data-action=unblock]")
    page.wait_for_function("() => !document.querySelector('#friends [data-list=blocked]')")
    # Adding by name, however spelled, sends a request.
    page.fill("#friends input[name=friend]", other.name.upper())
    page.click("#friends [data-action=add-friend]")
    page.wait_for_selector(f"#friends [data-list=outgoing] {row}")


def test_a_guest_is_offered_registration_on_the_friends_screen(
    open_page: Callable[..., Any],
) -> None:
    page = open_page("phone", hash="account&people=friends")
    page.wait_for_selector("#friends .guest-friends")
    page.click("#friends [data-action=register]")
    page.wait_for_selector("#auth")
