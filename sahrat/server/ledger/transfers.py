"""Coin movements as values: each is a set of legs that sum to zero, and a unique key.

The key names the movement itself (``stake:<table>:<seat>``, ``settle:<table>``,
``grant:daily:<player>:<day>``), so the database refuses a second copy whoever
tries it, after any restart, from any process.

>>> settle(100, (0, 1, 2, 3), winners={0, 2}, left=set())
Settlement(stake=100, pot=400, fee=40, paid={0: 180, 2: 180})
>>> settle(100, (0, 1, 2, 3), winners={0, 2}, left={2}).paid   # a winner who left
{0: 180}
>>> settle(100, (0, 1), winners={1}, left=set())
Settlement(stake=100, pot=200, fee=20, paid={1: 180})
>>> settle(50, (0, 1, 2, 3), winners={1, 3}, left=set()).paid  # 200 - 20 = 180 -> 90 each
{1: 90, 3: 90}
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

#: The house: table fees, and shares nobody may take.
HOUSE = "house"
#: Where granted coins come from; its balance is minus every coin ever granted.
SOURCE = "grants"
#: The house's cut of a coin table's pot, in percent (``platform.md``).
FEE_PERCENT = 10

# Kinds of transfer, as stored and as a player's statement names them.
GRANT_START, GRANT_DAILY, STAKE, SETTLE = "grant_start", "grant_daily", "stake", "settle"


def player_account(player: str) -> str:
    return f"player:{player}"


def escrow_account(table_id: str) -> str:
    return f"escrow:{table_id}"


def account_kind(account: str) -> str:
    """``player``, ``escrow``, ``house`` or ``source``, from an account's id."""
    if account == HOUSE:
        return "house"
    if account == SOURCE:
        return "source"
    return account.partition(":")[0]


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement: ``legs`` maps accounts to signed amounts that sum to zero."""

    key: str
    kind: str
    legs: tuple[tuple[str, int], ...]
    table_id: str | None = None

    def __post_init__(self) -> None:
        accounts = [account for account, _ in self.legs]
        if len(set(accounts)) != len(accounts):
            raise ValueError(f"{self.key}: an account appears twice")
        if sum(amount for _, amount in self.legs) != 0:
            raise ValueError(f"{self.key}: the legs do not sum to zero")
        if any(amount == 0 for _, amount in self.legs):
            raise ValueError(f"{self.key}: a leg of zero")


def starting_grant(player: str, amount: int) -> Transfer:
    return Transfer(
        f"grant:start:{player}", GRANT_START, ((SOURCE, -amount), (player_account(player), amount))
    )


def daily_grant(player: str, amount: int, day: datetime.date) -> Transfer:
    return Transfer(
        f"grant:daily:{player}:{day.isoformat()}",
        GRANT_DAILY,
        ((SOURCE, -amount), (player_account(player), amount)),
    )


def stakes(table_id: str, stake: int, players: Mapping[int, str]) -> list[Transfer]:
    """Each seat's stake into the table's escrow: one transfer per seat."""
    escrow = escrow_account(table_id)
    return [
        Transfer(
            f"stake:{table_id}:{seat}",
            STAKE,
            ((player_account(player), -stake), (escrow, stake)),
            table_id,
        )
        for seat, player in sorted(players.items())
    ]


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a coin table's pot is shared: ``paid`` maps seats to coins; the rest is the
    house's (the fee, a split's remainder, and the share of a winner who left)."""

    stake: int
    pot: int
    fee: int
    paid: dict[int, int]

    def net(self, seat: int) -> int:
        return self.paid.get(seat, 0) - self.stake

    def to_json(self) -> dict[str, object]:
        return {
            "stake": self.stake,
            "pot": self.pot,
            "fee": self.fee,
            "paid": {str(seat): coins for seat, coins in sorted(self.paid.items())},
        }


def settle(
    stake: int, seats: Sequence[int], winners: Collection[int], left: Collection[int]
) -> Settlement:
    """The house takes the fee (rounded down); the winners share the rest equally, whole
    coins, the remainder to the house; a winner who left gets nothing. With no winner
    (a drawn game) everyone still at the table shares as winners would."""
    pot = stake * len(seats)
    fee = pot * FEE_PERCENT // 100
    sharing = [seat for seat in seats if seat in winners] or list(seats)
    share = (pot - fee) // len(sharing)
    paid = {seat: share for seat in sharing if seat not in left and share > 0}
    return Settlement(stake, pot, fee, paid)


def settlement_transfer(
    table_id: str, settlement: Settlement, players: Mapping[int, str]
) -> Transfer:
    """Empty the escrow: the paid seats' players, and the rest to the house."""
    legs = [(escrow_account(table_id), -settlement.pot)]
    legs += [(player_account(players[seat]), coins) for seat, coins in settlement.paid.items()]
    house = settlement.pot - sum(settlement.paid.values())
    if house:
        legs.append((HOUSE, house))
    return Transfer(f"settle:{table_id}", SETTLE, tuple(legs), table_id)
