"""People as the REST API uses them: leaderboards, profiles, one's own name and avatar,
friends and blocks; and the two questions the socket side asks (:meth:`People.friends_of`,
:meth:`People.is_blocked`).

Every refusal is an :class:`~sahrat.server.accounts.service.AccountError` with its HTTP
status and a named code (``docs/people.md``); nothing changes when one is raised.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from sahrat.games import GAMES
from sahrat.server.accounts.names import NameRefused, account_name, name_key
from sahrat.server.accounts.queries import Identity, NameTaken
from sahrat.server.accounts.service import NAME_DETAILS, AccountError, TooMany
from sahrat.server.address_limits import AddressBuckets
from sahrat.server.people import boards, friends, profiles
from sahrat.server.people.boards import ORDERS, PERIODS
from sahrat.server.people.friends import FriendRefused
from sahrat.server.people.profiles import AVATARS
from sahrat.server.store import Store

BOARD_PAGE_MAX = 100

FRIEND_ERRORS = {
    "cannot_friend_self": (422, "you cannot be your own friend"),
    "cannot_block_self": (422, "you cannot block yourself"),
    "you_blocked_them": (409, "you have blocked this player: unblock them first"),
    "blocked": (403, "this player does not take your requests"),
    "already_friends": (409, "you are friends already"),
    "already_requested": (409, "your request is waiting for an answer"),
    "already_blocked": (409, "this player is blocked already"),
    "no_such_request": (404, "no such friend request"),
    "not_friends": (404, "you are not friends"),
    "not_blocked": (404, "this player is not blocked"),
}
NO_SUCH_PLAYER = AccountError(404, "no_such_player", "no account by that name or id")
GUEST = AccountError(403, "guest", "guests have no profile or friends: register first")


class Live(Protocol):
    """The socket side, as friends and blocks changed over REST reach it: who is online
    hears of a new friend at once, a block stops chat and invitations at once."""

    def friends_changed(self, a: str, b: str, friends: bool) -> None: ...

    def blocks_changed(self, blocker: str, blocked: str, blocking: bool) -> None: ...

    def presence_of(self, player: str) -> dict[str, Any] | None:
        """Where ``player`` is (``docs/protocol.md``, presence), or None when offline."""
        ...


class People:
    def __init__(
        self,
        store: Store,
        live: Live | None = None,
        *,
        min_games: int = 5,
        requests_burst: int = 10,
        requests_every: float = 60.0,
    ) -> None:
        self.store = store
        self.engine = store.engine
        self.live = live
        #: Rated games a player needs in a period to appear on its leaderboards.
        self.min_games = min_games
        self._requests = AddressBuckets(requests_burst, requests_every)

    # -- for the socket side -------------------------------------------------------------

    async def friends_of(self, player: str) -> set[str]:
        """The ids of ``player``'s friends."""
        return await self.store.run(friends.friends_of, self.engine, player)

    async def is_blocked(self, a: str, b: str) -> bool:
        """Whether ``a`` has blocked ``b``: hide ``b``'s chat and invitations from ``a``."""
        return await self.store.run(friends.is_blocked, self.engine, a, b)

    # -- leaderboards and profiles -------------------------------------------------------

    async def leaderboard(self, game: str, period: str, by: str, page: int, size: int,
                          me: str | None) -> dict[str, Any]:  # fmt: skip
        if game not in GAMES:
            raise AccountError(404, "no_such_game", f"no game called {game[:40]!r}")
        if period not in PERIODS:
            raise AccountError(422, "bad_field", "period is all or week")
        if by not in ORDERS:
            raise AccountError(422, "bad_field", "by is rating or wins")
        if not 1 <= size <= BOARD_PAGE_MAX:
            raise AccountError(422, "bad_field", f"limit is 1 to {BOARD_PAGE_MAX}")
        if page < 1:
            raise AccountError(422, "bad_field", "page is 1 or more")
        return await self.store.run(
            boards.leaderboard, self.engine, game, period, by, page, size, me,
            self.min_games, time.time(),
        )  # fmt: skip

    async def find(self, who: object) -> dict[str, Any]:
        """The account named ``who`` (its id, or its name however spelled)."""
        if not isinstance(who, str) or not who.strip() or len(who) > 64:
            raise NO_SUCH_PLAYER
        text = who.strip()
        found = await self.store.run(profiles.find, self.engine, (text, name_key(text)))
        if found is None:
            raise NO_SUCH_PLAYER
        return found

    async def profile(self, who: str, me: Identity | None) -> dict[str, Any]:
        found = await self.find(who)
        player = found["id"]
        played = await self.store.run(profiles.games, self.engine, player)
        for game, entry in played["games"].items():
            if entry["rating"] is not None:
                entry["rating"]["rank"] = await self.store.run(
                    boards.rank_of, self.engine, game, player, self.min_games
                )
        out: dict[str, Any] = {
            "id": player,
            "name": found["name"],
            "avatar": found["avatar"],
            "member_since": found["registered_at"],
            "games": played["games"],
            "last_games": played["last"],
            "you": me is not None and me.player == player,
        }
        if out["you"]:
            changed = found["name_changed_at"]
            out["name_change_at"] = None if changed is None else changed + profiles.NAME_EVERY
            out["avatars"] = list(AVATARS)
        return out

    async def change(self, identity: Identity, data: dict[str, Any]) -> dict[str, Any]:
        """``PATCH /api/me``: a new ``name`` and/or ``avatar``; both checked before either
        is written."""
        if identity.guest:
            raise GUEST
        if not data or set(data) - {"name", "avatar"}:
            raise AccountError(422, "bad_field", "the body has name and/or avatar")
        avatar = data.get("avatar")
        if "avatar" in data and avatar not in AVATARS:
            raise AccountError(422, "bad_avatar", "avatar is one of " + ", ".join(AVATARS))
        name = None
        if "name" in data:
            try:
                name = account_name(data["name"])
            except NameRefused as error:
                raise AccountError(422, error.code, NAME_DETAILS[error.code],
                                   **error.params) from None  # fmt: skip
        if name is not None and name != identity.name:
            try:
                await self.store.run(
                    profiles.rename, self.engine, identity.player, name, name_key(name),
                    time.time(),
                )  # fmt: skip
            except profiles.NameTooSoon as error:
                raise AccountError(409, "name_too_soon", "a name is changed once in 30 days",
                                   next_at=error.next_at) from None  # fmt: skip
            except NameTaken:
                raise AccountError(409, "name_taken", "that name is taken") from None
        if isinstance(avatar, str):
            await self.store.run(profiles.set_avatar, self.engine, identity.player, avatar)
        return await self.profile(identity.player, identity)

    # -- friends ---------------------------------------------------------------------------

    async def friend_lists(self, identity: Identity) -> dict[str, Any]:
        if identity.guest:
            raise GUEST
        lists = await self.store.run(friends.lists, self.engine, identity.player)
        ids = sorted({p for rows in lists.values() for p, _at in rows})
        known = await self.store.run(profiles.cards, self.engine, ids)
        found = {
            kind: [{**known[p], "at": at} for p, at in rows if p in known]
            for kind, rows in lists.items()
        }
        live = self.live
        for card in found["friends"]:
            # Friends only: nobody else is told where a player is.
            card["presence"] = None if live is None else live.presence_of(card["id"])
        return found

    async def request(self, identity: Identity, data: dict[str, Any]) -> dict[str, Any]:
        """A friend request to the account ``data["name"]`` or ``data["player"]``."""
        if identity.guest:
            raise GUEST
        wait = self._requests.take(identity.player)
        if wait:
            raise TooMany("friend requests", wait)
        who = data.get("player", data.get("name"))
        other = await self.find(who)
        status = await self._friends(friends.request, identity.player, other["id"], time.time())
        if status == "friends" and self.live is not None:
            self.live.friends_changed(identity.player, other["id"], True)
        card = {"id": other["id"], "name": other["name"], "avatar": other["avatar"]}
        return {"status": status, "player": card}

    async def accept(self, identity: Identity, other: str) -> None:
        await self._friends(friends.accept, identity.player, other, time.time())
        if self.live is not None:
            self.live.friends_changed(identity.player, other, True)

    async def withdraw(self, identity: Identity, other: str) -> None:
        await self._friends(friends.withdraw, identity.player, other)

    async def unfriend(self, identity: Identity, other: str) -> None:
        await self._friends(friends.unfriend, identity.player, other)
        if self.live is not None:
            self.live.friends_changed(identity.player, other, False)

    async def block(self, identity: Identity, other: str) -> None:
        if identity.guest:
            raise GUEST
        found = await self.find(other)
        await self._friends(friends.block, identity.player, found["id"], time.time())
        if self.live is not None:
            self.live.blocks_changed(identity.player, found["id"], True)

    async def unblock(self, identity: Identity, other: str) -> None:
        await self._friends(friends.unblock, identity.player, other)
        if self.live is not None:
            self.live.blocks_changed(identity.player, other, False)

    async def _friends(self, call: Any, *args: Any) -> Any:
        try:
            return await self.store.run(call, self.engine, *args)
        except FriendRefused as error:
            status, detail = FRIEND_ERRORS[error.code]
            raise AccountError(status, error.code, detail) from None
