"""Signed session tokens: ``<player id>.<HMAC>``; the same token brings the same player back."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sahrat.server.names import guest_name

__all__ = ["TokenSigner", "guest_name", "new_player_id"]


def new_player_id() -> str:
    return "p" + secrets.token_hex(8)


class TokenSigner:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, player_id: str) -> str:
        return hmac.new(self._key, b"session|" + player_id.encode(), hashlib.sha256).hexdigest()

    def sign(self, player_id: str) -> str:
        return f"{player_id}.{self._mac(player_id)}"

    def player(self, token: object) -> str | None:
        """The player a token was signed for, or None for anything else."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        player_id, _, mac = token.partition(".")
        if not player_id or not hmac.compare_digest(mac, self._mac(player_id)):
            return None
        return player_id
