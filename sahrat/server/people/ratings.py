"""Skill ratings per game: Weng-Lin with the Plackett-Luce model (``openskill``), partners
rated as a team, updated in the transaction that records a game's end.

Which games count and how their sides rank is read back from what the end stored (the
table's event log, its record, the players' rows), by :func:`rate_table`, the one
function both the live update and ``sahrat ratings rebuild`` call: a rebuild goes over
the records in finish order and arrives at the very same table.

A game is rated when every seat held a registered person at the first card (a bot, a
guest, or an account registered after the deal at any seat: not rated). A side with a
player who left (a free table gave the seat to a bot, or a coin table's seat was played
by the server) ranks last; otherwise the winners rank first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection

from sahrat.games import GAMES
from sahrat.server.ledger.transfers import Transfer
from sahrat.server.people.tables import rated_games, rating_changes, ratings
from sahrat.server.schema import events, players, records
from sahrat.server.store import finish_game

#: The library's defaults, named here: a rebuild must use the very same model.
MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
#: A rating shows as ``OFFSET + SCALE * (mu - 3 * sigma)``, never below 0: a new player
#: (mu 25, sigma 25/3) shows 1000, and it only grows once the model is sure of a player.
OFFSET, SCALE = 1000, 40
#: A rating is marked provisional for a player's first rated games of a game.
PROVISIONAL_GAMES = 10
#: The events that say who sat where (:func:`lineup_at_deal`, :func:`leavers`).
LINEUP_EVENTS = ("seat", "unseat", "assign", "start", "left")


class AlreadyRated(Exception):
    """The game has its ratings: a game is rated once."""


@dataclass(frozen=True, slots=True)
class Side:
    """A side as rated: its players, its rank (1 is best), whether one of them left."""

    players: tuple[str, ...]
    rank: int
    left: frozenset[str]


def displayed(mu: float, sigma: float) -> int:
    """The rating a player sees: conservative (mu − 3σ), scaled.

    >>> displayed(MU, SIGMA), displayed(30.0, 2.0)
    (1000, 1960)
    """
    return max(0, round(OFFSET + SCALE * (mu - 3 * sigma)))


def finish_and_rate(
    c: Connection,
    table_id: str,
    seq: int,
    data: dict[str, Any],
    at: float,
    record: dict[str, Any],
    results: Sequence[dict[str, Any]],
    settlement: Transfer | None,
    fence: tuple[int, str] | None = None,
) -> None:
    """:func:`~sahrat.server.store.finish_game`, then the game's ratings, in the caller's
    transaction: a game's end is recorded and rated, or neither."""
    finish_game(c, table_id, seq, data, at, record, results, settlement, fence)
    rate_table(c, table_id)


def rate_table(c: Connection, table_id: str) -> bool:
    """Rate the finished game at ``table_id`` if it is to be rated; whether it was.
    :class:`AlreadyRated` if it has been."""
    if c.execute(select(rated_games.c.table_id).where(rated_games.c.table_id == table_id)).first():
        raise AlreadyRated(table_id)
    found = c.execute(
        select(records.c.record, records.c.finished_at).where(records.c.table_id == table_id)
    ).first()
    if found is None:
        return False
    record = json.loads(found[0])
    finished_at = float(found[1])
    game = record.get("game")
    result = record.get("result") or {}
    if game not in GAMES:
        return False
    # Only who sat where: a game's moves, most of its log, decide nothing here.
    log: Any = c.execute(
        select(events.c.kind, events.c.data, events.c.at)
        .where(events.c.table_id == table_id, events.c.kind.in_(LINEUP_EVENTS))
        .order_by(events.c.seq)
    ).all()
    stored = [(str(kind), json.loads(str(data)), float(at)) for kind, data, at in log]
    sides = rated_sides(c, game, record.get("options") or {}, stored, result.get("winners", []))
    if sides is None:
        return False
    _rate(c, table_id, game, finished_at, sides)
    return True


def rated_sides(c: Connection, game: str, options: dict[str, Any],
                stored: list[tuple[str, dict[str, Any], float]],
                winners: Sequence[int]) -> list[Side] | None:  # fmt: skip
    """The sides of a game to rate, ranked, or None if the game is not rated."""
    rules = GAMES[game]
    seating = rules.seating(rules.options_from_json(options))
    at_deal = lineup_at_deal(seating.seats, stored)
    if at_deal is None:
        return None
    seated, dealt_at = at_deal
    found = [seated.get(seat) for seat in seating.seats]
    people = [p for p in found if p is not None]
    if len(set(people)) != len(found):
        return None  # an empty seat or a bot (None), or one person in two seats
    registered: dict[str, float | None] = dict(
        c.execute(
            select(players.c.id, players.c.registered_at).where(
                players.c.id.in_(people), players.c.password_hash.is_not(None)
            )
        ).all()
    )
    for person in people:
        since = registered.get(person)
        if since is None or since > dealt_at:
            return None  # a guest, or an account registered once the cards were dealt
    left = leavers(seated, stored)
    by_side: dict[int, list[str]] = {}
    for seat, side in zip(seating.seats, seating.sides, strict=True):
        player = seated[seat]
        assert player is not None
        by_side.setdefault(side, []).append(player)
    won_sides = {seating.side_of(seat) for seat in winners if seat in seating.seats}
    sides = []
    for side, members in sorted(by_side.items()):
        gone = frozenset(p for p in members if p in left)
        # Sides with a leaver rank below every side without one, whatever the board said.
        rank = 3 if gone else 2 if won_sides and side not in won_sides else 1
        sides.append(Side(tuple(members), rank, gone))
    return sides


