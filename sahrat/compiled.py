"""The engines compiled with mypyc, and the choice between them and the plain Python.

The modules of :data:`MODULES` are compiled by ``scripts/setup`` (through
``scripts/build_engines.py``) from the very same source files into
``build/compiled/``, never beside the sources: a ``.so`` there would shadow
its ``.py`` for every import, stale or not, and there would be no way back to
the pure modules. This module, imported first by the package, installs an
import hook that loads the compiled modules only when all of these hold:

- ``SAHRAT_PURE_PYTHON`` is not ``1``;
- ``build/compiled/STAMP`` holds :func:`digest` of the sources as they are now,
  so an engine edited since the build runs as Python until the next setup
  rather than as yesterday's machine code.

It is all or nothing: compiled modules call each other's classes directly, so a
compiled module beside a pure one it was compiled with would not work.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules compiled, chosen by profiling ``sahrat bench`` and the search bots: the move
#: generators and states, what their loops call (cards, melds), ``sahrat.game``, whose
#: GameState the states inherit (a compiled class may only inherit compiled ones), the
#: simulations' random games and shuffles, and the bots' code that the search's rollouts
#: and determinizations spend most of their time in.
MODULES: tuple[str, ...] = (
    "sahrat.cards",
    "sahrat.game",
    "sahrat.simulation",
    "sahrat.games.jackaroo.board",
    "sahrat.games.jackaroo.rules",
    "sahrat.games.jackaroo.state",
    "sahrat.games.buraco.actions",
    "sahrat.games.buraco.melds",
    "sahrat.games.buraco.generate",
    "sahrat.games.buraco.table",
    "sahrat.games.buraco.moves",
    "sahrat.games.buraco.state",
    "sahrat.bots.jackaroo.odds",
    "sahrat.bots.jackaroo.eval",
    "sahrat.bots.jackaroo.plan",
    "sahrat.bots.jackaroo.heuristic",
    "sahrat.bots.buraco.eval",
    "sahrat.bots.buraco.rollout",
    "sahrat.bots.search.source",
)

#: The shared library that holds every compiled module (each module's own ``.so``
#: only forwards to it).
GROUP = "sahrat_engines"

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build" / "compiled"
STAMP = BUILD_DIR / "STAMP"


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest() -> str:
    """What the build depends on: the compiled sources and the interpreter."""
    h = hashlib.sha256(sys.version.encode())
    for module in MODULES:
        h.update(module.encode())
        h.update(source_path(module).read_bytes())
    return h.hexdigest()


def can_compile() -> str | None:
    """Why the engines cannot be compiled here, or None when they can."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def wanted() -> bool:
    """Whether the compiled modules are asked for (``SAHRAT_PURE_PYTHON`` is not 1)."""
    return os.environ.get("SAHRAT_PURE_PYTHON", "") != "1"


def usable() -> bool:
    """Whether a build of the current sources is there."""
    try:
        return STAMP.read_text().strip() == digest()
    except OSError:
        return False


class _CompiledFinder:
    """Finds the compiled modules (and their shared library) in the build directory."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, file)
        return importlib.util.spec_from_file_location(name, file, loader=loader)


def _extension(stem: Path) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def install() -> bool:
    """Load the compiled modules from now on, when wanted and usable; whether it did."""
    if not wanted() or not usable():
        return False
    files: dict[str, str] = {}
    for name in (*MODULES, f"{GROUP}__mypyc"):
        found = _extension(BUILD_DIR.joinpath(*name.split(".")))
        if found is None:
            return False
        files[name] = str(found)
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


#: Whether this process runs the compiled engines.
COMPILED = install()


def build_name() -> str:
    """The build this process runs, as the benchmarks print it."""
    return "compiled (mypyc)" if COMPILED else "pure Python"
