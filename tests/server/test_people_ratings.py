"""Ratings from real games on a real server: which games are rated (every seat a
registered person at the first card), partners as one team, a player who left losing,
each game rated once, the leaderboards and profiles that show them, and
``sahrat ratings rebuild`` arriving at exactly the table the live updates kept.

The games are played once per backend by a module fixture; each test checks one thing.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, select

from sahrat.server.people.ratings import MU, SIGMA, AlreadyRated, displayed, rate_table, table_rows
from sahrat.server.people.tables import rated_games, rating_changes
from tests.server.conftest import shared_server
from tests.server.harness import Account, Server, call, new_account, run
from tests.server.people_games import finish_table, online, table_of, to_the_end

#: On SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("backend")

SETTINGS = {"accounts_burst": 100_000, "logins_burst": 100_000}
MIN_GAMES = 2


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Two rated games put a player on a leaderboard here: only the first two accounts
    # play two.
    settings = {**SETTINGS, "leaderboard_min_games": MIN_GAMES}
    with shared_server(tmp_path_factory, backend, **settings) as server:
        yield server


def engine_of(server: Server) -> Engine:
    url = server.database_url or f"sqlite:///{server.data_dir / 'sahrat.db'}"
    return create_engine(url)


@dataclass
class Played:
    """The module's games: who played, the tables, and the ratings as the server kept them."""

    accounts: list[Account]
    duel: str
    four: str
    guest_game: str
    bot_game: str
    left_game: str
    leaver: Account
    stayer: Account
    team_left: str
    coin_left: str
    live: list[tuple[Any, ...]]
    changes: dict[str, list[dict[str, Any]]]
    others: list[Account] = dataclasses.field(default_factory=list)


@pytest.fixture(scope="module")
def played(server: Server) -> Played:
    accounts = [new_account(server) for _ in range(6)]
    a, b, c, d, e, f = accounts
    others = [new_account(server) for _ in range(6)]

    async def scenario() -> dict[str, Any]:
        duel_players = [await online(server, x) for x in (a, b)]
        duel = await table_of(duel_players)
        await to_the_end(duel_players, 11)
        await finish_table(server, duel, duel_players)

        four_players = [await online(server, x) for x in (a, b, c, d)]
        four = await table_of(four_players)
        await to_the_end(four_players, 21)
        await finish_table(server, four, four_players)

        with_guest = [await online(server, c), await online(server, None, "guest")]
        guest_game = await table_of(with_guest)
        await to_the_end(with_guest, 31)
        await finish_table(server, guest_game, with_guest)

        with_bot = [await online(server, d)]
        bot_game = await table_of(with_bot, bots=True)
        await to_the_end(with_bot, 41)
        await finish_table(server, bot_game, with_bot)

        leaving = [await online(server, e), await online(server, f)]
        left_game = await table_of(leaving)
        await leaving[0].send(type="leave")
        await leaving[0].expect("left")
        await to_the_end(leaving[1:], 51)
        await finish_table(server, left_game, leaving)

        # Four players, one leaves: a bot takes the seat, and the leaver's side ranks last.
        team = [await online(server, x) for x in others[:4]]
        team_left = await table_of(team)
        await team[0].send(type="leave")
        await team[0].expect("left")
        await to_the_end(team[1:], 61)
        await finish_table(server, team_left, team)

        # A coin table: the leaver's seat stays theirs, played by the server.
        coin = [await online(server, x) for x in others[4:]]
        coin_left = await table_of(coin, stake=100)
        await coin[0].send(type="leave")
        await coin[0].expect("left")
        await to_the_end(coin[1:], 71)
        await finish_table(server, coin_left, coin)
        return {"duel": duel, "four": four, "guest_game": guest_game, "bot_game": bot_game,
                "left_game": left_game, "team_left": team_left,
                "coin_left": coin_left}  # fmt: skip

    tables = run(scenario(), timeout=600)
    engine = engine_of(server)
    try:
        live = table_rows(engine)
        with engine.connect() as conn:
            rows = conn.execute(select(rating_changes)).mappings().all()
    finally:
        engine.dispose()
    changes: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        changes.setdefault(row["table_id"], []).append(dict(row))
    return Played(accounts, **tables, leaver=e, stayer=f, live=live, changes=changes,
                  others=others)  # fmt: skip


