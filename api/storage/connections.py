"""Where the game store and the job queue live, and the clients that reach them.

`REDIS_URL` names the game store; `REDIS_CLUSTER=1` says it is a Redis (or Valkey)
Cluster, reached with redis-py's `RedisCluster`. RQ does not support Redis Cluster
(rq/rq issue #1942), so the queue stays on a standalone Redis: `RQ_REDIS_URL`,
which defaults to `REDIS_URL` when that is not a cluster.
"""
from __future__ import annotations

import os
import random
from collections.abc import Mapping

from redis import BlockingConnectionPool, Redis
from redis.backoff import ConstantBackoff
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError
from redis.retry import Retry

DEFAULT_URL = "redis://127.0.0.1:6379/0"
# Many long-polls may read at once: they queue for a connection rather than fail.
POOL_SIZE = 64
POOL_WAIT_SECONDS = 20
# What a store or queue that does not answer raises (a cluster client's own errors are not
# RedisErrors).
STORE_ERRORS = (RedisError, RedisClusterException)
UNAVAILABLE = (*STORE_ERRORS, OSError)

# While Redis is away, answer quickly (503 from `api.http.health`) and come back by itself:
# commands give up after a short socket timeout and one quick retry, so a request that meets a
# dead or hung Redis answers 503 with Retry-After in well under 2 s instead of a 500 after
# 5-10 s. Connections are made afresh from the pool once Redis is back; nothing needs a
# restart. The change feed's subscription waits for messages as long as it must, so it gets no
# socket timeout, only keepalive.
CONNECT_TIMEOUT = 0.5   # seconds to open a connection
COMMAND_TIMEOUT = 0.6   # seconds for an answer: every command the API sends is short
COMMAND_OPTIONS = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": COMMAND_TIMEOUT,
                   "retry": Retry(ConstantBackoff(0.05), 1)}
SUBSCRIBER_OPTIONS = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": None,
                      "socket_keepalive": True}


Client = Redis | RedisCluster  # what the domain is given, without importing redis itself


class ConfigurationError(ValueError):
    pass


def settings(environ: Mapping[str, str] = os.environ) -> dict:
    """REDIS_URL, REDIS_CLUSTER and RQ_REDIS_URL from the environment, defaults filled in."""
    url = environ.get("REDIS_URL") or DEFAULT_URL
    cluster = environ.get("REDIS_CLUSTER", "").strip().lower() in ("1", "true", "yes")
    return {"REDIS_URL": url, "REDIS_CLUSTER": cluster,
            "RQ_REDIS_URL": environ.get("RQ_REDIS_URL") or None}


def queue_url(config: Mapping) -> str:
    """The standalone Redis that holds the job queue."""
    if config.get("RQ_REDIS_URL"):
        return config["RQ_REDIS_URL"]
    if config.get("REDIS_CLUSTER"):
        raise ConfigurationError("REDIS_CLUSTER=1 needs RQ_REDIS_URL: RQ runs on a standalone "
                                 "Redis, not on a cluster")
    return config["REDIS_URL"]


def store_client(config: Mapping, **options) -> Redis | RedisCluster:
    """A client of the game store: a `RedisCluster` when REDIS_CLUSTER is set."""
    options = {"max_connections": POOL_SIZE, "timeout": POOL_WAIT_SECONDS, **options}
    if config.get("REDIS_CLUSTER"):
        return RedisCluster.from_url(config["REDIS_URL"],
                                     connection_pool_class=BlockingConnectionPool, **options)
    return Redis(connection_pool=BlockingConnectionPool.from_url(config["REDIS_URL"], **options))


def queue_client(config: Mapping, **options) -> Redis:
    return Redis(connection_pool=BlockingConnectionPool.from_url(
        queue_url(config), **{"max_connections": POOL_SIZE, "timeout": POOL_WAIT_SECONDS,
                              **options}))


def worker_queue_client(config: Mapping, socket_timeout: float) -> Redis:
    """The queue's client for an RQ worker, one connection at a time."""
    return Redis.from_url(queue_url(config), socket_connect_timeout=2,
                          socket_timeout=socket_timeout)


def pubsub(client: Redis | RedisCluster, **options):
    """A pub/sub connection; on a cluster, to a random primary. Classic messages reach every
    node, so any one will do, and after a node fails the next try picks another."""
    if isinstance(client, RedisCluster):
        return client.pubsub(node=random.choice(client.get_primaries()), **options)
    return client.pubsub(**options)


def url_of(client: Redis) -> str:
    """The address of a standalone client's server."""
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)}"


def ping_everywhere(client: Redis | RedisCluster) -> None:
    """Raises unless the server answers; of a cluster, every primary (one shard down: not
    ready)."""
    if isinstance(client, RedisCluster):
        client.ping(target_nodes=RedisCluster.PRIMARIES)
    else:
        client.ping()
