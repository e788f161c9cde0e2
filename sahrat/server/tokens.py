"""Signed session tokens: ``<session id>.<HMAC>``.

The signature lets a forged token be refused without a database read; the
session's row (:mod:`~sahrat.server.accounts.queries`) says whether it is
still open. Tokens signed before sessions were kept name a player id
(``p…``) instead; they still bring a guest back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["TokenSigner", "new_player_id", "new_session_id"]


def new_player_id() -> str:
    return "p" + secrets.token_hex(8)


def new_session_id() -> str:
    return "s" + secrets.token_hex(15)


class TokenSigner:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, subject: str) -> str:
        return hmac.new(self._key, b"session|" + subject.encode(), hashlib.sha256).hexdigest()

    def sign(self, session: str) -> str:
        return f"{session}.{self._mac(session)}"

    def subject(self, token: object) -> str | None:
        """What a token was signed for (a session id, or an old guest's player id)."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        subject, _, mac = token.partition(".")
        if not subject or not hmac.compare_digest(mac, self._mac(subject)):
            return None
        return subject
