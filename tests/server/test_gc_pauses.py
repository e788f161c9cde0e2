"""The server times its garbage collections and reports them on SIGUSR1, with the heap
it froze at start-up out of their way."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

from tests.server.harness import running


def report(log: Path, count: int, timeout: float = 10.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [line for line in log.read_text().splitlines() if line.startswith("gc: ")]
        reports = [line for line in lines if "collections (" in line]
        if len(reports) >= count:
            return reports
        time.sleep(0.1)
    raise TimeoutError("no collection report in the server's log")


def test_sigusr1_reports_the_collections_and_the_frozen_start_up_heap(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        assert server.process is not None
        server.get("/api/health")
        server.process.send_signal(signal.SIGUSR1)
        report(server.log, 1)
        server.process.send_signal(signal.SIGUSR1)
        second = report(server.log, 2)[-1]
        assert server.get("/api/health")["ok"] is True  # the signal did not stop it
    frozen = re.search(r"gc: (\d+) objects frozen at start-up", server.log.read_text())
    assert frozen is not None
    assert int(frozen.group(1)) > 10_000  # the imports and the restored tables
    assert re.search(r"\d+ of 50 ms or more, longest [\d.]+ ms", second)
