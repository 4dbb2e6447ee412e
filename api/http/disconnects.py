"""Whether the client of the current request has gone away.

A long-poll the client dropped (a phone that left the page, a tab the PWA cut short to ask
again) would otherwise hold its slot until its wait ran out. Both servers that run the app,
gunicorn and werkzeug's, put the request's socket in the WSGI environment: a socket that is
readable and yields no bytes was closed by the peer.

The look is the system's own `poll` with no wait. `select.select` refuses a descriptor past
1,023 (FD_SETSIZE), which a process holding thousands of streams hands out to most of them: the
look failed and took every such client for gone. Under gevent `select.poll` is gevent's, which
with no wait reports nothing, so the original is taken (the same one when nothing patched it).
"""
from __future__ import annotations

import select
import socket

from flask import request
from gevent.monkey import get_original

_poll = get_original("select", "poll")  # the system's, patched or not

SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")


def client_gone() -> bool:
    connection = next((request.environ[key] for key in SOCKET_KEYS if key in request.environ),
                      None)
    if connection is None:
        return False
    try:
        look = _poll()
        look.register(connection.fileno(), select.POLLIN)
        # Readable: bytes or the peer's close wait, so the peek does not block.
        return bool(look.poll(0)) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True
