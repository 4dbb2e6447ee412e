"""Redis forgetting everything it may: what is not live (players' keys, friend codes, passkey
claims, leaderboards read from PostgreSQL, finished games already archived), as
POYTA_RETENTION_DAYS and POYTA_HOT_DAYS would let it go."""
from __future__ import annotations

from redis_servers import store_keys


NOT_LIVE = ("player:*", "friend:*", "passkey-credential:*", "leaderboard:*")


def forget_what_is_not_live(store, tables) -> list[str]:
    """Deletes those keys; the archived games whose keys went with them."""
    doomed = [key for pattern in NOT_LIVE for key in store_keys(store, pattern)]
    archived = []
    for key in store_keys(store, "game:*"):
        name = key.decode()
        if name.count(":") == 1:  # a game's hash: game:{<id>}
            game_id = name[len("game:{"):-1]
            if tables.storage.finished.find(game_id) is not None:
                archived.append(game_id)
    for game_id in archived:
        doomed += [key for key in store_keys(store, f"game:{{{game_id}}}*")]
    for key in doomed:
        store.delete(key)
    return archived
