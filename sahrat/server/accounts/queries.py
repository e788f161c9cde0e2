"""The accounts' rows: players, their sessions, their history; each call one transaction.

Blocking SQLAlchemy Core, run on the store's database thread
(:meth:`~sahrat.server.store.Store.run`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from sahrat.server.ledger import book
from sahrat.server.ledger.transfers import daily_grant, player_account, starting_grant
from sahrat.server.schema import game_players, players, sessions


class NameTaken(Exception):
    """Another account has this name, or one that looks like it."""


class AlreadyRegistered(Exception):
    """The guest being turned into an account already is one."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a session belongs to."""

    player: str
    name: str
    guest: bool
    session: str


def add_guest(engine: Engine, player: str, name: str, session: str, at: float,
              agent: str) -> None:  # fmt: skip
    with engine.begin() as c:
        c.execute(insert(players).values(id=player, name=name, created_at=at))
        _open_session(c, player, session, at, agent)


def register(
    engine: Engine,
    player: str,
    guest: bool,
    name: str,
    key: str,
    password_hash: str,
    session: str,
    at: float,
    grant: int,
    agent: str,
) -> None:
    """A new account, or the guest ``player`` turned into one (its guest sessions ended),
    with its starting grant and a new session, all in one transaction."""
    values = {"name": name, "name_key": key, "password_hash": password_hash, "registered_at": at}
    try:
        with engine.begin() as c:
            if guest:
                changed = c.execute(
                    update(players)
                    .where(players.c.id == player, players.c.password_hash.is_(None))
                    .values(**values)
                ).rowcount
                if changed != 1:
                    raise AlreadyRegistered(player)
                # The guest's tokens must not open the account: its sessions end here.
                c.execute(
                    update(sessions)
                    .where(sessions.c.player_id == player, sessions.c.ended_at.is_(None))
                    .values(ended_at=at)
                )
            else:
                c.execute(insert(players).values(id=player, created_at=at, **values))
            book.open_house(c)
            book.open_accounts(c, [player_account(player)])
            if grant > 0:
                book.post(c, starting_grant(player, grant), at)
            _open_session(c, player, session, at, agent)
    except IntegrityError as error:
        raise NameTaken(name) from error


def credentials(engine: Engine, key: str) -> tuple[str, str] | None:
    """The player and password hash of the account with this name key."""
    with engine.connect() as c:
        row = c.execute(
            select(players.c.id, players.c.password_hash).where(players.c.name_key == key)
        ).first()
    return None if row is None or row[1] is None else (str(row[0]), str(row[1]))


def password_hash(engine: Engine, player: str) -> str | None:
    with engine.connect() as c:
        found = c.execute(select(players.c.password_hash).where(players.c.id == player)).scalar()
    return None if found is None else str(found)


def new_session(engine: Engine, player: str, session: str, at: float, agent: str) -> None:
    with engine.begin() as c:
        _open_session(c, player, session, at, agent)


def _open_session(c: Any, player: str, session: str, at: float, agent: str) -> None:
    c.execute(
        insert(sessions).values(
            id=session, player_id=player, created_at=at, last_used_at=at, agent=agent[:200]
        )
    )


def identify(engine: Engine, session: str, now: float, idle: float,
             touch_after: float) -> Identity | None:  # fmt: skip
    """The session's player, if the session is open and was used within ``idle`` seconds;
    its last use is moved on (at most every ``touch_after`` seconds: reads stay reads)."""
    with engine.begin() as c:
        row: Any = c.execute(
            select(
                sessions.c.player_id,
                sessions.c.last_used_at,
                players.c.name,
                players.c.password_hash.is_(None),
            )
            .join(players, players.c.id == sessions.c.player_id)
            .where(sessions.c.id == session, sessions.c.ended_at.is_(None))
        ).first()
        if row is None:
            return None
        player, last_used, name, guest = row
        if now - last_used > idle:
            c.execute(update(sessions).where(sessions.c.id == session).values(ended_at=now))
            return None
        if now - last_used > touch_after:
            c.execute(update(sessions).where(sessions.c.id == session).values(last_used_at=now))
        return Identity(str(player), str(name), bool(guest), session)


def guest_player(engine: Engine, player: str) -> str | None:
    """The name of ``player`` if it is a guest (a token from before sessions were kept)."""
    with engine.connect() as c:
        row = c.execute(
            select(players.c.name).where(players.c.id == player, players.c.password_hash.is_(None))
        ).first()
    return None if row is None else str(row[0])


def end_sessions(engine: Engine, player: str, at: float, only: str | None = None,
                 keep: str | None = None) -> list[str]:  # fmt: skip
    """End the player's open sessions (``only`` that one, or all but ``keep``); their ids."""
    query = select(sessions.c.id).where(
        sessions.c.player_id == player, sessions.c.ended_at.is_(None)
    )
    if only is not None:
        query = query.where(sessions.c.id == only)
    if keep is not None:
        query = query.where(sessions.c.id != keep)
    with engine.begin() as c:
        ended = [str(s) for (s,) in c.execute(query)]
        if ended:
            c.execute(update(sessions).where(sessions.c.id.in_(ended)).values(ended_at=at))
    return ended


def set_password(engine: Engine, player: str, password_hash: str) -> None:
    with engine.begin() as c:
        c.execute(update(players).where(players.c.id == player).values(password_hash=password_hash))


def open_sessions(engine: Engine, player: str, now: float, idle: float) -> list[dict[str, Any]]:
    with engine.connect() as c:
        rows = c.execute(
            select(sessions.c.id, sessions.c.created_at, sessions.c.last_used_at, sessions.c.agent)
            .where(
                sessions.c.player_id == player,
                sessions.c.ended_at.is_(None),
                sessions.c.last_used_at >= now - idle,
            )
            .order_by(sessions.c.last_used_at.desc())
        ).all()
    return [
        {"id": s, "created_at": created, "last_used_at": used, "agent": agent or ""}
        for s, created, used, agent in rows
    ]


def profile(engine: Engine, player: str) -> dict[str, Any]:
    """What ``/api/me`` says besides the session: balance and games played."""
    with engine.connect() as c:
        played = c.execute(
            select(func.count()).select_from(game_players).where(game_players.c.player_id == player)
        ).scalar_one()
        return {"balance": book.balance(c, player_account(player)), "games_played": int(played)}


def claim_daily(engine: Engine, player: str, day: datetime.date, amount: int, at: float) -> int:
    """The day's grant (:class:`~sahrat.server.ledger.book.AlreadyDone` the second time);
    the balance after it."""
    with engine.begin() as c:
        book.post(c, daily_grant(player, amount, day), at)
        return book.balance(c, player_account(player))


def claimed(engine: Engine, player: str, day: datetime.date) -> bool:
    with engine.connect() as c:
        return book.made(c, daily_grant(player, 1, day).key)


def statement(engine: Engine, player: str, before: int | None, limit: int) -> list[book.Line]:
    with engine.connect() as c:
        return book.statement(c, player_account(player), before, limit)


def balance(engine: Engine, player: str) -> int:
    with engine.connect() as c:
        return book.balance(c, player_account(player))


def history(engine: Engine, player: str, before: float | None, limit: int) -> list[dict[str, Any]]:
    """The player's finished games, newest first, finished before ``before`` if given."""
    query = (
        select(game_players)
        .where(game_players.c.player_id == player)
        .order_by(game_players.c.finished_at.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(game_players.c.finished_at < before)
    with engine.connect() as c:
        return [dict(row) for row in c.execute(query).mappings()]
