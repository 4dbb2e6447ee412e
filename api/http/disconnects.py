"""Whether the client of a waiting request has gone away.

A long-poll or a stream the client dropped (a phone that left the page, a tab the PWA cut short
to ask again) would otherwise hold its slot until its wait ran out. Both servers that run the
app, gunicorn and werkzeug's, put the request's socket in the WSGI environment: a socket that is
readable and yields no bytes was closed by the peer.

The look is the system's own `poll` with no wait. `select.select` refuses a descriptor past
1,023 (FD_SETSIZE), which a process holding thousands of streams hands out to most of them: the
look failed and took every such client for gone. Under gevent `select.poll` is gevent's, which
with no wait reports nothing, so the original is taken (the same one when nothing patched it).
"""
from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import request
from gevent.monkey import get_original

_poll = get_original("select", "poll")  # the system's, patched or not

SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")
GONE_CHECK = 1.0  # seconds between looks at whether a waiting request's client went away


class Departures:
    """One look a second at every connection a waiting request holds, for the whole process: a
    single `poll` over all of them instead of each request waking every second to look at its
    own (at 10,000 streams, 10,000 wake-ups and system calls a second). A connection found
    closed has its request's event set; the request then sees `gone()` and ends."""

    def __init__(self, every: float = GONE_CHECK):
        self.every = every
        self._look = _poll()
        self._watched: dict[int, tuple[socket.socket, threading.Event, list[bool]]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watching(self, woken: threading.Event) -> Iterator[Callable[[], bool]]:
        """While the block runs, `woken` is set when the current request's client goes away;
        yields `gone()`. Outside a server (no socket), the client is never gone."""
        connection = next((request.environ[key] for key in SOCKET_KEYS
                           if key in request.environ), None)
        if connection is None:
            yield lambda: False
            return
        left = [False]
        try:
            fd = connection.fileno()
            with self._lock:
                self._look.register(fd, select.POLLIN)
                self._watched[fd] = (connection, woken, left)
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._watch, name="departures",
                                                    daemon=True)
                    self._thread.start()
        except (OSError, ValueError):
            left[0] = True  # closed already
            yield lambda: True
            return
        try:
            yield lambda: left[0]
        finally:
            with self._lock:
                if self._watched.pop(fd, None) is not None:
                    self._look.unregister(fd)

    def _watch(self) -> None:
        while True:
            time.sleep(self.every)
            with self._lock:
                ready = [(self._watched[fd], mask) for fd, mask in self._look.poll(0)
                         if fd in self._watched]
            for (connection, woken, left), mask in ready:
                if mask & select.POLLIN and not mask & (select.POLLHUP | select.POLLERR):
                    try:  # readable: bytes or the peer's close wait, so the peek does not block
                        if connection.recv(1, socket.MSG_PEEK) != b"":
                            continue
                    except (OSError, ValueError):
                        pass
                left[0] = True
                woken.set()


DEPARTURES = Departures()
