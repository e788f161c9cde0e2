"""Writing transfers: the entries and the balances they change, in the caller's transaction.

Every function takes an open :class:`~sqlalchemy.engine.Connection` inside a
transaction (``engine.begin()``), so a transfer commits together with what it
belongs to (an account's creation, a game's start or end) or not at all.
Balances never go below zero because the database refuses it (a CHECK
constraint on ``ledger_accounts``), not because Python looked first: two
processes staking the same coins at once cannot both win.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from sahrat.server.ledger.transfers import HOUSE, SETTLE, SOURCE, Transfer, account_kind
from sahrat.server.schema import entries, ledger_accounts, transfers


class LedgerRefused(Exception):
    """A transfer the ledger refused; the transaction must be rolled back."""


class AlreadyDone(LedgerRefused):
    """A transfer with this key exists: the movement was already made."""

    def __init__(self, key: str) -> None:
        super().__init__(f"transfer {key} was already made")
        self.key = key


class Insufficient(LedgerRefused):
    """An account would go below zero."""

    def __init__(self, account: str) -> None:
        super().__init__(f"{account} has too few coins")
        self.account = account


def open_accounts(c: Connection, accounts: Iterable[str]) -> None:
    """Create the accounts that do not exist yet, at zero (racing creators are fine)."""
    rows = [{"id": a, "kind": account_kind(a), "balance": 0} for a in accounts]
    if not rows:
        return
    dialect = c.dialect.name
    if dialect == "postgresql":
        c.execute(postgresql.insert(ledger_accounts).on_conflict_do_nothing(), rows)
    elif dialect == "sqlite":
        c.execute(sqlite.insert(ledger_accounts).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - the two databases Sahrat runs on are above
        raise RuntimeError(f"no ledger for {dialect}")


def open_house(c: Connection) -> None:
    open_accounts(c, (HOUSE, SOURCE))


def post(c: Connection, transfer: Transfer, at: float) -> int:
    """Write ``transfer``: :class:`AlreadyDone` if its key exists, :class:`Insufficient`
    if an account would go below zero. Returns the transfer's id."""
    if c.execute(select(transfers.c.id).where(transfers.c.key == transfer.key)).first():
        raise AlreadyDone(transfer.key)
    open_accounts(c, (a for a, amount in transfer.legs if amount > 0))
    try:
        transfer_id: int = c.execute(
            insert(transfers)
            .values(key=transfer.key, kind=transfer.kind, table_id=transfer.table_id, at=at)
            .returning(transfers.c.id)
        ).scalar_one()
    except IntegrityError as error:  # another process made it between the look and now
        raise AlreadyDone(transfer.key) from error
    c.execute(
        insert(entries),
        [{"transfer_id": transfer_id, "account_id": a, "amount": n} for a, n in transfer.legs],
    )
    # In one order everywhere, so two transfers touching the same accounts cannot
    # deadlock on PostgreSQL's row locks.
    for account, amount in sorted(transfer.legs):
        try:
            changed = c.execute(
                update(ledger_accounts)
                .where(ledger_accounts.c.id == account)
                .values(balance=ledger_accounts.c.balance + amount)
            ).rowcount
        except IntegrityError as error:
            raise Insufficient(account) from error
        if changed != 1:
            raise Insufficient(account)  # an account never opened holds nothing
    return int(transfer_id)


def balance(c: Connection, account: str) -> int:
    found = c.execute(
        select(ledger_accounts.c.balance).where(ledger_accounts.c.id == account)
    ).scalar()
    return int(found or 0)


def made(c: Connection, key: str) -> bool:
    return c.execute(select(transfers.c.id).where(transfers.c.key == key)).first() is not None


@dataclass(frozen=True, slots=True)
class Line:
    """One movement of an account, for its owner's statement."""

    id: int
    at: float
    kind: str
    amount: int
    #: The account's balance just after this movement.
    balance: int
    table_id: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "at": self.at,
            "kind": self.kind,
            "amount": self.amount,
            "balance": self.balance,
            "table": self.table_id,
        }


def statement(c: Connection, account: str, before: int | None, limit: int) -> list[Line]:
    """The account's movements, newest first, older than transfer ``before`` if given."""
    query = (
        select(
            transfers.c.id, transfers.c.at, transfers.c.kind, entries.c.amount, transfers.c.table_id
        )
        .join(entries, entries.c.transfer_id == transfers.c.id)
        .where(entries.c.account_id == account)
        .order_by(transfers.c.id.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(transfers.c.id < before)
    rows: Any = c.execute(query).all()
    if not rows:
        return []
    # The balance after the newest line shown, then each older one by subtraction.
    after: int = c.execute(
        select(func.coalesce(func.sum(entries.c.amount), 0)).where(
            entries.c.account_id == account, entries.c.transfer_id <= rows[0][0]
        )
    ).scalar_one()
    lines = []
    running = int(after)
    for transfer_id, at, kind, amount, table_id in rows:
        # A player's share of a pot is a payout, whatever else the settlement did.
        shown = "payout" if kind == SETTLE else str(kind)
        lines.append(Line(int(transfer_id), float(at), shown, int(amount), running, table_id))
        running -= int(amount)
    return lines
