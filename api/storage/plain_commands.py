"""One command on a pooled connection, without redis-py's per-command layers.

The requests phones send most (a poll, a view, a move) each send one to three commands, and
redis-py's own path for each cost more CPU than the rest of a 304 poll: every argument encoded
through several type checks, the call wrapped for retries and for its observability records, the
reply passed by its response callbacks (a cProfile of `python -m bench.request_cpu`'s poll:
three quarters of it). `PlainCommands` sends the same bytes over connections of the client's
own pool (so its bound holds; a few are kept between commands, and a kept one the server dropped
is found by the retry instead of the pool's check), retries as the client's `Retry` does (a
dropped connection is closed and the command sent once more on a fresh one), raises the errors
redis-py raises, and returns the reply as redis-py would for the commands it is used for,
which have no response callback (HMGET, EVALSHA). A cluster client goes its own way, which
routes each command by its key.
"""
from __future__ import annotations

import os

import hiredis
from redis import Redis
from redis.commands.core import Script
from redis.exceptions import DataError, NoScriptError

Arg = str | bytes | int | float


def packed(*args: Arg) -> bytes:
    """The command in the Redis protocol, as redis-py packs it with hiredis (numbers by `repr`)."""
    try:
        return hiredis.pack_command(args)
    except TypeError as error:  # what redis-py's encoder refuses too (None, a bool...)
        raise DataError(str(error)) from error


class PlainCommands:
    def __init__(self, client: Redis):
        self.client = client
        # A cluster routes by key; a single-connection client keeps its one connection.
        self.pool = (client.connection_pool if isinstance(client, Redis)
                     and client.connection is None else None)
        # Connections kept between commands, out of the pool: its own hand-out and return (a
        # queue, its check of the socket, its observability records) cost a poll as much as
        # the rest of its command. An eighth of the pool at most (8 of the API's 64), so a
        # burst beyond the pool's size still finds connections coming back to it.
        self.most_kept = self.pool.max_connections // 8 if self.pool else 0
        self.kept: list = []
        self.pid = os.getpid()

    def call(self, *args: Arg):
        """The command's reply (bytes, not decoded), as `client.execute_command` gives it for a
        command without a response callback."""
        if self.pool is None:
            return self.client.execute_command(*args)
        command = [packed(*args)]
        connection = self._take()
        try:
            return connection.retry.call_with_retry(
                lambda: self._send(connection, command), lambda _: connection.disconnect())
        finally:
            self._give(connection)

    def _take(self):
        if self.pid != os.getpid():  # a forked child: what it inherited is its parent's
            self.kept, self.pid = [], os.getpid()
        while self.kept:
            connection = self.kept.pop()
            # The pool makes another kind of connection now: this one goes back.
            if type(connection) is self.pool.connection_class:
                return connection
            self.pool.release(connection)
        return self.pool.get_connection()

    def _give(self, connection) -> None:
        """Kept for the next command; a dropped one connects again when it is next used."""
        if len(self.kept) < self.most_kept:
            self.kept.append(connection)
        else:
            self.pool.release(connection)

    @staticmethod
    def _send(connection, command: list[bytes]):
        connection.send_packed_command(command)
        return connection.read_response()

    def hmget(self, key: str, *fields: str) -> list[bytes | None]:
        return self.call("HMGET", key, *fields)

    def script(self, script: Script, keys: list[str], args: list[Arg]):
        """A registered script's reply, loaded first when the server does not know it (as
        `Script.__call__` does)."""
        try:
            return self.call("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            script.sha = self.client.script_load(script.script)
            return self.call("EVALSHA", script.sha, len(keys), *keys, *args)
