"""The client runs under the strict Content-Security-Policy, and no other site can frame it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sahrat.server.security import CSP
from tests.browser.conftest import DESKTOP
from tests.browser.ui import TABLE_STATUS
from tests.server.harness import Server

pytestmark = pytest.mark.browser

#: Recorded in every document before its own scripts run: what the policy blocked.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  const what = e.blockedURI || 'inline';
  window.__violations.push(`${e.violatedDirective} blocked ${what} at ${where}`);
});
"""


class Watched:
    """A browser context that keeps its console errors and its documents' headers."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.errors: list[str] = []
        self.documents: dict[str, dict[str, str]] = {}
        self.context.on("console", self.console)
        self.context.on("response", self.response)
        self.context.on("weberror", lambda error: self.errors.append(f"page error: {error.error}"))
        self.server = server

    def console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def response(self, response: Any) -> None:
        if response.request.resource_type == "document":
            path = response.url.removeprefix(self.server.url).split("#")[0]
            self.documents[path] = response.all_headers()


@pytest.fixture
def watched(browser: Any, server: Server) -> Iterator[Watched]:
    watch = Watched(browser, server)
    yield watch
    watch.context.close()


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def assert_secured(headers: dict[str, str]) -> None:
    assert headers["content-security-policy"] == CSP
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"


#: Per game: what shows that the table has rendered its board and hand.
RENDERED = {
    "jackaroo": ".jk-board .marble",
    "buraco": ".bu-hand button.card",
}


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_lobby_table_and_verify_page_run_under_the_policy(
    open_page: Any, watched: Watched, server: Server, game: str
) -> None:
    page = open_page(context=watched.context)
    assert_secured(watched.documents["/"])
    # A table with bots: the board, the cards and the seat colours all render.
    # Predicates are functions: Playwright polls a bare expression with eval, which the
    # policy forbids.
    page.click(f"[data-play-now={game}]")
    page.wait_for_selector("#table .room")
    page.click("[data-action=bots]")
    page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=20_000)
    page.wait_for_selector(RENDERED[game])
    # A few bot moves: marbles glide, cards are played, seats light up.
    page.wait_for_timeout(1500)
    table_id = page.locator("#table").get_attribute("data-table")
    assert violations(page) == []

    # The Verify page fetches the running table's record over the API.
    verify = watched.context.new_page()
    verify.goto(f"{server.url}/static/verify.html#record=/api/records/{table_id}")
    verify.wait_for_selector("body[data-ready]")
    verify.wait_for_selector("#summary[data-status=running]")
    verify.click("#lang")
    assert_secured(watched.documents["/static/verify.html"])
    assert violations(verify) == []
    assert violations(page) == []
    assert watched.errors == []


def test_another_site_cannot_frame_the_app(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.set_content(f'<iframe id="framed" src="{server.url}/"></iframe>')
        page.wait_for_load_state("load")
        frames = [f for f in page.frames if f is not page.main_frame]
        assert len(frames) == 1
        # The blocked frame never runs the app: no lobby, no connection.
        page.wait_for_timeout(500)
        assert frames[0].evaluate("document.querySelector('#app')") is None
        assert frames[0].evaluate("document.querySelector('.link-status')") is None
    finally:
        context.close()
