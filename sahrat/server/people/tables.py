"""The tables of ratings, profiles and friends (created by migration 0003).

They have a metadata of their own: the rest of the server's tables are in
:mod:`sahrat.server.schema`, and these only refer to players by id.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

#: Each player's rating per game: Weng-Lin (Plackett-Luce) ``mu`` and ``sigma``, the rated
#: games and their wins. ``updated_at`` is the finish time of the last rated game (not the
#: clock), so a rebuild from the records writes the very same rows.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

#: One row per rated game: its key is what makes rating a game twice impossible.
rated_games = Table(
    "rated_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("finished_at", Float, nullable=False),
    #: The sides as rated: ``[{"players": [...], "rank": n}, ...]``.
    Column("teams", Text, nullable=False),
)

#: Each rated player's change in a rated game: for the week's leaderboards and profiles.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("finished_at", Float, nullable=False),
    Index("rating_changes_by_game", "game", "finished_at"),
    Index("rating_changes_by_player", "player_id", "finished_at"),
)

#: What a player chose for their profile; no row: the default avatar, no name change yet.
profiles = Table(
    "profiles",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("avatar", String(16), nullable=True),
    Column("name_changed_at", Float, nullable=True),
)

#: A friend request not yet answered, from ``from_id`` to ``to_id``.
friend_requests = Table(
    "friend_requests",
    metadata,
    Column("from_id", String(32), primary_key=True),
    Column("to_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("friend_requests_to", "to_id"),
)

#: A friendship, as two rows (one each way), so a player's friends are one lookup.
friends = Table(
    "friends",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("friend_id", String(32), primary_key=True),
    Column("since", Float, nullable=False),
)

#: ``blocker_id`` has blocked ``blocked_id``.
blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("blocks_blocked", "blocked_id"),
)
