"""axe-core on the end card of a finished game and the Verify page of its record, on a
server of their own whose bots play at once, so the game ends in seconds (the other
screens' server keeps its tables slow, to check them in play)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import need_chromium
from tests.browser.test_axe import check_both_sizes
from tests.browser.ui import TABLE_STATUS
from tests.server.harness import Server, running

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    need_chromium()
    settings = {"bot_delay": 0.0, "min_turn_seconds": 0.2, "autopilot_ms": 5,
                "seed_seconds": 0.5, "finished_linger": 120.0}  # fmt: skip
    with running(tmp_path_factory.mktemp("axe-end-server"), **settings) as srv:
        yield srv


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def test_the_end_card_and_the_verify_page(open_page: Any, axe: Axe, server: Server) -> None:
    page = open_page("phone", lang="en")
    page.evaluate(
        "window.sahrat.conn.send('create', {game: 'jackaroo', seats: 2, turn_seconds: 0.2})"
    )
    page.wait_for_selector("#table .room [data-action=bots]")
    page.click("[data-action=bots]")
    page.wait_for_function(f"() => {TABLE_STATUS} === 'finished'", timeout=120_000, polling=200)
    page.locator(".end-card").wait_for()
    check_both_sizes(axe, page, "end card")
    table_id = page.locator("#table").get_attribute("data-table")
    page.goto(f"{server.url}/static/verify.html#record=/api/records/{table_id}")
    verdict = "#summary[data-status]:not([data-status=busy])"
    page.wait_for_selector(verdict, timeout=60_000)
    assert page.get_attribute("#summary", "data-status") == "ok"
    check_both_sizes(axe, page, "verify page")
    before = page.evaluate("document.documentElement.lang")
    page.click("#lang")  # the other language re-renders the same verdict
    page.wait_for_function(f"() => document.documentElement.lang !== '{before}'")
    page.wait_for_selector(verdict)
    check_both_sizes(axe, page, "verify page, other language")