def test_a_game_between_two_accounts_is_rated(played: Played) -> None:
    rated = {row["player_id"] for row in played.changes[played.duel]}
    assert rated == {played.accounts[0].id, played.accounts[1].id}


def test_a_duel_has_one_winner_who_gains_and_one_loser_who_loses(played: Played) -> None:
    rows = played.changes[played.duel]
    winner = next(row for row in rows if row["won"])
    loser = next(row for row in rows if not row["won"])
    assert winner["mu"] > MU > loser["mu"]


def test_partners_are_rated_as_one_team(played: Played) -> None:
    rows = played.changes[played.four]
    assert len(rows) == 4
    by_result: dict[bool, list[dict[str, Any]]] = {}
    for row in rows:
        by_result.setdefault(row["won"], []).append(row)
    assert sorted(len(side) for side in by_result.values()) == [2, 2]
    # Partners rise or fall together, each by their own uncertainty.
    assert all(r["mu"] > r["mu_before"] for r in by_result[True])
    assert all(r["mu"] < r["mu_before"] for r in by_result[False])


def test_a_game_with_a_guest_is_not_rated(played: Played) -> None:
    assert played.guest_game not in played.changes


def test_a_game_with_a_bot_is_not_rated(played: Played) -> None:
    assert played.bot_game not in played.changes


def test_a_player_who_left_loses_and_is_marked_left(played: Played) -> None:
    rows = {row["player_id"]: row for row in played.changes[played.left_game]}
    assert (rows[played.leaver.id]["won"], rows[played.leaver.id]["left"]) == (False, True)
    assert (rows[played.stayer.id]["won"], rows[played.stayer.id]["left"]) == (True, False)


def test_a_player_who_left_loses_rating_and_the_other_gains(played: Played) -> None:
    rows = {row["player_id"]: row for row in played.changes[played.left_game]}
    assert rows[played.leaver.id]["mu"] < MU < rows[played.stayer.id]["mu"]


def test_a_leavers_partner_loses_with_them(played: Played) -> None:
    rows = played.changes[played.team_left]
    leaver = next(row for row in rows if row["left"])
    assert leaver["player_id"] == played.others[0].id
    losers = [row for row in rows if not row["won"]]
    assert len(losers) == 2 and leaver in losers
    assert all(row["mu"] < row["mu_before"] for row in losers)
    assert all(row["mu"] > row["mu_before"] for row in rows if row["won"])


def test_a_player_who_left_a_coin_table_loses(played: Played) -> None:
    rows = {row["player_id"]: row for row in played.changes[played.coin_left]}
    leaver, stayer = played.others[4].id, played.others[5].id
    assert (rows[leaver]["won"], rows[leaver]["left"]) == (False, True)
    assert (rows[stayer]["won"], rows[stayer]["left"]) == (True, False)


def test_the_live_table_counts_each_players_rated_games(played: Played) -> None:
    games = {(row[0], row[1]): row[4] for row in played.live}
    a, b, c, d = (x.id for x in played.accounts[:4])
    expected = {a: 2, b: 2, c: 1, d: 1}
    assert {p: games[(p, "jackaroo")] for p in expected} == expected


def test_rating_a_rated_game_again_is_refused_and_changes_nothing(
    server: Server, played: Played
) -> None:
    engine = engine_of(server)
    try:
        with pytest.raises(AlreadyRated), engine.begin() as conn:
            rate_table(conn, played.duel)
        assert table_rows(engine) == played.live
    finally:
        engine.dispose()


def test_the_rebuild_gives_exactly_the_live_table(server: Server, played: Played) -> None:
    where = (["--database-url", server.database_url] if server.database_url
             else ["--data-dir", str(server.data_dir)])  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "sahrat.cli.main", "ratings", "rebuild", *where],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout.strip()) == (0, "ratings: 5 rated games replayed")
    engine = engine_of(server)
    try:
        assert table_rows(engine) == played.live
        with engine.connect() as conn:
            teams = conn.execute(
                select(rated_games.c.teams).where(rated_games.c.table_id == played.four)
            ).scalar_one()
            assert len(json.loads(teams)) == 2
    finally:
        engine.dispose()


