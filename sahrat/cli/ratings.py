"""``sahrat ratings rebuild``: work every rating out again from a server's finished games."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("ratings", help="the players' skill ratings")
    commands = group.add_subparsers(dest="ratings_command", required=True, metavar="COMMAND")
    rebuild = commands.add_parser(
        "rebuild",
        help="recompute every rating from the stored game records, in finish order; the "
        "result equals the ratings the server kept as games ended",
    )
    where = rebuild.add_mutually_exclusive_group()
    where.add_argument("--database-url", default="", help="SQLAlchemy URL of the database")
    where.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the server's data directory (SQLite; default: $SAHRAT_DATA_DIR, else the "
        "user's data directory)",
    )
    rebuild.set_defaults(handler=run_rebuild)


def run_rebuild(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from sahrat.server.people.ratings import rebuild
    from sahrat.server.settings import Settings, default_data_dir
    from sahrat.server.store import make_engine

    settings = Settings(
        data_dir=args.data_dir or default_data_dir(), database_url=args.database_url
    )
    if not settings.database_url and not (settings.data_dir / "sahrat.db").exists():
        print(f"ratings: no database in {settings.data_dir}")
        return 1
    engine = make_engine(settings.url)
    try:
        rated = rebuild(engine)
    except DBAPIError as error:
        print(f"ratings: cannot rebuild ({type(error.orig).__name__}); has a server of this "
              "version migrated the database?")  # fmt: skip
        return 1
    finally:
        engine.dispose()
    print(f"ratings: {rated} rated games replayed")
    return 0
