"""While Redis is away: answer 503 quickly, and come back by itself when Redis does.

Commands give up after a short socket timeout and one quick retry, so a request
hitting a dead or hung Redis answers 503 with Retry-After in well under 2 s
instead of a 500 after 5-10 s. Every connection is made afresh from the pool
once Redis is back; nothing needs a restart.
"""
from __future__ import annotations

import logging

from flask import Flask, Response
from redis import BlockingConnectionPool, Redis
from redis.backoff import ConstantBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from api.errors import error_response

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 0.5   # seconds to open a connection
COMMAND_TIMEOUT = 0.6   # seconds for an answer: every command the API sends is short
RETRY_AFTER = 5         # seconds a client should wait after a 503
MAX_CONNECTIONS = 64


def redis_client(url: str) -> Redis:
    """The API's client: short timeouts; many long-polls queue for a connection rather than fail."""
    return Redis(connection_pool=BlockingConnectionPool.from_url(
        url, max_connections=MAX_CONNECTIONS, timeout=20,
        socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=COMMAND_TIMEOUT,
        retry=Retry(ConstantBackoff(0.05), 1), health_check_interval=30))


def subscriber_client(url: str) -> Redis:
    """For the change feed's subscription, which waits for messages as long as it must."""
    return Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT, socket_keepalive=True)


def init_app(app: Flask) -> None:
    app.register_error_handler(RedisError, redis_unavailable)


def redis_unavailable(error: RedisError) -> Response:
    log.warning("Redis unavailable: %s", error)
    return error_response(503, "the game store is unavailable for a moment; try again",
                          {"Retry-After": str(RETRY_AFTER)})
