"""The package's shape (design.md §1, §5): which way imports go, and small modules.

Every module under ``sahrat/`` is read with :mod:`ast`, not imported, so every
import counts: at the top, inside functions and under ``if TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path

import pytest

import sahrat

ROOT = Path(sahrat.__file__).parent
MAX_LINES = 500
#: Imports an engine may not make: it is pure (no I/O, no clock, no randomness of
#: its own) and sits below everything but the cards and the fairness streams.
ENGINE_FORBIDDEN = ("sahrat.server", "sahrat.cli", "asyncio", "sqlalchemy", "random", "time",
                    "socket")  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (the migrations are Alembic's scripts)."""
    return {
        module_name(path): path
        for path in sorted(ROOT.rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    }


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"), str(modules()[name]))


def imports(name: str) -> Iterator[tuple[str, int]]:
    """``(module, line)`` for every import in module ``name``."""
    return resolve(name, modules()[name].name == "__init__.py", tree(name), set(modules()))


def resolve(
    name: str, is_package: bool, module: ast.Module, known: Collection[str]
) -> Iterator[tuple[str, int]]:
    """``(module, line)`` for every import in ``module`` (named ``name``): ``from pkg
    import x`` is ``pkg.x`` when that is one of the ``known`` modules, else ``pkg``;
    relative imports are made absolute."""
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".")
                # A package is its own first level; a module's first level is its parent.
                keep = len(package) - node.level + (1 if is_package else 0)
                base = ".".join([*package[:keep], *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known else base), node.lineno


def import_graph() -> dict[str, set[str]]:
    """Module to the package's modules it imports."""
    return {
        name: {target for target, _ in imports(name) if target in modules() and target != name}
        for name in modules()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_within(graph, set(group)) for group in groups]


def _cycle_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle through the group's first module, as a path back to it."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle in {group}")


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_are_resolved_to_modules() -> None:
    source = ast.parse(
        "import json\n"
        "from . import state\n"
        "from .board import BASE0\n"
        "from .. import game\n"
        "from sahrat.games import GAMES\n"
        "def lazy():\n"
        "    from sahrat.games.jackaroo import rules\n"
        "if TYPE_CHECKING:\n"
        "    from sahrat.server.table import Table\n"
    )
    known = {"sahrat.games", "sahrat.games.jackaroo", "sahrat.games.jackaroo.state",
             "sahrat.games.jackaroo.board", "sahrat.games.jackaroo.rules", "sahrat.games.game",
             "sahrat.server.table"}  # fmt: skip
    expected = [("json", 1), ("sahrat.games.jackaroo.state", 2), ("sahrat.games.jackaroo.board", 3),
                ("sahrat.games.game", 4), ("sahrat.games", 5), ("sahrat.games.jackaroo.rules", 7),
                ("sahrat.server.table", 9)]  # fmt: skip
    found = sorted(resolve("sahrat.games.jackaroo.view", False, source, known), key=lambda i: i[1])
    assert found == expected
    # In a package's ``__init__``, one dot is the package itself.
    found = list(resolve("sahrat.games.jackaroo", True, ast.parse("from . import state"), known))
    assert found == [("sahrat.games.jackaroo.state", 1)]


def test_the_server_reaches_games_only_through_the_registry() -> None:
    wrong = [
        f"{name}:{line} imports {target}"
        for name in modules()
        if name.startswith("sahrat.server.")
        for target, line in imports(name)
        if target.startswith("sahrat.games.")
    ]
    assert not wrong, "\n".join(wrong)


def says_why_it_is_long(docstring: str) -> bool:
    """Does a sentence of ``docstring`` speak of its lines ("Over 500 lines because …")?"""
    doc = " ".join(docstring.split())
    return any(re.search(r"\blines\b", sentence) for sentence in re.split(r"(?<=[.!?])\s", doc))


def test_modules_are_small_or_say_why() -> None:
    long = {
        name: lines
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    unexplained = sorted(
        f"{name} ({lines} lines)"
        for name, lines in long.items()
        if not says_why_it_is_long(ast.get_docstring(tree(name)) or "")
    )
    assert not unexplained, f"over {MAX_LINES} lines, no reason given: " + ", ".join(unexplained)


def test_a_long_module_says_why_in_a_sentence() -> None:
    assert says_why_it_is_long(
        "The rules.\n\nOver 500 lines because the\nmove tables belong together."
    )
    assert not says_why_it_is_long("The rules, per the guidelines.")
    assert not says_why_it_is_long("")


def _allowed_in_engine(name: str, target: str) -> bool:
    parts = name.split(".")
    if target.startswith("sahrat.bots"):
        # A game's descriptor hands out that game's bot kit; nothing else reaches up.
        return len(parts) == 4 and parts[3] == "game" and target == f"sahrat.bots.{parts[2]}"
    return not any(target == bad or target.startswith(bad + ".") for bad in ENGINE_FORBIDDEN)


def test_only_a_descriptor_reaches_its_own_bots() -> None:
    assert _allowed_in_engine("sahrat.games.buraco.game", "sahrat.bots.buraco")
    assert not _allowed_in_engine("sahrat.games.buraco.game", "sahrat.bots.jackaroo")
    assert not _allowed_in_engine("sahrat.games.buraco.state", "sahrat.bots.buraco")
    assert not _allowed_in_engine("sahrat.games.buraco.state", "random")
    assert not _allowed_in_engine("sahrat.games.buraco.state", "sahrat.server.table")
    assert _allowed_in_engine("sahrat.games.buraco.state", "sahrat.fairness")


def test_engines_are_pure() -> None:
    wrong = [
        f"{name}:{line} imports {target}"
        for name in modules()
        if name.startswith("sahrat.games.") or name == "sahrat.games"
        for target, line in imports(name)
        if not _allowed_in_engine(name, target)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "name",
    ["sahrat.cards", "sahrat.fairness", "sahrat.game", "sahrat.games",
     "sahrat.games.jackaroo.actions", "sahrat.games.jackaroo.board",
     "sahrat.games.jackaroo.position", "sahrat.games.buraco.actions",
     "sahrat.games.buraco.melds", "sahrat.games.buraco.state", "sahrat.bots.search.ismcts"],
)  # fmt: skip
def test_the_main_modules_have_examples(name: str) -> None:
    # pytest runs the examples (--doctest-modules); this keeps them from disappearing.
    found = doctest.DocTestFinder().find(importlib.import_module(name))
    assert sum(len(test.examples) for test in found) > 0
