"""Friends and blocks: requests, answers, the lists; each call one transaction.

Blocking ends a friendship and any request between the two, and stops requests
both ways. :func:`friends_of` and :func:`is_blocked` are what the socket side
(presence, invitations, chat) asks; :class:`~sahrat.server.people.service.People`
has them as coroutines too.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, and_, delete, insert, or_, select
from sqlalchemy.engine import Connection

from sahrat.server.people.tables import blocks, friend_requests, friends


class FriendRefused(Exception):
    """A friend or block request refused, nothing changed: ``code`` names why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def friends_of(engine: Engine, player: str) -> set[str]:
    """The ids of ``player``'s friends."""
    with engine.connect() as c:
        return _friends(c, player)


def is_blocked(engine: Engine, a: str, b: str) -> bool:
    """Whether ``a`` has blocked ``b`` (then ``b``'s chat and invitations are hidden from
    ``a``). :func:`blocked_between` asks both ways."""
    with engine.connect() as c:
        return _blocked(c, a, b)


def blocked_between(engine: Engine, a: str, b: str) -> bool:
    """Whether either of the two has blocked the other."""
    with engine.connect() as c:
        return _blocked(c, a, b) or _blocked(c, b, a)


def _friends(c: Connection, player: str) -> set[str]:
    rows = c.execute(select(friends.c.friend_id).where(friends.c.player_id == player))
    return {str(f) for (f,) in rows}


def _blocked(c: Connection, a: str, b: str) -> bool:
    found = c.execute(
        select(blocks.c.at).where(blocks.c.blocker_id == a, blocks.c.blocked_id == b)
    ).first()
    return found is not None


def _requested(c: Connection, a: str, b: str) -> bool:
    found = c.execute(
        select(friend_requests.c.at).where(
            friend_requests.c.from_id == a, friend_requests.c.to_id == b
        )
    ).first()
    return found is not None


def _between(a: str, b: str) -> Any:
    return or_(
        and_(friend_requests.c.from_id == a, friend_requests.c.to_id == b),
        and_(friend_requests.c.from_id == b, friend_requests.c.to_id == a),
    )


def _befriend(c: Connection, a: str, b: str, at: float) -> None:
    c.execute(delete(friend_requests).where(_between(a, b)))
    c.execute(
        insert(friends),
        [{"player_id": a, "friend_id": b, "since": at}, {"player_id": b, "friend_id": a,
                                                           "since": at}],
    )  # fmt: skip


def request(engine: Engine, sender: str, to: str, at: float) -> str:
    """Ask ``to`` to be ``sender``'s friend: ``"requested"``, or ``"friends"`` when ``to``
    had asked ``sender`` already (the two requests meet). :class:`FriendRefused`:
    ``cannot_friend_self``, ``you_blocked_them``, ``blocked``, ``already_friends``,
    ``already_requested``."""
    if sender == to:
        raise FriendRefused("cannot_friend_self")
    with engine.begin() as c:
        if _blocked(c, sender, to):
            raise FriendRefused("you_blocked_them")
        if _blocked(c, to, sender):
            raise FriendRefused("blocked")
        if to in _friends(c, sender):
            raise FriendRefused("already_friends")
        if _requested(c, sender, to):
            raise FriendRefused("already_requested")
        if _requested(c, to, sender):
            _befriend(c, sender, to, at)
            return "friends"
        c.execute(insert(friend_requests).values(from_id=sender, to_id=to, at=at))
        return "requested"


def accept(engine: Engine, player: str, sender: str, at: float) -> None:
    """Accept ``sender``'s request; :class:`FriendRefused` ``no_such_request``."""
    with engine.begin() as c:
        if not _requested(c, sender, player):
            raise FriendRefused("no_such_request")
        _befriend(c, player, sender, at)


def withdraw(engine: Engine, player: str, other: str) -> None:
    """Refuse ``other``'s request, or take back one's own to ``other``."""
    with engine.begin() as c:
        gone = c.execute(delete(friend_requests).where(_between(player, other))).rowcount
    if not gone:
        raise FriendRefused("no_such_request")


def unfriend(engine: Engine, player: str, other: str) -> None:
    with engine.begin() as c:
        gone = c.execute(
            delete(friends).where(
                or_(
                    and_(friends.c.player_id == player, friends.c.friend_id == other),
                    and_(friends.c.player_id == other, friends.c.friend_id == player),
                )
            )
        ).rowcount
    if not gone:
        raise FriendRefused("not_friends")


def block(engine: Engine, player: str, other: str, at: float) -> None:
    """Block ``other``: their friendship and requests both ways end."""
    if player == other:
        raise FriendRefused("cannot_block_self")
    with engine.begin() as c:
        if _blocked(c, player, other):
            raise FriendRefused("already_blocked")
        c.execute(delete(friend_requests).where(_between(player, other)))
        c.execute(
            delete(friends).where(
                or_(
                    and_(friends.c.player_id == player, friends.c.friend_id == other),
                    and_(friends.c.player_id == other, friends.c.friend_id == player),
                )
            )
        )
        c.execute(insert(blocks).values(blocker_id=player, blocked_id=other, at=at))


def unblock(engine: Engine, player: str, other: str) -> None:
    with engine.begin() as c:
        gone = c.execute(
            delete(blocks).where(blocks.c.blocker_id == player, blocks.c.blocked_id == other)
        ).rowcount
    if not gone:
        raise FriendRefused("not_blocked")


def lists(engine: Engine, player: str) -> dict[str, list[tuple[str, float]]]:
    """``player``'s friends (since), requests in and out (when), blocked players (when):
    ids and times, newest first."""
    with engine.connect() as c:

        def rows(query: Any) -> list[tuple[str, float]]:
            found: Any = c.execute(query).all()
            return [(str(p), float(at)) for p, at in found]

        return {
            "friends": rows(
                select(friends.c.friend_id, friends.c.since)
                .where(friends.c.player_id == player)
                .order_by(friends.c.since.desc())
            ),
            "incoming": rows(
                select(friend_requests.c.from_id, friend_requests.c.at)
                .where(friend_requests.c.to_id == player)
                .order_by(friend_requests.c.at.desc())
            ),
            "outgoing": rows(
                select(friend_requests.c.to_id, friend_requests.c.at)
                .where(friend_requests.c.from_id == player)
                .order_by(friend_requests.c.at.desc())
            ),
            "blocked": rows(
                select(blocks.c.blocked_id, blocks.c.at)
                .where(blocks.c.blocker_id == player)
                .order_by(blocks.c.at.desc())
            ),
        }


def circle_of(engine: Engine, player: str) -> tuple[set[str], set[str], set[str]]:
    """``player``'s friends, the players they blocked, and the players who blocked them:
    what the socket side keeps in memory while the player is online."""
    with engine.connect() as c:
        blocked = c.execute(select(blocks.c.blocked_id).where(blocks.c.blocker_id == player))
        blockers = c.execute(select(blocks.c.blocker_id).where(blocks.c.blocked_id == player))
        return _friends(c, player), {str(p) for (p,) in blocked}, {str(p) for (p,) in blockers}
