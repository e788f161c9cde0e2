"""The browser's lobby built from the server's changes: the same tables, in the same order,
as the server lists; a change that skips a version makes it ask for the whole list."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.harness import Player, Server, run

pytestmark = pytest.mark.browser

ROWS = "[...document.querySelectorAll('.table-list .table-row')].map(e => e.dataset.table)"
TABLES = 12


async def open_and_close(server: Server, ready: threading.Event, done: threading.Event) -> None:
    """Twelve people open public tables at once; every other one leaves (its table closes);
    the rest stay until ``done``."""
    people = [Player(server, f"host{i}") for i in range(TABLES)]
    for person in people:
        await person.connect()
    for person in people:
        await person.send(type="create", game="jackaroo", seats=4)
    for person in people:
        await person.expect("table")
    for person in people[::2]:
        await person.send(type="leave")
        await person.expect("left")
    ready.set()
    while not done.is_set():
        await asyncio.sleep(0.05)
    for person in people:
        await person.close()


def test_the_lobby_applies_the_changes_to_the_servers_list(open_page: Any, server: Server) -> None:
    page = open_page("desktop")
    page.wait_for_function("() => window.sahrat.lobby.version !== undefined")
    ready, done = threading.Event(), threading.Event()
    thread = threading.Thread(target=lambda: run(open_and_close(server, ready, done)))
    thread.start()
    try:
        assert ready.wait(60)
        # Several of the server's own tables (from other tests) may be listed too, and one
        # of them may end meanwhile: the page is compared with the list as it is now.
        deadline = time.monotonic() + 15
        while True:
            listed = [t["id"] for t in server.get("/api/tables")["tables"]]
            try:
                page.wait_for_function(
                    f"want => JSON.stringify({ROWS}) === JSON.stringify(want)",
                    arg=listed,
                    timeout=2_000,
                )
                break
            except PlaywrightTimeout:
                assert time.monotonic() < deadline, (page.evaluate(ROWS), listed)
        version = page.evaluate("window.sahrat.lobby.version")
        # A change from the future: something was missed, so the whole list is asked again.
        page.evaluate(
            "v => window.sahrat.lobby.applyChanges({version: v + 5, removed: [], changed: [],"
            " added: []}, () => window.sahrat.conn.send('lobby'))",
            version,
        )
        page.wait_for_function("v => window.sahrat.lobby.version > v", arg=version)
        assert page.evaluate(ROWS) == [t["id"] for t in server.get("/api/tables")["tables"]]
    finally:
        done.set()
        thread.join(60)
