"""What a player owns, kept for good: the player, their devices' token hashes, passkeys,
friends and blocks, standings per game type, every rating change and every finished game of
theirs (the entries their profile lists).

Redis caches all of it in the player's hash slot (`api.storage.player_record`); these tables
are what a cache miss reads back. Bot levels (`bot-<level>`) have standings, rating changes and
games but no `players` row.

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE players (
            player_id text PRIMARY KEY,
            name text NOT NULL,
            bot boolean NOT NULL DEFAULT false,
            clock text,
            friend_code text,
            created_at timestamptz,
            last_active timestamptz
        )""")
    op.execute("CREATE UNIQUE INDEX players_friend_code ON players (friend_code)")
    op.execute("""
        CREATE TABLE player_devices (
            player_id text NOT NULL,
            device_id text NOT NULL,
            token_hash text NOT NULL,
            label text NOT NULL,
            created_at timestamptz NOT NULL,
            PRIMARY KEY (player_id, device_id)
        )""")
    op.execute("""
        CREATE TABLE passkeys (
            credential_id text PRIMARY KEY,
            player_id text NOT NULL,
            entry json NOT NULL
        )""")
    op.execute("CREATE INDEX passkeys_player ON passkeys (player_id)")
    op.execute("""
        CREATE TABLE friends (
            player_id text NOT NULL,
            friend_id text NOT NULL,
            PRIMARY KEY (player_id, friend_id)
        )""")
    op.execute("""
        CREATE TABLE blocks (
            player_id text NOT NULL,
            blocked_id text NOT NULL,
            PRIMARY KEY (player_id, blocked_id)
        )""")
    op.execute("""
        CREATE TABLE standings (
            player_id text NOT NULL,
            game_type text NOT NULL,
            standing json NOT NULL,
            mu double precision NOT NULL,
            sigma double precision NOT NULL,
            ordinal double precision NOT NULL,
            rated integer NOT NULL,
            finished integer NOT NULL,
            last_rated timestamptz,
            PRIMARY KEY (player_id, game_type)
        )""")
    op.execute("CREATE INDEX standings_board ON standings (game_type, ordinal DESC)")
    op.execute("""
        CREATE TABLE rating_changes (
            player_id text NOT NULL,
            game_type text NOT NULL,
            game_id text NOT NULL,
            at timestamptz NOT NULL,
            entry json NOT NULL,
            PRIMARY KEY (player_id, game_type, game_id)
        )""")
    op.execute("CREATE INDEX rating_changes_newest ON rating_changes (player_id, game_type, at)")
    op.execute("""
        CREATE TABLE player_games (
            player_id text NOT NULL,
            game_id text NOT NULL,
            at timestamptz NOT NULL,
            entry json NOT NULL,
            PRIMARY KEY (player_id, game_id)
        )""")
    op.execute("CREATE INDEX player_games_newest ON player_games (player_id, at)")


def downgrade() -> None:
    for table in ("player_games", "rating_changes", "standings", "blocks", "friends",
                  "passkeys", "player_devices", "players"):
        op.execute(f"DROP TABLE {table}")
