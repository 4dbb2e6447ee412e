"""`python -m api.backfill_directory`: every player PostgreSQL keeps listed in the player
directory (Redis), such as the players made before the directory existed or a Redis restored
without it. Run it once after upgrading, or after restoring PostgreSQL beside a fresh Redis; it is
safe to run again. DATABASE_URL names the record, REDIS_URL the game store.
"""
from __future__ import annotations

import sys

from api.settings import Settings
from api.storage import connections
from api.tables import Tables


def main() -> int:
    settings = Settings.from_env()
    if not settings.database_url:
        print("DATABASE_URL names no record to list players from", file=sys.stderr)
        return 1
    tables = Tables(connections.store_client(settings.connections), settings=settings)
    print(f"{tables.directory.backfill()} players listed in the directory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
