"""Compile the engines (sahrat.compiled.MODULES) with mypyc into build/compiled/.

Run by scripts/setup with the project's interpreter. Does nothing when the build
there is of the current sources; otherwise builds into a fresh directory and swaps
it in whole, so an interrupted build never leaves a half-built set that looks usable.
Exits 0 without building when there is no C compiler or no Python headers, and
after a failed build (saying so in one line): the engines then run as Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sahrat.compiled import (
    BUILD_DIR,
    GROUP,
    MODULES,
    ROOT,
    STAMP,
    can_compile,
    digest,
    source_path,
)

#: The compiler's output when the last build failed.
FAILED_LOG = BUILD_DIR.parent / "compiled-failed.log"


def build() -> str | None:
    """mypyc and setuptools, in a child process, writing only under build/; why it
    failed, or None."""
    BUILD_DIR.parent.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="compiled-", dir=BUILD_DIR.parent))
    try:
        out = work / "lib"
        # The sources are named relative to the project root, which is how mypyc
        # names the modules (sahrat/games/jackaroo/rules.py is sahrat.games.jackaroo.rules).
        paths = [str(source_path(m).relative_to(ROOT)) for m in MODULES]
        script = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"modules = mypycify({paths!r}, group_name={GROUP!r}, target_dir={str(work / 'c')!r})\n"
            "setup(name='sahrat-engines', ext_modules=modules, py_modules=[], script_args=[\n"
            f"    'build_ext', '--build-lib', {str(out)!r}, '--build-temp', {str(work / 'o')!r},\n"
            "])\n"
        )
        log = work / "log"
        with log.open("w") as sink:
            done = subprocess.run(
                [sys.executable, "-c", script],
                check=False,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        if done.returncode != 0:
            # Kept for reading; setup goes on with the engines as Python.
            shutil.copyfile(log, FAILED_LOG)
            return f"exit {done.returncode}, log in {os.path.relpath(FAILED_LOG, ROOT)}"
        (out / STAMP.name).write_text(digest() + "\n")
        if BUILD_DIR.exists():
            shutil.rmtree(BUILD_DIR)
        os.replace(out, BUILD_DIR)
        FAILED_LOG.unlink(missing_ok=True)
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    if STAMP.is_file() and STAMP.read_text().strip() == digest():
        return 0
    why = can_compile()
    if why is not None:
        print(f"engines not compiled ({why}): they run as Python", file=sys.stderr)
        return 0
    print("compiling the engines with mypyc (about a minute)", file=sys.stderr)
    failed = build()
    if failed is not None:
        print(f"compiling the engines failed ({failed}): they run as Python", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
