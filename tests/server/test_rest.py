"""The REST side: guests and sessions, the OpenAPI schema, records and replays."""

from __future__ import annotations

import json
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route

from sahrat.games import GAMES
from sahrat.records import verify
from sahrat.server.app import create_app
from sahrat.server.settings import Settings
from tests.server.conftest import shared_server
from tests.server.harness import Player, Server, run

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend) as server:
        yield server


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


# -- guests and sessions ------------------------------------------------------------------


def test_a_guests_name_is_cleaned(server: Server) -> None:
    guest = request(server, "/api/guest", {"name": "  Noura   K "})
    assert guest["player"]["name"] == "Noura K"


def test_me_tells_a_guest_its_id_and_name_and_no_table(server: Server) -> None:
    guest = request(server, "/api/guest", {"name": "  Noura   K "})
    me = request(server, "/api/me", token=guest["token"])
    assert me == {
        "id": guest["player"]["id"],
        "name": "Noura K",
        "guest": True,
        "balance": None,
        "games_played": 0,
        "daily_grant": None,
        "table": None,
    }


def test_a_guest_without_a_name_is_given_an_arabic_one(server: Server) -> None:
    anonymous = request(server, "/api/guest", {})
    assert anonymous["player"]["name"].startswith("ضيف")


def test_me_refuses_a_forged_token_with_401(server: Server) -> None:
    token = request(server, "/api/guest", {"name": "Noura"})["token"]
    forged = token[:-1] + ("1" if token.endswith("0") else "0")
    assert status_of(server, "/api/me", token=forged) == 401


def test_me_refuses_a_request_without_a_token_with_401(server: Server) -> None:
    assert status_of(server, "/api/me") == 401


def test_a_guest_token_brings_the_same_player_over_the_socket(server: Server) -> None:
    guest = request(server, "/api/guest", {"name": "Noura"})

    async def over_the_socket() -> str:
        player = Player(server)
        welcome = await player.connect(token=guest["token"])
        await player.close()
        return str(welcome["player"]["id"])

    assert run(over_the_socket()) == guest["player"]["id"]


# -- the OpenAPI description and the home page --------------------------------------------


def api_routes() -> list[str]:
    """Every REST route the application serves (read from the app, not listed by hand)."""
    app = create_app(Settings(data_dir=Path(tempfile.gettempdir()) / "sahrat-routes"))
    return sorted(
        {r.path for r in app.routes if isinstance(r, Route) and r.path.startswith("/api")}
    )


ROUTES = api_routes()


def test_the_api_is_described_in_openapi_3(server: Server) -> None:
    assert server.get("/openapi.json")["openapi"].startswith("3.")


@pytest.mark.parametrize("path", ROUTES)
def test_the_openapi_description_lists_every_route(server: Server, path: str) -> None:
    assert path in server.get("/openapi.json")["paths"], path


def test_the_home_page_is_arabic_and_right_to_left(server: Server) -> None:
    with urllib.request.urlopen(server.url + "/", timeout=5) as response:
        page = response.read().decode()
    assert 'lang="ar"' in page and 'dir="rtl"' in page


# -- the games and their options ----------------------------------------------------------


def listed_games(server: Server) -> dict[str, Any]:
    return {game["name"]: game for game in server.get("/api/games")["games"]}


def test_the_games_listed_are_the_servers_games(server: Server) -> None:
    assert set(listed_games(server)) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_is_listed_as_its_catalogue(server: Server, name: str) -> None:
    assert listed_games(server)[name] == GAMES[name].catalogue()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_lists_its_seat_counts(server: Server, name: str) -> None:
    assert listed_games(server)[name]["seats"] == list(GAMES[name].seat_counts)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_listed_preset_and_the_defaults_are_options_the_game_accepts(
    server: Server, name: str
) -> None:
    game, entry = GAMES[name], listed_games(server)[name]
    for options in (entry["defaults"], *entry["presets"].values()):
        for seats in entry["seats"]:
            game.options_from_json({**options, entry["seat_option"]: seats})


def test_the_classic_jackaroo_preset_has_a_plain_king(server: Server) -> None:
    assert listed_games(server)["jackaroo"]["presets"]["classic"]["king"] == "plain"


def test_buraco_is_told_its_seat_count_as_players(server: Server) -> None:
    assert listed_games(server)["buraco"]["seat_option"] == "players"


# -- records and replays ------------------------------------------------------------------


async def with_a_bot(server: Server) -> tuple[Player, str, dict[str, Any]]:
    """A person at a 2-seat Jackaroo table with a bot: the table, just started."""
    player = Player(server)
    await player.connect()
    await player.send(type="create", game="jackaroo", seats=2)
    table_id = (await player.expect("table"))["table"]["id"]
    await player.send(type="bots")
    await player.expect("seed_request")
    await player.send(type="seed", seed="replay-me")
    state = await player.expect("table", lambda m: m["table"]["status"] == "playing")
    return player, str(table_id), state


def test_a_table_whose_game_has_not_started_has_no_record(server: Server) -> None:
    async def scenario() -> str:
        player = Player(server)
        await player.connect()
        await player.send(type="create", game="jackaroo", seats=2)
        table_id = (await player.expect("table"))["table"]["id"]
        await player.close()
        return str(table_id)

    assert status_of(server, f"/api/records/{run(scenario())}") == 404


def test_a_running_game_has_no_replay(server: Server) -> None:
    async def scenario() -> None:
        player, table_id, _ = await with_a_bot(server)
        assert status_of(server, f"/api/records/{table_id}/replay") == 404
        await player.close()

    run(scenario())


@dataclass
class Finished:
    record: dict[str, Any]
    replay: dict[str, Any]

    @property
    def moves(self) -> list[dict[str, Any]]:
        return [e for e in self.record["log"] if e["seat"] is not None]


@pytest.fixture(scope="module")
def finished(server: Server) -> Finished:
    """A person and a bot play a 2-seat Jackaroo game to its end."""

    async def scenario() -> str:
        player, table_id, state = await with_a_bot(server)
        # The person plays the first legal move of each turn (the first one too, if it is
        # theirs, rather than wait for the clock to play it), the bot the rest.
        while "result" not in state:
            if state.get("legal"):
                await player.send(type="act", action=state["legal"][0], moves=state["moves"])
            state = await player.expect("table", timeout=30)
        await player.close()
        return table_id

    table_id = run(scenario())
    record = server.get(f"/api/records/{table_id}")
    return Finished(record, server.get(f"/api/records/{table_id}/replay"))


def test_the_record_of_a_finished_game_verifies(finished: Finished) -> None:
    assert all(check.ok for check in verify(finished.record))


def test_a_replay_has_a_frame_for_the_deal_and_one_per_move(finished: Finished) -> None:
    assert len(finished.replay["frames"]) == len(finished.moves) + 1


def test_a_replay_plays_the_moves_of_the_record(finished: Finished) -> None:
    frames = finished.replay["frames"]
    assert [f["action"] for f in frames[1:]] == [m["action"] for m in finished.moves]


def test_a_replay_shows_every_hand(finished: Finished) -> None:
    # Both seats' cards are lists in the first frame.
    hands = finished.replay["frames"][0]["position"]["hands"]
    assert all(isinstance(hand, list) and len(hand) == 5 for hand in hands.values())


def test_a_replay_says_the_moves_in_english_and_arabic(finished: Finished) -> None:
    words = finished.replay["frames"][-1]["words"]
    assert words["en"] and words["ar"]


def test_an_unknown_table_has_no_record(server: Server) -> None:
    assert status_of(server, "/api/records/t000000000000") == 404
