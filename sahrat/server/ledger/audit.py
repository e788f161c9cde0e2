"""``sahrat ledger audit``: the whole ledger checked from the database alone.

Each check is one query that returns what is wrong, so a problem is named
(which transfer, which account, which table), not merely counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, and_, func, select
from sqlalchemy.engine import Connection

from sahrat.server.ledger.transfers import SETTLE, STAKE, escrow_account
from sahrat.server.schema import entries, game_tables, ledger_accounts, transfers


@dataclass
class Audit:
    transfers: int = 0
    accounts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def balanced(self) -> bool:
        return not self.problems

    def last_line(self) -> str:
        if self.balanced:
            return f"ledger: {self.transfers} transfers, {self.accounts} accounts, balanced"
        counts = f"ledger: {self.transfers} transfers, {self.accounts} accounts"
        return f"{counts}, {len(self.problems)} problems"


def audit(engine: Engine) -> Audit:
    """Check every rule of the ledger; read in one transaction, so it sees one moment."""
    result = Audit()
    with engine.connect() as c, c.begin():
        result.transfers = c.execute(select(func.count()).select_from(transfers)).scalar_one()
        result.accounts = c.execute(select(func.count()).select_from(ledger_accounts)).scalar_one()
        for check in (_unbalanced_transfers, _balances, _negative, _coin_tables, _escrows):
            result.problems.extend(check(c))
    return result


def _unbalanced_transfers(c: Connection) -> list[str]:
    sums = (
        select(
            transfers.c.key,
            func.coalesce(func.sum(entries.c.amount), 0),
            func.count(entries.c.amount),
        )
        .select_from(transfers.outerjoin(entries, entries.c.transfer_id == transfers.c.id))
        .group_by(transfers.c.id, transfers.c.key)
    )
    rows: Any = c.execute(sums).all()
    return [
        f"transfer {key} sums to {total}" if count else f"transfer {key} has no entries"
        for key, total, count in rows
        if total != 0 or count < 2
    ]


def _balances(c: Connection) -> list[str]:
    summed = (
        select(
            ledger_accounts.c.id,
            ledger_accounts.c.balance,
            func.coalesce(func.sum(entries.c.amount), 0),
        )
        .select_from(
            ledger_accounts.outerjoin(entries, entries.c.account_id == ledger_accounts.c.id)
        )
        .group_by(ledger_accounts.c.id, ledger_accounts.c.balance)
    )
    problems = [
        f"account {account} holds {held} but its entries sum to {total}"
        for account, held, total in c.execute(summed)
        if held != total
    ]
    orphans = select(entries.c.account_id).where(
        entries.c.account_id.not_in(select(ledger_accounts.c.id))
    )
    problems += [f"entries name a missing account {a}" for (a,) in c.execute(orphans).unique()]
    return problems


def _negative(c: Connection) -> list[str]:
    below = select(ledger_accounts.c.id, ledger_accounts.c.balance).where(
        ledger_accounts.c.balance < 0, ledger_accounts.c.kind != "source"
    )
    return [f"account {account} is below zero: {held}" for account, held in c.execute(below)]


def _coin_tables(c: Connection) -> list[str]:
    """Every coin table that started has every seat's stake; a finished one is settled
    exactly once; nothing is settled that did not finish."""
    problems = []
    counts = (
        select(
            game_tables.c.id,
            game_tables.c.status,
            game_tables.c.seats,
            game_tables.c.stake,
            func.count(transfers.c.id).filter(transfers.c.kind == STAKE),
            func.count(transfers.c.id).filter(transfers.c.kind == SETTLE),
        )
        .select_from(
            game_tables.outerjoin(transfers, and_(transfers.c.table_id == game_tables.c.id))
        )
        .where(game_tables.c.stake > 0)
        .group_by(game_tables.c.id, game_tables.c.status, game_tables.c.seats, game_tables.c.stake)
    )
    rows: Any = c.execute(counts).all()
    for table_id, status, seats, stake, staked, settled in rows:
        if staked not in (0, seats):
            problems.append(f"table {table_id}: {staked} of {seats} stakes taken")
        if status == "finished" and staked == 0:
            problems.append(f"table {table_id} finished without its stakes")
        if status == "finished" and settled != 1:
            problems.append(f"table {table_id} finished and settled {settled} times")
        if status != "finished" and settled:
            problems.append(f"table {table_id} is settled but {status}")
        if status == "closed" and staked:
            problems.append(f"table {table_id} closed holding {seats * stake} staked coins")
    stray = select(transfers.c.key).where(
        transfers.c.kind.in_((STAKE, SETTLE)),
        transfers.c.table_id.not_in(select(game_tables.c.id).where(game_tables.c.stake > 0)),
    )
    problems += [f"transfer {key} is for no coin table" for (key,) in c.execute(stray)]
    return problems


def _escrows(c: Connection) -> list[str]:
    """A settled table's escrow is empty."""
    settled = select(transfers.c.table_id).where(transfers.c.kind == SETTLE)
    held = select(ledger_accounts.c.id, ledger_accounts.c.balance).where(
        ledger_accounts.c.kind == "escrow", ledger_accounts.c.balance != 0
    )
    done = {escrow_account(str(t)) for (t,) in c.execute(settled)}
    return [
        f"escrow {account} still holds {coins} after its settlement"
        for account, coins in c.execute(held)
        if account in done
    ]
