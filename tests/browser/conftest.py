"""Real Chromium against a real server: fixtures for the browser client's tests.

Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright's sync API
through ``executable_path``; nothing is downloaded. Without Chromium the tests
are skipped, unless ``SAHRAT_REQUIRE_SERVICES=1`` makes that a failure.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Server, running

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: Where the README's screenshots live; the tests write there only when
#: ``SAHRAT_SCREENSHOTS=1`` (a plain run leaves the tree as it was).
README_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives real Chromium against a real server")


def screenshot_dir() -> Path:
    if os.environ.get("SAHRAT_SCREENSHOTS") == "1":
        return README_SCREENSHOTS
    return Path(tempfile.gettempdir()) / "sahrat-screenshots"


def need_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("SAHRAT_REQUIRE_SERVICES") == "1":
        pytest.fail("SAHRAT_REQUIRE_SERVICES=1 needs Chromium: /usr/bin/chromium is missing")
    pytest.skip("/usr/bin/chromium is not installed")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole browser suite: quick bots, short but humane clocks."""
    need_chromium()
    with running(
        tmp_path_factory.mktemp("browser-server"),
        bot_delay=0.05,
        turn_seconds=20,
        min_turn_seconds=3,
        seed_seconds=1.0,
        finished_linger=30.0,
    ) as srv:
        yield srv


# Per package, not per session: Playwright's sync API runs an event loop in this thread,
# and a process of a parallel run that goes on to other tests needs the thread free of it.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``open_page(size="desktop", lang="ar", hash="")``: a fresh browser profile on the app.

    Each call is a new context (its own localStorage, so its own guest). Page
    errors and missing translation keys fail the test.
    """
    contexts: list[Any] = []
    problems: list[str] = []

    def note(message: Any) -> None:
        # A word without a translation is logged by i18n.js: that is a bug.
        if message.type in ("error", "warning") and "i18n" in message.text:
            problems.append(message.text)

    def make(size: str = "desktop", lang: str = "ar", hash: str = "", context: Any = None) -> Any:
        if context is None:
            context = browser.new_context(
                viewport=PHONE if size == "phone" else DESKTOP, reduced_motion="reduce"
            )
            contexts.append(context)
            if lang != "ar":
                context.add_init_script(f"localStorage.setItem('sahrat.lang', '{lang}')")
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("console", note)
        page.goto(server.url + "/" + (f"#{hash}" if hash else ""))
        page.wait_for_selector(".link-status.open")
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, problems


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot for the README (docs/screenshots/NAME.png, see :func:`screenshot_dir`)."""
    folder = screenshot_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # A full-page picture of a scrolled page would show the sticky header mid-page.
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)
