"""What emptying the record's database costs each test: the way it was (a new connection, one
TRUNCATE of every table) against `api.storage.sql.empty_over` on a kept connection (only the
tables holding rows truncated), in the same run on the same server.

    python -m bench.emptying [--rounds 40] [--rows 0 1]

`--rows N`: before each emptying, N finished games' rows are put in one table, as a test that
archived something leaves them. PostgreSQL is DATABASE_URL or an embedded PostgreSQL 18; its
schema is migrated first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import psycopg

from api.devtools.embedded_postgres import EmbeddedPostgres
from api.storage import migrate, sql


def truncate_every_table(url: str) -> None:
    """The baseline: what `sql.empty` did before."""
    with psycopg.connect(url, autocommit=True) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> 'alembic_version'")]
        connection.execute("TRUNCATE " + ", ".join(f'"{name}"' for name in tables))


def leave_rows(connection: psycopg.Connection, rows: int) -> None:
    for number in range(rows):
        connection.execute("INSERT INTO deleted_players (player_id) VALUES (%s)",
                           (f"bench-{number}",))


def timed(empty, connection: psycopg.Connection, rounds: int, rows: int) -> list[float]:
    times = []
    for _ in range(rounds):
        leave_rows(connection, rows)
        start = time.perf_counter()
        empty()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--rows", type=int, nargs="+", default=[0, 1])
    args = parser.parse_args()
    server = None
    url = os.environ.get("DATABASE_URL")
    if not url:
        server = EmbeddedPostgres(Path(tempfile.mkdtemp(prefix="poyta-bench-pg-"))).start()
        url = server.url
    try:
        migrate.upgrade(url)
        kept = psycopg.connect(url, autocommit=True)
        print("rows left | before: new connection, TRUNCATE all (ms, median) | "
              "now: kept connection, rows only (ms, median) | ratio")
        for rows in args.rows:
            before = statistics.median(
                timed(lambda: truncate_every_table(url), kept, args.rounds, rows))
            now = statistics.median(timed(lambda: sql.empty_over(kept), kept, args.rounds, rows))
            print(f"{rows:9d} | {before:8.1f} | {now:8.1f} | {before / now:5.1f}x")
        kept.close()
    finally:
        if server is not None:
            server.stop("immediate")


if __name__ == "__main__":
    main()
