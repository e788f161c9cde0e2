"""axe-core on every screen a player meets: no serious or critical accessibility violation.

The lobby, a Jackaroo table in play, a Buraco table in play with its end-of-hand
summary (the end card and the Verify page: ``test_axe_end.py``), each checked on a
phone (390×844) and a desktop (1440×900), in Arabic and in English.
axe-core is the copy that ships inside ``axe-playwright-python`` (a test extra);
it is put into the page through the DevTools protocol, as a test's own script.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import DESKTOP, PHONE, need_chromium
from tests.browser.test_buraco_layout import RESULT
from tests.browser.ui import start_with_bots
from tests.server.harness import Server, running

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "desktop": DESKTOP}
#: What must not be found: axe's two worst impacts.
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots that play at a slow pace (the tables stay in play, and hardly change, while they
    are checked),
    and a person's clock that may be a fraction of a second for a game to reach its end."""
    need_chromium()
    settings = {
        "bot_delay": 2.0,
        "turn_seconds": 30,
        "min_turn_seconds": 0.2,
        "autopilot_ms": 5,
        "seed_seconds": 0.5,
        "finished_linger": 120.0,
    }
    with running(tmp_path_factory.mktemp("axe-server"), **settings) as srv:
        yield srv


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def violations(axe: Axe, page: Any) -> list[str]:
    """The serious and critical violations on the page as it is, one line each."""
    found = axe.run(page).response["violations"]
    lines = []
    for v in found:
        if v["impact"] not in BLOCKING:
            continue
        targets = [node["target"][-1] for node in v["nodes"]]
        lines.append(f"{v['impact']} {v['id']}: {v['help']} at {', '.join(targets[:5])}")
    return lines


#: Two frames after a quiet moment: the layout of the new size is drawn.
SETTLED = """() => new Promise((done) => setTimeout(
  () => requestAnimationFrame(() => requestAnimationFrame(done)), 300))"""


def check_both_sizes(axe: Axe, page: Any, where: str) -> None:
    """axe at the page's size and at the other one (the layout changes between them)."""
    problems = []
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        # A resize re-lays the table out on the next frames: checked once it has settled.
        page.evaluate(SETTLED)
        problems += [f"{where} ({name}): {line}" for line in violations(axe, page)]
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_violation(open_page: Any, axe: Axe) -> None:
    # A check on the check: a button with no name is a critical violation.
    page = open_page("phone", lang="en")
    page.evaluate("document.body.append(document.createElement('button'))")
    assert any("button-name" in line for line in violations(axe, page))


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_lobby(open_page: Any, axe: Axe, lang: str) -> None:
    page = open_page("phone", lang=lang)
    page.wait_for_selector("[data-play-now=jackaroo]")
    check_both_sizes(axe, page, "lobby")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_jackaroo_table_in_play(open_page: Any, axe: Axe, lang: str) -> None:
    page = open_page("phone", lang=lang)
    start_with_bots(page, "jackaroo")
    page.wait_for_selector(".jk-board .marble")
    page.wait_for_selector(".jk-hand .card")
    check_both_sizes(axe, page, "jackaroo table")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_buraco_table_in_play_and_its_summary(open_page: Any, axe: Axe, lang: str) -> None:
    page = open_page("phone", lang=lang)
    start_with_bots(page, "buraco")
    page.wait_for_selector(".bu-dock .bu-hand .card")
    check_both_sizes(axe, page, "buraco table")
    page.evaluate("(r) => window.sahrat.tableScreen.game.showSummary(r)", RESULT)
    page.locator(".bu-summary").wait_for()
    check_both_sizes(axe, page, "buraco summary")
