"""The server times its garbage collections and reports them on SIGUSR1, with the heap
it froze at start-up out of their way."""

from __future__ import annotations

import asyncio
import gc
import re
import signal
import time
from pathlib import Path

import pytest

from sahrat.cli.main import main
from sahrat.server import gc_pauses
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


def test_what_survived_is_frozen_and_collected_in_full_only_when_memory_grew(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # Peak memory, as read at start, then before each tick's choice and after each full
    # collection: a tenth up (a freeze), then a quarter up (a full collection), then a
    # fifth above the new baseline (a freeze), then past a quarter (a second one).
    readings = iter([100, 110, 125, 125, 150, 160, 160])
    frozen_seen: list[int] = []
    done = asyncio.Event()

    def memory() -> int:
        frozen_seen.append(gc.get_freeze_count())
        try:
            return next(readings)
        except StopIteration:
            done.set()
            return 160

    async def scenario() -> None:
        task = asyncio.create_task(gc_pauses.freeze_periodically(0.01, 0.25, memory))
        await asyncio.wait_for(done.wait(), 10)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    gc.unfreeze()
    try:
        asyncio.run(scenario())
    finally:
        gc.unfreeze()
    full = [line for line in capfd.readouterr().err.splitlines() if "full collection" in line]
    assert len(full) == 2
    assert re.fullmatch(r"gc: full collection, \d+ objects freed in \d+ ms", full[0])
    assert frozen_seen[1] == 0 and frozen_seen[2] > 0  # the first tick froze what was there


@pytest.mark.parametrize("value", ["0", "-1", "nan", "x"])
def test_a_full_collections_growth_must_be_above_zero(value: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--gc-full-growth", value])
    assert exited.value.code == 2
