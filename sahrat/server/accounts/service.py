"""Accounts as the REST API and the WebSocket use them: guests, registration, login,
sessions, the coins an account holds.

Every refusal is an :class:`AccountError` with the HTTP status and the code
``docs/protocol.md`` §6 names; nothing changes when one is raised. Wrong
names and wrong passwords get the same answer after the same work (a decoy
hash is checked for an unknown name).
"""

from __future__ import annotations

import datetime
import math
import time
from typing import Any

from sahrat.server.accounts import queries
from sahrat.server.accounts.names import NameRefused, account_name, name_key
from sahrat.server.accounts.passwords import PasswordRefused, Passwords, check_password
from sahrat.server.accounts.queries import Identity
from sahrat.server.address_limits import AddressBuckets
from sahrat.server.ledger import book
from sahrat.server.names import clean_name, guest_name
from sahrat.server.settings import Settings
from sahrat.server.store import Store
from sahrat.server.tokens import TokenSigner, new_player_id, new_session_id

#: A session's last use is written at most this often (a read stays a read).
TOUCH_AFTER = 3600.0
PAGE_MAX = 100


class AccountError(Exception):
    """A refused request: ``status`` (HTTP), ``code`` and an English ``detail``."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.detail, "code": self.code, **self.extra}


class TooMany(AccountError):
    """Past a rate limit; ``retry_after`` whole seconds until the next is allowed."""

    def __init__(self, what: str, wait: float) -> None:
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(429, "too_many", f"too many {what}: wait {self.retry_after} s")


WRONG_CREDENTIALS = (401, "wrong_credentials", "wrong name or password")
NAME_DETAILS = {
    "bad_field": "name is a string",
    "name_spaces": "a name has single spaces between words, none at its ends",
    "name_too_short": "a name has at least 2 characters",
    "name_too_long": "a name has at most 20 characters",
    "name_bad_character": "a name has Arabic or Latin letters, digits and spaces only",
}
PASSWORD_DETAILS = {
    "bad_field": "password is a string",
    "password_too_short": "a password has at least 8 characters",
    "password_too_long": "a password has at most 256 bytes",
}


def limit(buckets: AddressBuckets, key: str, what: str) -> None:
    wait = buckets.take(key)
    if wait:
        raise TooMany(what, wait)


def today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def next_day_at() -> float:
    tomorrow = today() + datetime.timedelta(days=1)
    return datetime.datetime(
        tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=datetime.UTC
    ).timestamp()


class Accounts:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.engine = store.engine
        self.settings = settings
        self.passwords = Passwords()
        self.signer: TokenSigner | None = None
        s = settings
        self._new_guests = AddressBuckets(s.guests_burst, s.guests_every)
        self._new_accounts = AddressBuckets(s.accounts_burst, s.accounts_every)
        self._logins = AddressBuckets(s.logins_burst, s.logins_every)
        self._name_logins = AddressBuckets(s.name_logins_burst, s.name_logins_every)

    async def start(self) -> None:
        self.signer = TokenSigner(await self.store.run(self.store.secret))

    def _token(self, session: str) -> str:
        assert self.signer is not None
        return self.signer.sign(session)

    # -- who is asking ----------------------------------------------------------------------

    async def identify(self, token: object) -> tuple[Identity, str] | None:
        """The identity a token stands for and the token to use from now on, or None."""
        assert self.signer is not None
        subject = self.signer.subject(token)
        if subject is None:
            return None
        if subject.startswith("p"):  # a guest's token from before sessions were kept
            name = await self.store.run(queries.guest_player, self.engine, subject)
            if name is None:
                return None
            session = new_session_id()
            await self.store.run(
                queries.new_session, self.engine, subject, session, time.time(), ""
            )
            return Identity(subject, name, True, session), self._token(session)
        found = await self.store.run(
            queries.identify, self.engine, subject, time.time(),
            self.settings.session_idle_seconds, TOUCH_AFTER,
        )  # fmt: skip
        return None if found is None else (found, str(token))

    async def guest(self, name: object, address: str, agent: str = "") -> tuple[Identity, str]:
        limit(self._new_guests, address, "new guests from your address")
        player, session = new_player_id(), new_session_id()
        display = clean_name(name) or guest_name()
        await self.store.run(
            queries.add_guest, self.engine, player, display, session, time.time(), agent
        )
        return Identity(player, display, True, session), self._token(session)

    # -- registration, login, sessions ------------------------------------------------------

    async def register(self, name: object, password: object, address: str, agent: str,
                       guest: Identity | None) -> tuple[Identity, str]:  # fmt: skip
        """A new account; a guest's session makes that guest the account (its id, history)."""
        try:
            display = account_name(name)
        except NameRefused as error:
            raise AccountError(422, error.code, NAME_DETAILS[error.code], **error.params) from None
        try:
            secret = check_password(password)
        except PasswordRefused as error:
            raise AccountError(422, error.code, PASSWORD_DETAILS[error.code]) from None
        if guest is not None and not guest.guest:
            raise AccountError(409, "already_registered", "you are signed in to an account")
        limit(self._new_accounts, address, "new accounts from your address")
        hashed = await self.passwords.hash(secret)
        player = guest.player if guest is not None else new_player_id()
        session = new_session_id()
        try:
            await self.store.run(
                queries.register, self.engine, player, guest is not None, display,
                name_key(display), hashed, session, time.time(), self.settings.starting_grant,
                agent,
            )  # fmt: skip
        except queries.NameTaken:
            raise AccountError(409, "name_taken", "that name is taken") from None
        except queries.AlreadyRegistered:
            raise AccountError(409, "already_registered", "already an account") from None
        return Identity(player, display, False, session), self._token(session)

    async def login(self, name: object, password: object, address: str,
                    agent: str) -> tuple[Identity, str]:  # fmt: skip
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 200:
            raise AccountError(*WRONG_CREDENTIALS)
        limit(self._logins, address, "logins from your address")
        key = name_key(name.strip())
        limit(self._name_logins, key, "logins to this account")
        found = await self.store.run(queries.credentials, self.engine, key)
        ok = await self.passwords.verify(None if found is None else found[1], password)
        if found is None or not ok:
            raise AccountError(*WRONG_CREDENTIALS)
        player = found[0]
        session = new_session_id()
        await self.store.run(queries.new_session, self.engine, player, session, time.time(), agent)
        identity = await self.store.run(
            queries.identify, self.engine, session, time.time(), math.inf, math.inf
        )
        assert identity is not None
        return identity, self._token(session)

    async def logout(self, identity: Identity) -> list[str]:
        return await self.store.run(
            queries.end_sessions, self.engine, identity.player, time.time(), identity.session
        )

    async def logout_everywhere(self, identity: Identity) -> list[str]:
        """End every session of the account, this one included (their ids)."""
        return await self.store.run(queries.end_sessions, self.engine, identity.player, time.time())

    async def change_password(self, identity: Identity, old: object, new: object) -> list[str]:
        """Set a new password; every other session of the account ends (their ids)."""
        if identity.guest:
            raise AccountError(403, "guest", "a guest has no password")
        try:
            secret = check_password(new)
        except PasswordRefused as error:
            raise AccountError(422, error.code, PASSWORD_DETAILS[error.code]) from None
        stored = await self.store.run(queries.password_hash, self.engine, identity.player)
        if not isinstance(old, str) or not await self.passwords.verify(stored, old):
            raise AccountError(*WRONG_CREDENTIALS)
        hashed = await self.passwords.hash(secret)
        await self.store.run(queries.set_password, self.engine, identity.player, hashed)
        return await self.store.run(
            queries.end_sessions, self.engine, identity.player, time.time(), None, identity.session
        )

    async def sessions(self, identity: Identity) -> list[dict[str, Any]]:
        rows = await self.store.run(
            queries.open_sessions, self.engine, identity.player, time.time(),
            self.settings.session_idle_seconds,
        )  # fmt: skip
        return [{**row, "current": row["id"] == identity.session} for row in rows]

    async def revoke(self, identity: Identity, session: str) -> list[str]:
        ended = await self.store.run(
            queries.end_sessions, self.engine, identity.player, time.time(), session
        )
        if not ended:
            raise AccountError(404, "no_such_session", "no such session of yours")
        return ended

    # -- coins and history ------------------------------------------------------------------

    async def me(self, identity: Identity) -> dict[str, Any]:
        found = await self.store.run(queries.profile, self.engine, identity.player)
        me: dict[str, Any] = {
            "id": identity.player,
            "name": identity.name,
            "guest": identity.guest,
            "balance": None if identity.guest else found["balance"],
            "games_played": found["games_played"],
            "daily_grant": None,
        }
        if not identity.guest:
            claimed = await self.store.run(queries.claimed, self.engine, identity.player, today())
            me["daily_grant"] = {
                "amount": self.settings.daily_grant,
                "claimable": not claimed,
                "next_at": next_day_at(),
            }
        return me

    async def balance(self, player: str) -> int:
        return await self.store.run(queries.balance, self.engine, player)

    async def claim_daily(self, identity: Identity) -> dict[str, Any]:
        if identity.guest:
            raise AccountError(403, "guest_no_coins", "guests have no coins: register first")
        try:
            after = await self.store.run(
                queries.claim_daily, self.engine, identity.player, today(),
                self.settings.daily_grant, time.time(),
            )  # fmt: skip
        except book.AlreadyDone:
            raise AccountError(
                409, "already_claimed", "today's grant is claimed", next_at=next_day_at()
            ) from None
        return {"granted": self.settings.daily_grant, "balance": after}

    async def statement(self, identity: Identity, before: int | None, count: int) -> dict[str, Any]:
        lines = await self.store.run(
            queries.statement, self.engine, identity.player, before, count + 1
        )
        more = len(lines) > count
        lines = lines[:count]
        return {
            "entries": [line.to_json() for line in lines],
            "next": lines[-1].id if more else None,
        }

    async def games(self, identity: Identity, before: float | None, count: int) -> dict[str, Any]:
        rows = await self.store.run(
            queries.history, self.engine, identity.player, before, count + 1
        )
        more = len(rows) > count
        rows = rows[:count]
        return {
            "games": [_game(row) for row in rows],
            "next": rows[-1]["finished_at"] if more else None,
        }


def _game(row: dict[str, Any]) -> dict[str, Any]:
    table = row["table_id"]
    return {
        "table": table,
        "game": row["game"],
        "finished_at": row["finished_at"],
        "seat": row["seat"],
        "result": "won" if row["won"] else "lost",
        "left": bool(row["left"]),
        "stake": row["stake"],
        "coins": row["coins"],
        "record": f"/api/records/{table}",
        "replay": f"/api/records/{table}/replay",
        "verify": f"/static/verify.html#record=/api/records/{table}",
    }
