"""scripts/build_engines.py: a failed compilation leaves setup going, on the pure build."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "build_engines.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_engines", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_engines"] = module
    spec.loader.exec_module(module)
    return module


def test_a_failed_build_says_so_in_one_line_and_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script()
    build_dir = tmp_path / "compiled"
    monkeypatch.setattr(script, "BUILD_DIR", build_dir)
    monkeypatch.setattr(script, "STAMP", build_dir / "STAMP")
    monkeypatch.setattr(script, "FAILED_LOG", tmp_path / "compiled-failed.log")
    monkeypatch.setattr(script, "can_compile", lambda: None)

    def failing(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        kwargs["stdout"].write("error: a compiler's complaint\n")
        return subprocess.CompletedProcess(command, 1)

    monkeypatch.setattr(script.subprocess, "run", failing)
    assert script.main() == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("compiling the engines failed (exit 1, log in ")
    assert err[-1].endswith("compiled-failed.log): they run as Python")
    assert "a compiler's complaint" in (tmp_path / "compiled-failed.log").read_text()
    assert not build_dir.exists()  # nothing that could pass for a build
