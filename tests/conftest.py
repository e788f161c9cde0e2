"""Suite-wide ordering: the browser tests run last.

Playwright's sync API keeps an event loop running in the main thread from the first
browser test to the end of the session; tests that start event loops of their own
(``asyncio.run``) must run before it.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
