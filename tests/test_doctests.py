"""The examples in the docstrings run and say what they show (Buraco's have their own file)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sahrat

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(sahrat.__path__, "sahrat.")
    if not info.name.startswith(("sahrat.games.buraco", "sahrat.server.migrations"))
    and info.name != "sahrat.bots.buraco.greedy"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_main_modules_have_examples() -> None:
    counted = {
        name: doctest.testmod(importlib.import_module(name)).attempted
        for name in ("sahrat.cards", "sahrat.fairness", "sahrat.games.jackaroo.actions",
                     "sahrat.games.jackaroo.board", "sahrat.games.jackaroo.position",
                     "sahrat.bots.search.ismcts")
    }  # fmt: skip
    assert all(counted.values()), counted
