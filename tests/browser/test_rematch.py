"""Play again from the end card, the replay and Verify links of a finished table, bots that
fill a free table nobody joins, and the question before leaving a game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import need_chromium, shot
from tests.browser.ui import TABLE_STATUS
from tests.server.harness import Server, running

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Games that play themselves quickly: a person's clock may be a fraction of a second,
    and the server then plays for them; bots come after a second at a free table."""
    need_chromium()
    settings = {
        "bot_delay": 0.0,
        "min_turn_seconds": 0.2,
        "autopilot_ms": 5,
        "seed_seconds": 0.5,
        "finished_linger": 60.0,
        "autofill_seconds": 1.0,
    }
    with running(tmp_path_factory.mktemp("rematch-server"), **settings) as srv:
        yield srv


def finished_game(page: Any) -> str:
    """A 2-seat Jackaroo game against a bot, played by the clock to its end; its table id."""
    page.evaluate(
        "window.sahrat.conn.send('create', {game: 'jackaroo', seats: 2, turn_seconds: 0.2})"
    )
    page.wait_for_selector("#table .room [data-action=bots]")
    page.click("[data-action=bots]")
    page.wait_for_function(f"() => {TABLE_STATUS} === 'finished'", timeout=150_000, polling=200)
    return str(page.locator("#table").get_attribute("data-table"))


def test_play_again_with_the_same_seats(open_page: Any, server: Server) -> None:
    page = open_page("phone", lang="en")
    old = finished_game(page)
    end = page.locator(".end-card")
    end.wait_for()
    # The replay is named as one; Verify opens the same way from the card and the panel.
    assert "Watch the replay" in (end.locator("[data-action=replay]").text_content() or "")
    targets = page.eval_on_selector_all(
        "[data-action=verify]", "(links) => links.map((a) => a.target + ' ' + a.rel)"
    )
    assert len(targets) >= 2 and set(targets) == {"_blank noopener"}
    seat = page.evaluate("window.sahrat.tableScreen.msg.you")
    shot(page, "end-card-en-phone", full_page=False)

    # The replay's address opened in another tab shows the replay, not the end card.
    other = open_page(context=page.context, hash=f"replay={old}")
    other.wait_for_selector("#replay")
    other.wait_for_timeout(500)
    assert other.locator("#table").count() == 0 and "replay=" in other.url
    other.close()

    page.click(".end-card [data-action=rematch]")
    page.wait_for_function(
        f"() => document.querySelector('#table')?.dataset.table !== '{old}'", timeout=15_000
    )
    page.wait_for_function(f"() => ['seeding', 'playing'].includes({TABLE_STATUS})")
    msg = page.evaluate("window.sahrat.tableScreen.msg")
    assert msg["rematch_of"] == old and msg["you"] == seat
    assert [s.get("bot") for s in msg["seats"]].count(True) == 1


def test_leaving_a_game_asks_first_and_the_last_person_closes_it(
    open_page: Any, server: Server
) -> None:
    page = open_page("desktop", lang="en")
    page.click("[data-play-now=buraco]")
    page.wait_for_selector("#table .room .hint.autofill")
    # Nobody joins: bots come by themselves.
    page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=10_000)
    table = page.locator("#table").get_attribute("data-table")
    page.click("[data-action=leave]")
    dialog = page.locator(".confirm-leave")
    dialog.wait_for()
    assert "the game closes" in (dialog.text_content() or "")
    page.click("[data-action=stay]")
    dialog.wait_for(state="hidden")
    assert page.locator("#table").count() == 1
    page.click("[data-action=leave]")
    page.click("[data-action=confirm-leave]")
    page.wait_for_selector("#lobby")
    # The lobby shows at once; the server closes the table as the leave arrives.
    deadline = time.monotonic() + 5
    while table in [t["id"] for t in server.get("/api/tables")["tables"]]:
        assert time.monotonic() < deadline, "the table is still listed"
        time.sleep(0.05)
    page.locator(f".table-row[data-table='{table}']").wait_for(state="detached")