def lineup_at_deal(seat_numbers: Sequence[int], stored: list[tuple[str, dict[str, Any], float]]
                    ) -> tuple[dict[int, str | None], float] | None:  # fmt: skip
    """Who sat where when the first card was dealt (a bot as None), and when; None if the
    game never started. The events are applied as the table applied them."""
    seats: dict[int, tuple[str, bool] | None] = {}
    for kind, data, at in stored:
        if kind == "seat":
            seats[int(data["seat"])] = (str(data["player"]), bool(data["bot"]))
        elif kind == "unseat":
            seats[int(data["seat"])] = None
        elif kind == "assign":
            by_player = {s[0]: s for s in seats.values() if s is not None}
            seats = {
                seat: by_player.get(player) if player else None
                for seat, player in zip(seat_numbers, data["order"], strict=True)
            }
        elif kind == "start":
            return {n: None if s is None or s[1] else s[0] for n, s in seats.items()}, at
    return None


def leavers(seated: dict[int, str | None],
             stored: list[tuple[str, dict[str, Any], float]]) -> set[str]:  # fmt: skip
    """The people seated at the deal who left before the end: their seat given to someone
    else (a bot, at a free table) or marked left (a coin table)."""
    started = False
    gone: set[str] = set()
    for kind, data, _at in stored:
        if kind == "start":
            started = True
        elif not started:
            continue
        elif kind == "seat":
            player = seated.get(int(data["seat"]))
            if player is not None and data["player"] != player:
                gone.add(player)
        elif kind == "left":
            player = seated.get(int(data["seat"]))
            if player is not None:
                gone.add(player)
    return gone


def _rate(c: Connection, table_id: str, game: str, at: float, sides: list[Side]) -> None:
    everyone = [p for side in sides for p in side.players]
    rows = {
        row.player_id: row
        for row in c.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(everyone))
        )
    }
    before = {p: (rows[p].mu, rows[p].sigma) if p in rows else (MU, SIGMA) for p in everyone}
    teams = [[MODEL.create_rating(list(before[p]), name=p) for p in side.players]
             for side in sides]  # fmt: skip
    after = MODEL.rate(teams, ranks=[float(side.rank) for side in sides])
    best = min(side.rank for side in sides)
    tied = all(side.rank == best for side in sides)
    c.execute(
        insert(rated_games).values(
            table_id=table_id,
            game=game,
            finished_at=at,
            teams=json.dumps([{"players": list(s.players), "rank": s.rank} for s in sides]),
        )
    )
    for side, team in zip(sides, after, strict=True):
        won = side.rank == best and not tied
        for player, rating in zip(side.players, team, strict=True):
            mu, sigma = float(rating.mu), float(rating.sigma)
            c.execute(
                insert(rating_changes).values(
                    table_id=table_id, player_id=player, game=game, won=won,
                    left=player in side.left, mu_before=before[player][0],
                    sigma_before=before[player][1], mu=mu, sigma=sigma, finished_at=at,
                )
            )  # fmt: skip
            if player in rows:
                c.execute(
                    update(ratings)
                    .where(ratings.c.player_id == player, ratings.c.game == game)
                    .values(mu=mu, sigma=sigma, games=ratings.c.games + 1,
                            wins=ratings.c.wins + int(won), updated_at=at)
                )  # fmt: skip
            else:
                c.execute(
                    insert(ratings).values(player_id=player, game=game, mu=mu, sigma=sigma,
                                           games=1, wins=int(won), updated_at=at)
                )  # fmt: skip


def rebuild(engine: Engine) -> int:
    """Every rating worked out again from the records, in finish order, in one transaction;
    the number of games rated."""
    with engine.begin() as c:
        c.execute(delete(rating_changes))
        c.execute(delete(rated_games))
        c.execute(delete(ratings))
        finished = c.execute(
            select(records.c.table_id).order_by(records.c.finished_at, records.c.table_id)
        ).all()
        return sum(rate_table(c, str(table_id)) for (table_id,) in finished)


def table_rows(engine: Engine) -> list[tuple[Any, ...]]:
    """The ratings table, ordered: what the live updates and a rebuild are compared by."""
    with engine.connect() as c:
        return [
            tuple(row)
            for row in c.execute(select(ratings).order_by(ratings.c.game, ratings.c.player_id))
        ]
