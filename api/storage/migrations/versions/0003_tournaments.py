"""Finished tournaments: one row each, written once when a tournament finishes.

`document` is the tournament as Redis held it (entrants, every round with its tables, their
games' ids, seeds and results, and each entrant's record, from which the standings are
ranked), as its JSON text, so it reads back byte for byte the same. Its games are the archive's
own rows (`finished_games`), by the ids the document names. `entrants` and `game_ids` are
copied out of it for the queries an operator or the API makes: a player's tournaments, the
tournament a game was played in.

Revision ID: 0003
Revises: 0002
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE finished_tournaments (
            tournament_id text PRIMARY KEY,
            finished_at timestamptz NOT NULL,
            name text NOT NULL,
            game_type text NOT NULL,
            public boolean NOT NULL,
            version integer NOT NULL,
            entrants text[] NOT NULL,
            game_ids text[] NOT NULL,
            document json NOT NULL,
            archived_at timestamptz NOT NULL DEFAULT now()
        )""")
    op.execute("CREATE INDEX finished_tournaments_entrants ON finished_tournaments "
               "USING gin (entrants)")
    op.execute("CREATE INDEX finished_tournaments_games ON finished_tournaments "
               "USING gin (game_ids)")
    op.execute("CREATE INDEX finished_tournaments_newest ON finished_tournaments "
               "(finished_at DESC) WHERE public")


def downgrade() -> None:
    op.execute("DROP TABLE finished_tournaments")
