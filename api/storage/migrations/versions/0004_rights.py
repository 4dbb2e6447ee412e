"""Deleted accounts: the ids of players who deleted their account, so that nothing of theirs is
kept again (a game they resigned that finishes later rates their seat in Redis, but their
standing is never saved here again) and the directory's backfill skips them.

Revision ID: 0004
Revises: 0003
"""
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE deleted_players (
            player_id text PRIMARY KEY,
            deleted_at timestamptz NOT NULL DEFAULT now()
        )""")


def downgrade() -> None:
    op.execute("DROP TABLE deleted_players")
