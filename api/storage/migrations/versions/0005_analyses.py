"""The reviews of finished games (`api.tables.analysis`), kept for good.

`game_analyses` holds each game's review once, as the API publishes it, with what decides who
may read it (whether the game was public, and its players). `analysed_seats` holds a seat's
summary of it, one row a seat, under the player it counts for (a registered player's id or a
bot level's), so a profile's accuracy over time is one indexed read.

Revision ID: 0005
Revises: 0004
"""
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE game_analyses (
            game_id text PRIMARY KEY,
            game_type text NOT NULL,
            finished_at timestamptz NOT NULL,
            public boolean NOT NULL,
            seat_players text[] NOT NULL,
            review json NOT NULL,
            analysed_at timestamptz NOT NULL DEFAULT now()
        )""")
    op.execute("""
        CREATE TABLE analysed_seats (
            game_id text NOT NULL REFERENCES game_analyses ON DELETE CASCADE,
            seat integer NOT NULL,
            player_id text NOT NULL,
            game_type text NOT NULL,
            finished_at timestamptz NOT NULL,
            decisions integer NOT NULL,
            total_loss double precision NOT NULL,
            deals integer NOT NULL,
            luck double precision NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""")
    op.execute("CREATE INDEX analysed_seats_player ON analysed_seats "
               "(player_id, game_type, finished_at)")


def downgrade() -> None:
    op.execute("DROP TABLE analysed_seats")
    op.execute("DROP TABLE game_analyses")
