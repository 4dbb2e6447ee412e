"""Jobs take ids, never objects, and are idempotent: a job with nothing left to do does nothing.

The settings (budgets of the search bots, the store's address) come from `api.settings`; without
REDIS_URL the store is the Redis the job came from.
"""
from __future__ import annotations

import os

from redis import Redis
from rq import get_current_job

from api.storage import connections
from api.settings import Settings
from api.tables.service import Service
from worker import notify

_services: dict[str, Service] = {}


def service_for(queue_redis: Redis) -> Service:
    """One Service per worker process (its connection pools and scripts are reused)."""
    settings = Settings.from_env()
    url = os.environ.get("REDIS_URL") or _url_of(queue_redis)
    if url not in _services:
        store = (connections.store_client(settings.connections) if os.environ.get("REDIS_URL")
                 else queue_redis)
        _services[url] = Service(store, queue_redis=queue_redis, settings=settings)
    return _services[url]


def _url_of(redis: Redis) -> str:
    kwargs = redis.connection_pool.connection_kwargs
    return f"redis://{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)}"


def _service() -> Service:
    return service_for(get_current_job().connection)


def play_bots(game_id: str) -> int:
    """Move every bot seat of the game that must act now; the moves made."""
    return _service().play_bots(game_id, get_current_job().origin)


def deadline_passed(game_id: str, seat: int, turn_since: int) -> bool:
    """Play for a human whose turn, begun at `turn_since`, ran out of time."""
    return _service().deadline_passed(game_id, seat, turn_since)


def notify_turn(game_id: str, seat: int, turn_since: int) -> int:
    """Tell a human, once, that the turn begun at `turn_since` is theirs."""
    return notify.notify_turn(_service(), game_id, seat, turn_since)
