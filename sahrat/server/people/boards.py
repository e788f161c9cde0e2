"""Leaderboards: per game, all time or this week, by rating or by games won; pages, and
the asking player's own rank wherever it falls.

All time reads :data:`~sahrat.server.people.tables.ratings`; a week reads the rated
games since Monday 00:00 UTC (:data:`~sahrat.server.people.tables.rating_changes`):
players with at least ``min_games`` rated games in the period appear, by their rating
now or by their wins in the period. Ranks are computed by the database (window
functions, on SQLite and PostgreSQL alike); equal players share a rank.
"""

from __future__ import annotations

import datetime
from typing import Any

from sqlalchemy import Engine, case, func, literal, select

from sahrat.server.people.profiles import avatar_of
from sahrat.server.people.ratings import PROVISIONAL_GAMES, displayed
from sahrat.server.people.tables import profiles, rating_changes, ratings
from sahrat.server.schema import players

PERIODS = ("all", "week")
ORDERS = ("rating", "wins")


def week_start(now: float) -> float:
    """Monday 00:00 UTC of the week ``now`` is in.

    >>> week_start(1764806400.0)  # Thursday 2025-12-04 00:00 UTC
    1764547200.0
    """
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    monday = day - datetime.timedelta(days=day.weekday())
    return datetime.datetime(monday.year, monday.month, monday.day, tzinfo=datetime.UTC).timestamp()


def _ranked(game: str, period: str, by: str, since: float, min_games: int) -> Any:
    """Every player on the board with their rank and place (a subquery)."""
    score = ratings.c.mu - 3 * ratings.c.sigma
    if period == "all":
        counted = (
            select(
                ratings.c.player_id,
                ratings.c.games.label("games"),
                ratings.c.wins.label("wins"),
            )
            .where(ratings.c.game == game, ratings.c.games >= min_games)
            .subquery()
        )
    else:
        counted = (
            select(
                rating_changes.c.player_id,
                func.count().label("games"),
                func.sum(case((rating_changes.c.won, 1), else_=0)).label("wins"),
            )
            .where(rating_changes.c.game == game, rating_changes.c.finished_at >= since)
            .group_by(rating_changes.c.player_id)
            .having(func.count() >= min_games)
            .subquery()
        )
    if by == "rating":
        order = [score.desc(), counted.c.games.desc()]
    else:
        order = [counted.c.wins.desc(), counted.c.games.asc(), score.desc()]
    return (
        select(
            counted.c.player_id,
            counted.c.games,
            counted.c.wins,
            ratings.c.mu,
            ratings.c.sigma,
            ratings.c.games.label("rated_games"),
            func.rank().over(order_by=order).label("rank"),
            func.row_number().over(order_by=[*order, counted.c.player_id]).label("place"),
        )
        .join(
            ratings,
            (ratings.c.player_id == counted.c.player_id) & (ratings.c.game == literal(game)),
        )
        .subquery()
    )


def leaderboard(
    engine: Engine,
    game: str,
    period: str,
    by: str,
    page: int,
    size: int,
    me: str | None,
    min_games: int,
    now: float,
) -> dict[str, Any]:
    """One page of a board (``page`` from 1), its size, and ``me``'s row if on it."""
    ranked = _ranked(game, period, by, week_start(now), min_games)
    columns = [ranked, players.c.name, profiles.c.avatar]
    joined = ranked.join(players, players.c.id == ranked.c.player_id).outerjoin(
        profiles, profiles.c.player_id == ranked.c.player_id
    )
    with engine.connect() as c:
        total = int(c.execute(select(func.count()).select_from(ranked)).scalar_one())
        rows = c.execute(
            select(*columns)
            .select_from(joined)
            .where(ranked.c.place > (page - 1) * size, ranked.c.place <= page * size)
            .order_by(ranked.c.place)
        ).mappings()
        entries = [_entry(row) for row in rows]
        mine = None
        if me is not None:
            found = (
                c.execute(select(*columns).select_from(joined).where(ranked.c.player_id == me))
                .mappings()
                .first()
            )
            mine = None if found is None else _entry(found)
    return {
        "game": game,
        "period": period,
        "by": by,
        "page": page,
        "pages": max(1, -(-total // size)),
        "total": total,
        "min_games": min_games,
        "since": week_start(now) if period == "week" else None,
        "entries": entries,
        "me": mine,
    }


def _entry(row: Any) -> dict[str, Any]:
    return {
        "rank": int(row["rank"]),
        "player": {
            "id": row["player_id"],
            "name": row["name"],
            "avatar": avatar_of(row["player_id"], row["avatar"]),
        },
        "rating": displayed(row["mu"], row["sigma"]),
        "provisional": int(row["rated_games"]) < PROVISIONAL_GAMES,
        "games": int(row["games"]),
        "wins": int(row["wins"]),
    }


def rank_of(engine: Engine, game: str, player: str, min_games: int) -> int | None:
    """``player``'s all-time rank by rating in ``game``, or None if not on the board."""
    ranked = _ranked(game, "all", "rating", 0.0, min_games)
    with engine.connect() as c:
        found = c.execute(select(ranked.c.rank).where(ranked.c.player_id == player)).first()
    return None if found is None else int(found[0])
