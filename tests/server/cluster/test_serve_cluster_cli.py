"""``sahrat serve``'s cluster flags: what it refuses (exit status 2, one clear line), and
``--workers N``: N nodes in N processes on one port, a killed one started again under its
node id, and all of them ended by a SIGTERM to the parent."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from sahrat.cli.main import main
from tests.server.harness import free_port

REDIS_URL = os.environ.get("SAHRAT_TEST_REDIS", "redis://127.0.0.1:6379/0")
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/sahrat"


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    """The one line ``sahrat serve`` refuses ``flags`` with, after checking it exits 2."""
    status = main(["serve", "--data-dir", str(tmp_path), "--search-workers", "0", *flags])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("sahrat: "), err
    return err


@pytest.mark.parametrize(
    "flags",
    [
        ["--redis-url", REDIS_URL],
        ["--redis-url", REDIS_URL, "--database-url", "sqlite:////tmp/shared.db"],
    ],
)
def test_a_cluster_needs_postgresql(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    err = refused(tmp_path, capsys, *flags)
    assert "--redis-url needs a PostgreSQL --database-url" in err
    assert "SQLite cannot be shared" in err


def test_several_workers_need_a_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(tmp_path, capsys, "--workers", "2", "--database-url", POSTGRES)
    assert "--workers above 1 needs --redis-url" in err


@pytest.mark.parametrize("count", ["0", "65", "-3"])
def test_workers_are_one_to_sixty_four(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    flags = ("--redis-url", REDIS_URL, "--database-url", POSTGRES)
    err = refused(tmp_path, capsys, "--workers", count, *flags)
    assert f"--workers must be 1 to 64, not {count}" in err


@pytest.mark.parametrize(
    "flags",
    [
        ["--node-id", "no spaces"],
        ["--redis-url", REDIS_URL, "--node-id=-dash-first"],
        # Valid alone, but its workers' ids ("<id>-2") would be too long.
        ["--node-id", "n" * 63, "--workers", "2", "--redis-url", REDIS_URL],
    ],
)
def test_a_bad_node_id_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    err = refused(tmp_path, capsys, "--database-url", POSTGRES, *flags)
    assert "--node-id: a node id is 1-64 letters" in err


def test_leases_are_renewed_well_within_their_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(tmp_path, capsys, "--set", "lease_seconds=4", "--set", "lease_renew_seconds=2")
    assert "lease_renew_seconds (2) must be under half of lease_seconds (4)" in err


@pytest.mark.parametrize("name", ["redis_url", "node_id"])
def test_flagged_settings_are_not_set_around_their_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert f"no setting '{name}'" in refused(tmp_path, capsys, "--set", f"{name}=x")


def test_the_command_itself_exits_with_status_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sahrat.cli.main", "serve", "--data-dir", str(tmp_path),
         "--workers", "3"],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "sahrat: --workers above 1 needs --redis-url: the workers are the nodes of a cluster\n"
    )


# -- --workers: real processes on PostgreSQL and Redis ---------------------------------


def healthz(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            found: dict[str, object] = json.loads(answer.read())
            return found
    except OSError:
        return None


def answering(port: int, until: Callable[[dict[str, int]], bool]) -> dict[str, int]:
    """Node id to pid of the nodes answering ``/healthz``, asked in bursts of concurrent
    requests (the kernel hands each connection to whichever worker accepts it first)
    until ``until`` holds of what the latest rounds saw."""
    deadline = time.monotonic() + 60
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        while time.monotonic() < deadline:
            seen: dict[str, int] = {}
            for _ in range(5):
                for answer in pool.map(healthz, [port] * 16):
                    if answer is not None:
                        assert answer["ok"] is True
                        seen[str(answer["node"])] = int(answer["pid"])  # type: ignore[call-overload]
            if until(seen):
                return seen
            time.sleep(0.2)
    raise TimeoutError(f"the nodes answering never satisfied the test: last saw {seen}")


def test_workers_share_one_port_restart_and_stop(
    tmp_path: Path, redis_url: str, fresh_database: str
) -> None:
    port = free_port()
    base = f"w{secrets.token_hex(3)}"
    log = tmp_path / "serve.log"
    command = [
        sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(port),
        "--data-dir", str(tmp_path), "--search-workers", "0", "--workers", "2",
        "--redis-url", redis_url, "--database-url", fresh_database, "--node-id", base,
    ]  # fmt: skip
    pids: set[int] = set()
    with log.open("ab") as out:
        parent = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        nodes = answering(port, lambda seen: len(seen) == 2)
        assert set(nodes) == {f"{base}-1", f"{base}-2"}, log.read_text()
        assert len(set(nodes.values())) == 2 and parent.pid not in nodes.values()
        pids |= set(nodes.values())
        assert f"nodes {base}-1 to {base}-2" in log.read_text()

        os.kill(nodes[f"{base}-1"], signal.SIGKILL)
        again = answering(
            port, lambda seen: seen.get(f"{base}-1", nodes[f"{base}-1"]) != nodes[f"{base}-1"]
        )
        assert again[f"{base}-1"] not in pids
        pids.add(again[f"{base}-1"])
        assert parent.poll() is None

        parent.send_signal(signal.SIGTERM)
        assert parent.wait(15) == 0, log.read_text()
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)
        for pid in pids:  # nothing left behind by a failed test
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_cluster_nodes_share_a_database_without_the_instance_lock(
    tmp_path: Path, redis_url: str, fresh_database: str
) -> None:
    """Two single-process nodes of one cluster run on one database (outside a cluster
    the instance lock refuses the second), each named in its start-up line."""
    nodes: list[tuple[subprocess.Popen[bytes], int, Path]] = []
    try:
        for name in ("one", "two"):
            port = free_port()
            log = tmp_path / f"{name}.log"
            command = [
                sys.executable, "-m", "sahrat.cli.main", "serve", "--port", str(port),
                "--data-dir", str(tmp_path), "--search-workers", "0", "--node-id", name,
                "--redis-url", redis_url, "--database-url", fresh_database,
            ]  # fmt: skip
            with log.open("ab") as out:
                process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
            nodes.append((process, port, log))
            # One after the other: the first migrates the new database.
            assert answering(port, lambda seen, node=name: node in seen) == {name: process.pid}
        for (process, _, log), name in zip(nodes, ("one", "two"), strict=True):
            opening = [line for line in log.read_text().splitlines() if "open http" in line]
            assert opening[0].endswith(f"; node {name})")
            assert process.poll() is None
    finally:
        for process, _, _ in nodes:
            process.terminate()
            process.wait(15)
