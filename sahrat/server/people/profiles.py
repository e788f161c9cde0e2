"""Players' public pages: who they are, their games, their ratings; a name or an avatar
changed by its owner. Each call one transaction.

Only accounts have pages: a guest's generated name is neither unique nor theirs to keep.
"""

from __future__ import annotations

import zlib
from typing import Any

from sqlalchemy import Engine, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from sahrat.server.accounts.queries import NameTaken
from sahrat.server.people.ratings import PROVISIONAL_GAMES, displayed
from sahrat.server.people.tables import profiles, rating_changes, ratings
from sahrat.server.schema import game_players, players

#: The shipped avatars, ``/static/avatars/<name>.svg``.
AVATARS = ("sun", "moon", "star", "wave", "hex", "ring", "kite", "leaf", "arch", "dots",
           "drop", "tri")  # fmt: skip
#: A name may be changed once in this many seconds (30 days).
NAME_EVERY = 30 * 24 * 3600.0
#: The last games a profile lists.
LAST_GAMES = 10


class NameTooSoon(Exception):
    """The name was changed less than :data:`NAME_EVERY` ago; ``next_at`` is when it may be."""

    def __init__(self, next_at: float) -> None:
        super().__init__(next_at)
        self.next_at = next_at


def avatar_of(player: str, chosen: str | None) -> str:
    """The chosen avatar, else one the id picks (the same one every time).

    >>> avatar_of("p1", "moon"), avatar_of("p1", None) == avatar_of("p1", None)
    ('moon', True)
    """
    if chosen in AVATARS:
        assert chosen is not None
        return chosen
    return AVATARS[zlib.crc32(player.encode()) % len(AVATARS)]


def find(engine: Engine, id_or_key: tuple[str, str]) -> dict[str, Any] | None:
    """The account whose id is ``id_or_key[0]`` or, failing that, whose name key is
    ``id_or_key[1]``: id, name, registered_at, avatar, name_changed_at."""
    player_id, key = id_or_key
    query = select(
        players.c.id,
        players.c.name,
        players.c.registered_at,
        profiles.c.avatar,
        profiles.c.name_changed_at,
    ).select_from(players.outerjoin(profiles, profiles.c.player_id == players.c.id))
    with engine.connect() as c:
        for where in (players.c.id == player_id, players.c.name_key == key):
            row = c.execute(query.where(where, players.c.password_hash.is_not(None))).first()
            if row is not None:
                found = dict(row._mapping)
                found["avatar"] = avatar_of(found["id"], found["avatar"])
                return found
    return None


def cards(engine: Engine, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Id, name and avatar of each of ``ids`` (what a list of people shows)."""
    if not ids:
        return {}
    with engine.connect() as c:
        rows: Any = c.execute(
            select(players.c.id, players.c.name, profiles.c.avatar)
            .select_from(players.outerjoin(profiles, profiles.c.player_id == players.c.id))
            .where(players.c.id.in_(ids))
        ).all()
    return {
        str(p): {"id": str(p), "name": str(name), "avatar": avatar_of(str(p), avatar)}
        for p, name, avatar in rows
    }


def games(engine: Engine, player: str) -> dict[str, Any]:
    """Per game: played and won (every finished game), and the rating if rated; the last
    games with their result and rating change."""
    with engine.connect() as c:
        counts: Any = c.execute(
            select(
                game_players.c.game,
                func.count(),
                func.sum(case((game_players.c.won, 1), else_=0)),
            )
            .where(game_players.c.player_id == player)
            .group_by(game_players.c.game)
        ).all()
        rated = c.execute(select(ratings).where(ratings.c.player_id == player)).mappings().all()
        last = (
            c.execute(
                select(
                    game_players,
                    rating_changes.c.mu_before,
                    rating_changes.c.sigma_before,
                    rating_changes.c.mu,
                    rating_changes.c.sigma,
                )
                .select_from(
                    game_players.outerjoin(
                        rating_changes,
                        (rating_changes.c.table_id == game_players.c.table_id)
                        & (rating_changes.c.player_id == game_players.c.player_id),
                    )
                )
                .where(game_players.c.player_id == player)
                .order_by(game_players.c.finished_at.desc())
                .limit(LAST_GAMES)
            )
            .mappings()
            .all()
        )
    per_game: dict[str, dict[str, Any]] = {
        str(game): {"played": int(n), "won": int(won or 0), "rating": None}
        for game, n, won in counts
    }
    for row in rated:
        entry = per_game.setdefault(row["game"], {"played": 0, "won": 0, "rating": None})
        entry["rating"] = {
            "rating": displayed(row["mu"], row["sigma"]),
            "provisional": row["games"] < PROVISIONAL_GAMES,
            "rated_games": row["games"],
            "mu": row["mu"],
            "sigma": row["sigma"],
        }
    return {"games": per_game, "last": [_last(row) for row in last]}


def _last(row: Any) -> dict[str, Any]:
    table = row["table_id"]
    change = None
    if row["mu"] is not None:
        change = displayed(row["mu"], row["sigma"]) - displayed(
            row["mu_before"], row["sigma_before"]
        )
    return {
        "table": table,
        "game": row["game"],
        "finished_at": row["finished_at"],
        "result": "won" if row["won"] else "lost",
        "left": bool(row["left"]),
        "rated": change is not None,
        "rating_change": change,
        "replay": f"/api/records/{table}/replay",
        "verify": f"/static/verify.html#record=/api/records/{table}",
    }


def rename(engine: Engine, player: str, name: str, key: str, at: float) -> None:
    """Give ``player`` the name ``name`` (its key ``key``): :class:`NameTooSoon` within
    :data:`NAME_EVERY` of the last change, :class:`NameTaken` if another account has it."""
    try:
        with engine.begin() as c:
            last = c.execute(
                select(profiles.c.name_changed_at).where(profiles.c.player_id == player)
            ).first()
            if last is not None and last[0] is not None and at - last[0] < NAME_EVERY:
                raise NameTooSoon(last[0] + NAME_EVERY)
            c.execute(update(players).where(players.c.id == player).values(name=name, name_key=key))
            _set(c, player, last is not None, name_changed_at=at)
    except IntegrityError as error:
        raise NameTaken(name) from error


def set_avatar(engine: Engine, player: str, avatar: str) -> None:
    with engine.begin() as c:
        exists = c.execute(
            select(profiles.c.player_id).where(profiles.c.player_id == player)
        ).first()
        _set(c, player, exists is not None, avatar=avatar)


def _set(c: Any, player: str, exists: bool, **values: Any) -> None:
    if exists:
        c.execute(update(profiles).where(profiles.c.player_id == player).values(**values))
    else:
        c.execute(insert(profiles).values(player_id=player, **values))
