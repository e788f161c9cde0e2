"""Two friends in two browser contexts, real Chromium against a real server: one invites
the other to a private table from the waiting room and the other joins from the
invitation card; the friends screen shows the other online and where. Phone and desktop,
Arabic first."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shot
from tests.browser.ui import account_server
from tests.server.friends_online import befriend
from tests.server.harness import Account, Server, new_account, unique_name

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with account_server(tmp_path_factory.mktemp("friends")) as srv:
        yield srv


@pytest.fixture
def signed_in(browser: Any, open_page: Callable[..., Any]) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(account: Account, size: str, lang: str, hash: str = "") -> Any:
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


@pytest.mark.parametrize(("size", "lang"), [("phone", "ar"), ("desktop", "en")])
def test_a_friend_invited_from_the_waiting_room_joins_from_the_card(
    server: Server, signed_in: Callable[..., Any], size: str, lang: str
) -> None:
    host, friend = (
        new_account(server, unique_name("Reem")),
        new_account(server, unique_name("Omar")),
    )
    befriend(server, host, friend)
    guest_page = signed_in(friend, size, lang, "account&people=friends")
    host_page = signed_in(host, size, lang)
    host_page.evaluate(
        "() => window.sahrat.conn.send('create', {game: 'jackaroo', seats: 4, private: true})"
    )
    # The friends screen shows the host online, at a private table, and nothing more.
    row = f".person-row[data-player='{host.id}'] [data-presence=private]"
    guest_page.wait_for_selector(row)
    assert host.name in guest_page.inner_text(".friend-list[data-list=friends]")
    shot(guest_page, f"friends-presence-{size}-{lang}")
    button = f".invite-friends [data-action=invite][data-player='{friend.id}']"
    host_page.wait_for_selector(button)
    shot(host_page, f"invite-room-{size}-{lang}")
    host_page.click(button)
    card = guest_page.wait_for_selector(".invitation-card")
    assert host.name in card.inner_text()
    shot(guest_page, f"invitation-card-{size}-{lang}")
    guest_page.click(".invitation-card [data-action=accept-invitation]")
    guest_page.wait_for_selector(f".seat-chip:has-text('{friend.name}')")


def test_a_refused_invitation_is_said_once_in_the_players_words(
    signed_in: Callable[..., Any],
    server: Server,
) -> None:
    me, stranger = new_account(server, unique_name()), new_account(server, unique_name())
    page = signed_in(me, "desktop", "en")
    page.evaluate(
        """() => window.sahrat.conn.send('create', {game: 'jackaroo', seats: 4, private: true})"""
    )
    page.wait_for_selector("#table .room")
    page.evaluate("id => window.sahrat.conn.social.invite(id)", stranger.id)
    page.wait_for_selector(".toast.error")
    page.wait_for_timeout(500)  # a second toast, were there one, would be up by now
    toasts = page.locator(".toast").all_inner_texts()
    assert len(toasts) == 1, toasts
    worded = page.evaluate(
        "async () => (await import('/static/i18n-people.js')).tp('invite.error.not_friends')"
    )
    assert toasts == [worded]
