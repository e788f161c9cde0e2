"""Suite-wide ordering: the browser tests run last, and the longest files first.

Playwright's sync API keeps an event loop running in the main thread while its
browser is open; tests that start event loops of their own (``asyncio.run``) run
before the browser tests in a process. In a parallel run the processes take files in
this order, so the files marked ``long`` go first and short ones fill in at the end.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: among the suite's longest files (run first)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None,
            item.get_closest_marker("long") is None,
        )
    )
