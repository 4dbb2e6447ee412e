"""The record's PostgreSQL (`DATABASE_URL`): one psycopg connection pool per process and
database, and what counts as the database being away.

While PostgreSQL is away nothing waits long for it: a connection is opened within
`CONNECT_SECONDS` and one is waited for from the pool within `WAIT_SECONDS`, then the caller
gets a `DATABASE_ERRORS` error (the archive's job is retried, its sweeper finds what is left).
A connection is checked as it leaves the pool, so one broken by a restart is replaced, not used.
"""
from __future__ import annotations

import threading
import time

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

CONNECT_SECONDS = 1
WAIT_SECONDS = 2.0
POOL_SIZE = 8
DATABASE_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout)
AWAY_SECONDS = 5.0   # after a failure, what may wait for the database does not try it again

_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()
_away_until: dict[str, float] = {}


def note_away(url: str) -> None:
    """The database just failed: `away` says so for AWAY_SECONDS."""
    _away_until[url] = time.monotonic() + AWAY_SECONDS


def away(url: str) -> bool:
    """The database failed a moment ago: a write that can wait (a player's rows, owed in
    Redis) is left to the sweeper instead of holding up its request."""
    return _away_until.get(url, 0.0) > time.monotonic()


def pool_for(url: str) -> ConnectionPool:
    """The process's pool of `url`, opened on first use (a worker's jobs and every Tables of an
    API process share it)."""
    with _pools_lock:
        if url not in _pools:
            pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, timeout=WAIT_SECONDS,
                                  kwargs={"connect_timeout": CONNECT_SECONDS,
                                          "autocommit": True},
                                  check=ConnectionPool.check_connection, open=False,
                                  name="poyta-record")
            pool.open(wait=False)
            _pools[url] = pool
        return _pools[url]


def ping(url: str, seconds: float) -> None:
    """Raises one of DATABASE_ERRORS unless the database answers within `seconds`."""
    with psycopg.connect(url, connect_timeout=max(1, int(seconds))) as connection:
        connection.execute("SELECT 1")


def empty(url: str) -> None:
    """Every table of the schema emptied but the migrations' own (for tests and benches)."""
    with psycopg.connect(url, autocommit=True) as connection:
        empty_over(connection)


def empty_over(connection: psycopg.Connection) -> None:
    """`empty` on an open autocommit connection. Only the tables holding rows are truncated
    (with what refers to them): a TRUNCATE makes each table's files anew, which costs far more
    than asking first, and most tests leave most tables empty."""
    tables = [name for (name,) in connection.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
        "AND tablename <> 'alembic_version'")]
    if not tables:
        return
    holding = connection.execute(" UNION ALL ".join(
        f"(SELECT '{name}' FROM \"{name}\" LIMIT 1)" for name in tables)).fetchall()
    if holding:
        connection.execute("TRUNCATE " + ", ".join(f'"{name}"' for (name,) in holding)
                           + " CASCADE")
