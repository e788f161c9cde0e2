"""``sahrat ledger audit``: check the coin ledger of a server's database."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("ledger", help="the coin ledger")
    commands = group.add_subparsers(dest="ledger_command", required=True, metavar="COMMAND")
    audit = commands.add_parser(
        "audit",
        help="check every transfer, balance, escrow and coin table; exit 1 if anything is wrong",
    )
    where = audit.add_mutually_exclusive_group()
    where.add_argument("--database-url", default="", help="SQLAlchemy URL of the database")
    where.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the server's data directory (SQLite; default: $SAHRAT_DATA_DIR, else the "
        "user's data directory)",
    )
    audit.set_defaults(handler=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from sahrat.server.ledger.audit import audit
    from sahrat.server.settings import Settings, default_data_dir
    from sahrat.server.store import make_engine

    settings = Settings(
        data_dir=args.data_dir or default_data_dir(), database_url=args.database_url
    )
    if not settings.database_url and not (settings.data_dir / "sahrat.db").exists():
        print(f"ledger: no database in {settings.data_dir}")
        return 1
    engine = make_engine(settings.url)
    try:
        result = audit(engine)
    except DBAPIError as error:
        print(f"ledger: cannot read the ledger ({type(error.orig).__name__}); has a server "
              "of this version migrated the database?")  # fmt: skip
        return 1
    finally:
        engine.dispose()
    for problem in result.problems:
        print(problem)
    print(result.last_line())
    return 0 if result.balanced else 1
