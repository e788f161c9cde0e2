"""Passwords: argon2id hashes only, computed off the event loop, a few at a time.

A hash costs tens of milliseconds and 64 MiB on purpose, so the number
computed at once is bounded (a flood of logins queues, it does not exhaust
memory), and a password too long is refused before any hashing.
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_BYTES = 256
#: Hashes computed at once: each holds argon2's memory cost for its duration.
AT_ONCE = 2


class PasswordRefused(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def check_password(password: object) -> str:
    """A password to set, or :class:`PasswordRefused` (``password_too_short/long``)."""
    if not isinstance(password, str):
        raise PasswordRefused("bad_field")
    if len(password.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise PasswordRefused("password_too_long")
    if len(password) < MIN_LENGTH:
        raise PasswordRefused("password_too_short")
    return password


class Passwords:
    """argon2id (argon2-cffi's defaults, RFC 9106's second recommendation)."""

    def __init__(self) -> None:
        self._hasher = PasswordHasher()
        self._slots = asyncio.Semaphore(AT_ONCE)
        # Checked when a name is unknown, so a wrong name takes as long as a wrong password.
        self._decoy = self._hasher.hash(secrets.token_hex(16))

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (a decoy is checked when it is None)."""
        if len(password.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            return False
        async with self._slots:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            self._hasher.verify(stored or self._decoy, password)
        except (VerificationError, InvalidHashError):
            return False
        return stored is not None
