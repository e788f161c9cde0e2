"""The operations endpoints of a real server over loopback: /healthz, /readyz (and 503
when its database goes away), /metrics in the Prometheus text format."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.harness import Player, Server, drop_postgres, postgres_url, run, running


def fetch(server: Server, path: str) -> tuple[int, str, str]:
    """Status, Content-Type and body of a GET (an error status is an answer too)."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def samples(text: str) -> dict[str, float]:
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_health_readiness_and_metrics(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        status, _, body = fetch(server, "/healthz")
        assert status == 200  # outside a cluster the node has no id of its own
        assert json.loads(body) == {"ok": True, "node": None, "pid": server.process.pid}
        status, _, body = fetch(server, "/readyz")
        assert (status, json.loads(body)) == (200, {"ready": True})

        async def with_a_table() -> dict[str, float]:
            players = [Player(server, "a"), Player(server, "b")]
            for player in players:
                await player.connect()
            await players[0].send(type="create", game="jackaroo", seats=4)
            await players[0].expect("table")
            status, kind, text = fetch(server, "/metrics")
            assert status == 200 and kind.startswith("text/plain")
            for player in players:
                await player.close()
            return samples(text)

        found: Any = run(with_a_table())
        assert found["sahrat_sockets"] == 2
        assert found["sahrat_tables"] >= 1
        for counter in ("moves", "lease_renewals", "lease_losses", "failovers"):
            assert f"sahrat_{counter}_total" in found


def test_readiness_fails_without_the_database(tmp_path: Path) -> None:
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    try:
        with running(tmp_path, url) as server:
            assert fetch(server, "/readyz")[0] == 200
            drop_postgres(url)  # its connections are ended, and it is gone
            status, _, body = fetch(server, "/readyz")
            answer = json.loads(body)
            assert status == 503 and answer["ready"] is False
            assert answer["problems"][0].startswith("database unreachable")
            assert fetch(server, "/healthz")[0] == 200  # alive, not ready
    finally:
        drop_postgres(url)
