"""`python -m api.storage.migrate`: the record's schema brought up to date (Alembic's `upgrade
head`, the migrations in `api/storage/migrations/versions/`), then the finished games' monthly
partitions made for this month and the next `MONTHS_AHEAD` (run it monthly, or at every deploy:
it does only what is missing). DATABASE_URL names the database. `make run` runs it first.
"""
from __future__ import annotations

import os
import sys
from datetime import date
from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MONTHS_AHEAD = 2


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # SQLAlchemy's name for the same server through psycopg 3.
    sqlalchemy_url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    config.set_main_option("sqlalchemy.url", sqlalchemy_url.replace("%", "%%"))
    return config


def month_partition(first: date) -> str:
    """The partition of the month starting at `first`, made unless it is there."""
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return (f"CREATE TABLE IF NOT EXISTS finished_games_{first:%Y_%m} PARTITION OF finished_games "
            f"FOR VALUES FROM ('{first.isoformat()}') TO ('{following.isoformat()}')")


def make_partitions(url: str, today: date | None = None) -> list[str]:
    """This month's partition and the next MONTHS_AHEAD'; the statements run."""
    today = today or date.today()
    statements = []
    for ahead in range(MONTHS_AHEAD + 1):
        month = today.month - 1 + ahead
        statements.append(month_partition(date(today.year + month // 12, month % 12 + 1, 1)))
    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)
    return statements


def upgrade(url: str) -> None:
    command.upgrade(alembic_config(url), "head")
    make_partitions(url)


def main() -> int:
    url = os.environ.get("DATABASE_URL")
    if not url:
        print("DATABASE_URL names no database to migrate", file=sys.stderr)
        return 1
    upgrade(url)
    print("Pöytä: the record's schema is up to date", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
