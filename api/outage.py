"""While Redis is away, answer quickly (503 from `api.health`) and come back by itself.

Commands give up after a short socket timeout and one quick retry, so a request
that meets a dead or hung Redis answers 503 with Retry-After in well under 2 s
instead of a 500 after 5-10 s. Connections are made afresh from the pool once
Redis is back; nothing needs a restart. The change feed's subscription waits
for messages as long as it must, so it gets no socket timeout, only keepalive.
"""
from __future__ import annotations

from redis.backoff import ConstantBackoff
from redis.retry import Retry

CONNECT_TIMEOUT = 0.5   # seconds to open a connection
COMMAND_TIMEOUT = 0.6   # seconds for an answer: every command the API sends is short

COMMAND_OPTIONS = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": COMMAND_TIMEOUT,
                   "retry": Retry(ConstantBackoff(0.05), 1)}
SUBSCRIBER_OPTIONS = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": None,
                      "socket_keepalive": True}
