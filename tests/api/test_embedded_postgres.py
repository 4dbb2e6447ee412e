"""The embedded PostgreSQL that `make run` starts when DATABASE_URL names none: on a free port,
never 5432; its data kept across restarts; a server left running over its folder used again."""
import shutil
import tempfile
from pathlib import Path

import psycopg

from api.devtools.embedded_postgres import EmbeddedPostgres, resolve


def test_an_embedded_server_starts_on_a_free_port_and_keeps_its_data(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    folder = Path(tempfile.mkdtemp(prefix="poyta-postgres-"))
    try:
        url, server = resolve(folder)
        assert server is not None and server.port != 5432 and f":{server.port}/" in url
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute("CREATE TABLE kept (word text)")
            connection.execute("INSERT INTO kept VALUES ('yes')")
        again = EmbeddedPostgres(folder).start()  # a second start finds it running
        assert again.port == server.port
        server.stop()
        restarted = EmbeddedPostgres(folder).start()
        try:
            with psycopg.connect(restarted.url) as connection:
                assert connection.execute("SELECT word FROM kept").fetchall() == [("yes",)]
        finally:
            restarted.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_database_url_wins_and_nothing_is_started(monkeypatch, database_url):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert resolve(Path("/nonexistent")) == (database_url, None)
