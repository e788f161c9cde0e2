"""A real node process stopped (SIGSTOP) past its lease while another takes its table:
when it resumes (SIGCONT) it learns it lost the table, and PostgreSQL refuses every
write it still tries."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import Engine, func, select

from sahrat.server.cluster.fencing import check_fence, stored_fence
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import connect
from tests.server.cluster.test_fencing import _probe, writes

ROOT = Path(__file__).resolve().parents[3]


def own_writes(engine: Engine) -> int:
    with engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(writes)).scalar_one())


def test_a_stopped_node_resumes_fenced_out(redis_url: str, prefix: str, pg_engine: Engine) -> None:
    _probe.create_all(pg_engine)
    database = pg_engine.url.render_as_string(hide_password=False)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.server.cluster.paused_owner", redis_url, prefix, database],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert child.stdout is not None
    try:
        seen = [child.stdout.readline().split() for _ in range(4)]
        assert seen[0][0] == "owns" and all(line == ["wrote"] for line in seen[1:])
        fence = int(seen[0][1])
        child.send_signal(signal.SIGSTOP)
        time.sleep(1.5)  # past its 1 s lease

        async def take_over() -> int:
            other = Leases(connect(redis_url), "other", prefix=prefix, ttl=10.0)
            try:
                with pg_engine.connect() as c:
                    floor = stored_fence(c, "t")
                taken = await other.acquire("t", floor)
                assert taken is not None
                return taken
            finally:
                await other.redis.aclose()

        taken = asyncio.run(take_over())
        assert taken > fence
        with pg_engine.begin() as c:
            check_fence(c, "t", taken, "other")  # the new owner's claim
        before = own_writes(pg_engine)
        child.send_signal(signal.SIGCONT)
        rest, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    outcomes = [line[0] for line in seen[1:]] + rest.split()
    assert "lost" in outcomes
    stopped = min(i for i, o in enumerate(outcomes) if o in ("lost", "refused"))
    assert "wrote" not in outcomes[stopped:]
    assert outcomes.count("refused") >= 3
    assert own_writes(pg_engine) == before  # nothing it tried after the takeover landed
    assert child.returncode == 0
