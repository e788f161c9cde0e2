"""The ledger on the real databases: transfers, the constraint that keeps balances at or
above zero, keys that cannot be used twice, statements, and the audit finding what is
wrong by name."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from sahrat.server.ledger import book
from sahrat.server.ledger.audit import audit
from sahrat.server.ledger.transfers import (
    HOUSE,
    SOURCE,
    Transfer,
    escrow_account,
    player_account,
    settle,
    settlement_transfer,
    stakes,
    starting_grant,
)
from sahrat.server.schema import entries, game_tables, ledger_accounts, transfers
from sahrat.server.store import Store
from tests.server.harness import drop_postgres, postgres_url

#: The installed command, as an operator runs it.
SAHRAT = str(Path(sys.executable).with_name("sahrat"))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ledger.db'}"
        return
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    try:
        yield url
    finally:
        drop_postgres(url)


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    store = Store(database)
    store.migrate()
    yield store.engine
    store.close()


def grant(engine: Engine, player: str, coins: int) -> None:
    with engine.begin() as c:
        book.post(c, starting_grant(player, coins), time.time())


def balance(engine: Engine, account: str) -> int:
    with engine.connect() as c:
        return book.balance(c, account)


def add_coin_table(engine: Engine, table_id: str, status: str, stake: int = 100) -> None:
    with engine.begin() as c:
        c.execute(
            insert(game_tables).values(
                id=table_id, game="jackaroo", options="{}", seats=2, kind="coin",
                status=status, created_at=time.time(), stake=stake,
            )
        )  # fmt: skip


def test_a_transfer_moves_coins_and_its_entries_sum_to_zero(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    assert balance(engine, player_account("p1")) == 1000
    assert balance(engine, SOURCE) == -1000
    with engine.connect() as c:
        amounts = c.execute(select(entries.c.amount)).scalars().all()
    assert sorted(amounts) == [-1000, 1000]


def test_the_same_key_twice_is_refused_and_changes_nothing(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    with pytest.raises(book.AlreadyDone), engine.begin() as c:
        book.post(c, starting_grant("p1", 1000), time.time())
    assert balance(engine, player_account("p1")) == 1000
    assert audit(engine).balanced


def test_a_transfer_past_a_balance_is_refused_whole(engine: Engine) -> None:
    grant(engine, "p1", 50)
    with pytest.raises(book.Insufficient) as refused, engine.begin() as c:
        for transfer in stakes("t1", 100, {0: "p1"}):
            book.post(c, transfer, time.time())
    assert refused.value.account == player_account("p1")
    assert balance(engine, player_account("p1")) == 50
    with engine.connect() as c:
        assert c.execute(select(transfers.c.key)).scalars().all() == ["grant:start:p1"]


def test_the_database_itself_refuses_a_negative_balance(engine: Engine) -> None:
    """Not a check in Python: a plain UPDATE below zero fails in the database."""
    grant(engine, "p1", 10)
    with pytest.raises(IntegrityError), engine.begin() as c:
        c.execute(
            update(ledger_accounts)
            .where(ledger_accounts.c.id == player_account("p1"))
            .values(balance=-1)
        )
    assert balance(engine, player_account("p1")) == 10


def test_a_transfer_whose_legs_do_not_sum_to_zero_cannot_be_made() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        Transfer("bad", "grant_start", ((SOURCE, -10), (player_account("p1"), 9)))


def test_a_statement_is_newest_first_with_the_balance_after_each_line(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    grant(engine, "p2", 1000)
    with engine.begin() as c:
        for transfer in stakes("t1", 100, {0: "p1", 2: "p2"}):
            book.post(c, transfer, time.time())
        paid = settle(100, (0, 2), winners={0}, left=set())
        book.post(c, settlement_transfer("t1", paid, {0: "p1", 2: "p2"}), time.time())
    with engine.connect() as c:
        lines = book.statement(c, player_account("p1"), None, 10)
        older = book.statement(c, player_account("p1"), lines[0].id, 10)
    assert [(line.kind, line.amount, line.balance) for line in lines] == [
        ("payout", 180, 1080), ("stake", -100, 900), ("grant_start", 1000, 1000)
    ]  # fmt: skip
    assert [line.id for line in older] == [line.id for line in lines[1:]]
    assert balance(engine, HOUSE) == 20 and balance(engine, escrow_account("t1")) == 0


def test_a_whole_coin_table_audits_balanced(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    grant(engine, "p2", 1000)
    add_coin_table(engine, "t1", "finished")
    with engine.begin() as c:
        for transfer in stakes("t1", 100, {0: "p1", 2: "p2"}):
            book.post(c, transfer, time.time())
        paid = settle(100, (0, 2), winners={2}, left=set())
        book.post(c, settlement_transfer("t1", paid, {0: "p1", 2: "p2"}), time.time())
    result = audit(engine)
    assert result.problems == []
    assert result.last_line() == f"ledger: 5 transfers, {result.accounts} accounts, balanced"


# -- the audit names what is wrong ----------------------------------------------------------


def test_the_audit_names_a_balance_that_is_not_its_entries(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    with engine.begin() as c:
        c.execute(
            update(ledger_accounts)
            .where(ledger_accounts.c.id == player_account("p1"))
            .values(balance=1001)
        )
    problems = audit(engine).problems
    assert any("player:p1 holds 1001 but its entries sum to 1000" in p for p in problems)


def test_the_audit_names_a_transfer_that_does_not_sum_to_zero(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    with engine.begin() as c:
        c.execute(
            text("UPDATE entries SET amount = 999 WHERE account_id = :a"),
            {"a": player_account("p1")},
        )
        c.execute(
            update(ledger_accounts)
            .where(ledger_accounts.c.id == player_account("p1"))
            .values(balance=999)
        )
    assert audit(engine).problems == ["transfer grant:start:p1 sums to -1"]


def test_the_audit_names_a_finished_coin_table_never_settled(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    grant(engine, "p2", 1000)
    add_coin_table(engine, "t9", "finished")
    with engine.begin() as c:
        for transfer in stakes("t9", 100, {0: "p1", 2: "p2"}):
            book.post(c, transfer, time.time())
    assert audit(engine).problems == ["table t9 finished and settled 0 times"]


def test_the_audit_names_a_table_closed_with_its_stakes(engine: Engine) -> None:
    grant(engine, "p1", 1000)
    grant(engine, "p2", 1000)
    add_coin_table(engine, "t8", "closed")
    with engine.begin() as c:
        for transfer in stakes("t8", 100, {0: "p1", 2: "p2"}):
            book.post(c, transfer, time.time())
    assert audit(engine).problems == ["table t8 closed holding 200 staked coins"]


def test_the_cli_exits_1_and_names_the_problem(database: str, engine: Engine) -> None:
    grant(engine, "p1", 1000)
    ok = subprocess.run(
        [SAHRAT, "ledger", "audit", "--database-url", database],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.splitlines()[-1] == "ledger: 1 transfers, 3 accounts, balanced"
    with engine.begin() as c:
        c.execute(update(ledger_accounts).where(ledger_accounts.c.id == HOUSE).values(balance=5))
    bad = subprocess.run(
        [SAHRAT, "ledger", "audit", "--database-url", database],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 1
    assert bad.stdout.splitlines() == [
        "account house holds 5 but its entries sum to 0",
        "ledger: 1 transfers, 3 accounts, 1 problems",
    ]
