"""A waiting request's look at whether its client went away: true once the peer closed, false
while it is connected, on any descriptor a busy process hands out."""
import os
import resource
import socket

import pytest
from flask import Flask

from api.http.disconnects import client_gone

HIGH = 2000  # past FD_SETSIZE (1,024): where a process holding thousands of streams has most


@pytest.fixture
def high_pair():
    """A connected pair whose server end is descriptor HIGH, as the 2,000th stream's would be."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft <= HIGH:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, HIGH * 2), hard))
    server, client = socket.socketpair()
    high = socket.socket(fileno=os.dup2(server.fileno(), HIGH))
    server.close()
    yield high, client
    high.close()
    client.close()


@pytest.mark.parametrize("key", ["gunicorn.socket", "werkzeug.socket"])
def test_a_client_on_a_high_descriptor_is_there_until_it_closes(high_pair, key):
    server, client = high_pair
    with Flask(__name__).test_request_context(environ_base={key: server}):
        assert not client_gone()
        client.send(b"x")  # bytes waiting are not a close
        assert not client_gone()
        client.close()
        assert server.recv(1) == b"x"
        assert client_gone()
