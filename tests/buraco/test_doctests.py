"""The examples in the Buraco modules' docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "sahrat.games.buraco",
    "sahrat.games.buraco.actions",
    "sahrat.games.buraco.deal",
    "sahrat.games.buraco.generate",
    "sahrat.games.buraco.melds",
    "sahrat.games.buraco.options",
    "sahrat.games.buraco.points",
    "sahrat.games.buraco.setup",
    "sahrat.games.buraco.scoring",
    "sahrat.games.buraco.state",
    "sahrat.games.buraco.view",
    "sahrat.bots.buraco.greedy",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
