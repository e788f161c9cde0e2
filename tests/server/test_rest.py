"""The REST side: guests and sessions, the OpenAPI schema, records and replays."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from sahrat.games import GAMES
from sahrat.records import verify
from tests.server.harness import Player, Server, run, running

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("database_url")


def request(server: Server, path: str, body: object = None, token: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    method = "POST" if body is not None else "GET"
    req = urllib.request.Request(server.url + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=5) as response:
        return json.loads(response.read())


def status_of(server: Server, path: str, token: str = "") -> int:
    try:
        request(server, path, token=token)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def test_a_guest_session_brings_the_same_player_back(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        guest = request(server, "/api/guest", {"name": "  Noura   K "})
        assert guest["player"]["name"] == "Noura K"
        me = request(server, "/api/me", token=guest["token"])
        assert me == {"id": guest["player"]["id"], "name": "Noura K", "table": None}
        anonymous = request(server, "/api/guest", {})
        assert anonymous["player"]["name"].startswith("ضيف")
        token = guest["token"]
        forged = token[:-1] + ("1" if token.endswith("0") else "0")
        assert status_of(server, "/api/me", token=forged) == 401
        assert status_of(server, "/api/me") == 401

        async def over_the_socket() -> str:
            player = Player(server)
            welcome = await player.connect(token=guest["token"])
            await player.close()
            return str(welcome["player"]["id"])

        assert run(over_the_socket()) == guest["player"]["id"]


def test_the_openapi_schema_lists_every_route(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        schema = server.get("/openapi.json")
        assert schema["openapi"].startswith("3.")
        for path in ("/api/guest", "/api/me", "/api/games", "/api/tables", "/api/tables/{table_id}",
                     "/api/records/{table_id}", "/api/records/{table_id}/replay"):  # fmt: skip
            assert path in schema["paths"], path
        with urllib.request.urlopen(server.url + "/", timeout=5) as response:
            page = response.read().decode()
        assert 'lang="ar"' in page and 'dir="rtl"' in page


def test_the_games_list_their_options_as_each_game_defines_them(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        listed = {game["name"]: game for game in server.get("/api/games")["games"]}
    assert set(listed) == set(GAMES)
    for name, game in GAMES.items():
        entry = listed[name]
        assert entry == game.catalogue()
        assert entry["seats"] == list(game.seat_counts)
        # Every preset, and the defaults, are options the game itself accepts.
        for options in (entry["defaults"], *entry["presets"].values()):
            for seats in entry["seats"]:
                game.options_from_json({**options, entry["seat_option"]: seats})
    assert listed["jackaroo"]["presets"]["classic"]["king"] == "plain"
    assert listed["buraco"]["seat_option"] == "players"


def test_records_and_replays_of_a_finished_game(tmp_path: Path) -> None:
    async def scenario() -> str:
        player = Player(server)
        await player.connect()
        await player.send(type="create", game="jackaroo", seats=2)
        table_id = (await player.expect("table"))["table"]["id"]
        assert status_of(server, f"/api/records/{table_id}") == 404  # no game yet
        await player.send(type="bots")
        await player.expect("seed_request")
        await player.send(type="seed", seed="replay-me")
        state = await player.expect("table", lambda m: m["table"]["status"] == "playing")
        assert status_of(server, f"/api/records/{table_id}/replay") == 404  # not over
        # The person plays the first legal move of each turn, the bot the rest.
        while "result" not in state:
            state = await player.expect("table", timeout=30)
            if state.get("legal"):
                await player.send(type="act", action=state["legal"][0], moves=state["moves"])
        await player.close()
        return str(table_id)

    with running(tmp_path) as server:
        table_id = run(scenario())
        record = server.get(f"/api/records/{table_id}")
        assert all(check.ok for check in verify(record))
        replay = server.get(f"/api/records/{table_id}/replay")
        moves = [e for e in record["log"] if e["seat"] is not None]
        frames = replay["frames"]
        assert len(frames) == len(moves) + 1
        assert [f["action"] for f in frames[1:]] == [m["action"] for m in moves]
        # A replay shows every hand: both seats' cards are lists in the first frame.
        hands = frames[0]["position"]["hands"]
        assert all(isinstance(hand, list) and len(hand) == 5 for hand in hands.values())
        assert frames[-1]["words"]["en"] and frames[-1]["words"]["ar"]
        assert status_of(server, "/api/records/t000000000000") == 404
