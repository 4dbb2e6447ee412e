"""The process's look at whether the clients of waiting requests went away: it wakes the one
whose peer closed, not one that is connected (bytes waiting are not a close), on any descriptor a
busy process hands out."""
import os
import resource
import socket
import threading

import pytest
from flask import Flask

from api.http.disconnects import Departures

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


def test_the_process_look_wakes_a_stream_whose_client_closed_and_no_other(high_pair):
    server, client = high_pair
    stays, stays_client = socket.socketpair()
    left, kept = threading.Event(), threading.Event()
    app = Flask(__name__)
    departures = Departures(every=0.05)
    with app.test_request_context(environ_base={"gunicorn.socket": server}), \
            departures.watching(left) as gone, \
            app.test_request_context(environ_base={"gunicorn.socket": stays}), \
            departures.watching(kept) as stayed:
        stays_client.send(b"x")  # bytes waiting are not a close
        assert not left.wait(0.3) and not gone()
        client.close()
        assert left.wait(5) and gone()
        assert not kept.is_set() and not stayed()
    stays.close()
    stays_client.close()
