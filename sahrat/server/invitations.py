"""Inviting a friend online to one's table: ``invite`` in, ``invitation`` out.

A player seated at a private table, or at a public one still waiting, may invite a
friend who is online. The friend's connections get an ``invitation`` with the
table, the inviter's name and what joining takes (a private table's code); it
lasts ``invitation_seconds`` (a setting), then an ``invitation_expired`` takes it back.
Each refusal is named and nothing is sent to anyone (``docs/protocol.md`` §4):
oneself, not friends, a block either way (a blocked player's invitations never
arrive), a friend offline, no seat, a table started or full, and floods (a token
bucket per inviter). Declining is the invitee's own affair: the inviter is not told.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Mapping
from typing import Any

from sahrat.server.address_limits import AddressBuckets
from sahrat.server.client import Client
from sahrat.server.messages import Invite
from sahrat.server.presence import OVER, Presence
from sahrat.server.protocol import ProtocolError
from sahrat.server.table import TableActor


class Invitations:
    """Invitations waiting for an answer, and each inviter's bucket."""

    def __init__(
        self,
        presence: Presence,
        seated: Mapping[str, TableActor],
        *,
        lasts: float = 120.0,
        burst: int = 5,
        every: float = 12.0,
    ) -> None:
        self.presence = presence
        self.seated = seated
        #: How long an invitation may be answered, in seconds.
        self.lasts = lasts
        self._buckets = AddressBuckets(burst, every)
        #: Open invitations by (inviter, invitee, table): the id and its expiry's timer.
        self._open: dict[tuple[str, str, str], tuple[str, asyncio.TimerHandle]] = {}

    def invite(self, client: Client, invite: Invite, ref: object = None) -> None:
        inviter, invitee = client.player, invite.player
        circle = self.presence.circle
        if invitee == inviter:
            raise ProtocolError("invite_self")
        if circle.between(inviter, invitee):
            raise ProtocolError("blocked")
        if not circle.are_friends(inviter, invitee):
            raise ProtocolError("not_friends")
        if not self.presence.online(invitee):
            raise ProtocolError("invitee_offline")
        actor = self.seated.get(inviter)
        if actor is None or actor.status in OVER:
            raise ProtocolError("not_seated", "invite from a seat at your table")
        if actor.status != "waiting":
            raise ProtocolError("table_started")
        if self.seated.get(invitee) is actor:
            raise ProtocolError("already_at_table")
        if not actor.free_seats():
            raise ProtocolError("table_full")
        wait = self._buckets.take(inviter)
        if wait:
            retry = max(1, math.ceil(wait))
            raise ProtocolError("invite_rate", f"wait {retry} s", retry_after=retry)
        key = (inviter, invitee, actor.id)
        earlier = self._open.pop(key, None)
        if earlier is not None:
            earlier[1].cancel()  # the new one replaces it: one card per table and friend
            self._expired(invitee, earlier[0])
        number = "i" + secrets.token_hex(6)
        expires_at = time.time() + self.lasts
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.lasts, self._expire, key, number)
        self._open[key] = (number, timer)
        table = actor.table
        place: dict[str, Any] = {
            "id": actor.id,
            "game": actor.game,
            "seats": len(actor.seat_numbers),
            "free": len(actor.free_seats()),
            "private": actor.kind == "private",
            "stake": table.stake,
        }
        message: dict[str, Any] = {
            "type": "invitation",
            "invitation": number,
            "from": {"id": inviter, "name": client.name},
            "table": place,
            "expires_at": round(expires_at, 3),
            "seconds": self.lasts,
        }
        if actor.code:
            message["code"] = actor.code  # what joining a private table takes
        self.presence.send_to(invitee, message)
        answer: dict[str, Any] = {
            "type": "invited",
            "invitation": number,
            "player": invitee,
            "table": actor.id,
            "expires_at": round(expires_at, 3),
        }
        if ref is not None:
            answer["id"] = ref
        client.send(answer)

    def _expire(self, key: tuple[str, str, str], number: str) -> None:
        found = self._open.get(key)
        if found is not None and found[0] == number:
            del self._open[key]
            self._expired(key[1], number)

    def _expired(self, invitee: str, number: str) -> None:
        self.presence.send_to(invitee, {"type": "invitation_expired", "invitation": number})

    def close(self) -> None:
        for _number, timer in self._open.values():
            timer.cancel()
        self._open.clear()
