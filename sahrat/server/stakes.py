"""A coin table's stake as the hub checks it before a player creates or joins one."""

from __future__ import annotations

from sahrat.server.accounts.service import Accounts
from sahrat.server.client import Client
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings


def checked_stake(settings: Settings, client: Client, stake: int | None) -> int:
    """A coin table's stake, checked: one of the server's, and not for a guest."""
    if stake is None:
        return 0
    if stake not in settings.stake_choices:
        choices = ", ".join(map(str, settings.stake_choices))
        raise ProtocolError("bad_stake", f"a stake is one of {choices}")
    if client.guest:
        raise ProtocolError("guest_no_coins")
    return stake


async def afford(accounts: Accounts, client: Client, stake: int) -> None:
    """Refuse a player whose balance is below ``stake`` (checked again at the start)."""
    if not stake:
        return
    have = await accounts.balance(client.player)
    if have < stake:
        detail = f"the stake is {stake}, you have {have}"
        raise ProtocolError("insufficient_coins", detail, need=stake, have=have)
