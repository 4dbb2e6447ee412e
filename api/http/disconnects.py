"""Whether the client of the current request has gone away.

A long-poll the client dropped (a phone that left the page, a tab the PWA cut short to ask
again) would otherwise hold its slot until its wait ran out. Both servers that run the app,
gunicorn and werkzeug's, put the request's socket in the WSGI environment: a socket that is
readable and yields no bytes was closed by the peer.
"""
from __future__ import annotations

import select
import socket

from flask import request

SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")


def client_gone() -> bool:
    connection = next((request.environ[key] for key in SOCKET_KEYS if key in request.environ),
                      None)
    if connection is None:
        return False
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True