def test_the_leaderboard_lists_players_with_enough_rated_games_by_rating(
    server: Server, played: Played
) -> None:
    board = call(server, "GET", "/api/leaderboards/jackaroo?limit=100").body
    ids = [entry["player"]["id"] for entry in board["entries"]]
    assert set(ids) == {played.accounts[0].id, played.accounts[1].id}
    assert board["min_games"] == MIN_GAMES
    shown = [entry["rating"] for entry in board["entries"]]
    assert shown == sorted(shown, reverse=True)


def test_a_player_with_too_few_games_is_not_on_the_board_nor_ranked(
    server: Server, played: Played
) -> None:
    one_game = played.accounts[2]
    board = call(server, "GET", "/api/leaderboards/jackaroo", token=one_game.token).body
    assert board["me"] is None
    assert one_game.id not in [e["player"]["id"] for e in board["entries"]]
    profile = call(server, "GET", f"/api/players/{one_game.id}").body
    assert profile["games"]["jackaroo"]["rating"]["rank"] is None


def test_ratings_show_conservatively_and_provisional(server: Server, played: Played) -> None:
    board = call(server, "GET", "/api/leaderboards/jackaroo?limit=100").body
    rows = {row[0]: row for row in played.live}
    for entry in board["entries"]:
        row = rows[entry["player"]["id"]]
        assert entry["rating"] == displayed(row[2], row[3])
        assert entry["provisional"] is True
    assert displayed(MU, SIGMA) == 1000


def test_ones_own_rank_is_shown_outside_the_page(server: Server, played: Played) -> None:
    full = call(server, "GET", "/api/leaderboards/jackaroo?limit=100").body["entries"]
    everyone = played.accounts + played.others
    last = next(a for a in everyone if a.id == full[-1]["player"]["id"])
    page = call(server, "GET", "/api/leaderboards/jackaroo?limit=1&page=1", token=last.token)
    assert page.status == 200
    assert [e["player"]["id"] for e in page.body["entries"]] == [full[0]["player"]["id"]]
    assert page.body["me"]["rank"] == full[-1]["rank"] > 1
    assert page.body["pages"] == len(full)


def test_the_weeks_board_by_wins_counts_this_weeks_wins(server: Server, played: Played) -> None:
    board = call(server, "GET", "/api/leaderboards/jackaroo?period=week&by=wins&limit=100").body
    wins = {e["player"]["id"]: e["wins"] for e in board["entries"]}
    games: dict[str, int] = {}
    expected: dict[str, int] = {}
    for rows in played.changes.values():
        for row in rows:
            games[row["player_id"]] = games.get(row["player_id"], 0) + 1
            expected[row["player_id"]] = expected.get(row["player_id"], 0) + int(row["won"])
    assert wins == {p: n for p, n in expected.items() if games[p] >= MIN_GAMES}
    assert [e["wins"] for e in board["entries"]] == sorted(wins.values(), reverse=True)


def test_a_profile_shows_games_rating_rank_and_last_games(server: Server, played: Played) -> None:
    a = played.accounts[0]
    profile = call(server, "GET", f"/api/players/{a.name}").body
    jackaroo = profile["games"]["jackaroo"]
    assert (profile["id"], jackaroo["played"], jackaroo["rating"]["rated_games"]) == (a.id, 2, 2)
    assert jackaroo["rating"]["rank"] >= 1
    assert [g["table"] for g in profile["last_games"]] == [played.four, played.duel]
    assert profile["last_games"][0]["verify"].endswith(f"/api/records/{played.four}")
    assert profile["you"] is False


def test_a_profile_by_id_is_the_same_player(server: Server, played: Played) -> None:
    a = played.accounts[0]
    assert call(server, "GET", f"/api/players/{a.id}").body["name"] == a.name
