"""Finished games: the archive, partitioned by the month a game finished in.

`archived_games` holds each game id once (the primary key a partitioned table cannot have on the
id alone: its key must hold the partition key), so a game is archived exactly once whichever
month its row goes to. `finished_games` holds the game: what its Redis hash held (meta, seats
and state as their JSON text, so a record read back answers byte for byte the same), the
players and names of its seats, its results and its packed log (`api.storage.packed_logs`).
Monthly partitions are made by `api.storage.migrate`; the default partition takes a row no
month's partition was made for.

Revision ID: 0001
Revises:
"""
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE archived_games (
            game_id text PRIMARY KEY,
            finished_at timestamptz NOT NULL
        )""")
    op.execute("""
        CREATE TABLE finished_games (
            game_id text NOT NULL,
            finished_at timestamptz NOT NULL,
            game_type text NOT NULL,
            public boolean NOT NULL,
            rated boolean NOT NULL,
            version integer NOT NULL,
            seat_players text[] NOT NULL,
            seat_names text[] NOT NULL,
            meta json NOT NULL,
            seats json NOT NULL,
            state json NOT NULL,
            results json NOT NULL,
            renamed integer NOT NULL DEFAULT 0,
            table_names json,
            log bytea NOT NULL,
            archived_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game_id, finished_at)
        ) PARTITION BY RANGE (finished_at)""")
    op.execute("CREATE TABLE finished_games_default PARTITION OF finished_games DEFAULT")
    op.execute("CREATE INDEX finished_games_players ON finished_games USING gin (seat_players)")
    op.execute("CREATE INDEX finished_games_type_month ON finished_games (game_type, finished_at)")


def downgrade() -> None:
    op.execute("DROP TABLE finished_games")
    op.execute("DROP TABLE archived_games")
