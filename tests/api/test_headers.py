"""Security headers everywhere; errors in the JSON shape, including those gunicorn answers itself."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from api.devtools.embedded_cluster import free_port
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", ["/", "/app.js", "/api/docs/", "/api/v1/games/types",
                                  "/api/v1/nothing"])
def test_every_answer_has_the_security_headers(client, path):
    headers = client.get(path).headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "unsafe-eval" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_the_docs_page_has_no_inline_script(client):
    page = client.get("/api/docs/").get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
    for attrs, _ in scripts:
        src = re.search(r'src="([^"]+)"', attrs).group(1)
        assert client.get(src).status_code == 200, src
    assert b"SwaggerUIBundle" in client.get("/api/docs/start.js").data


@pytest.fixture
def gunicorn(redis_url):
    """Two real gunicorn servers with the project's settings, on two ports."""
    runtime = tempfile.mkdtemp()
    servers = []
    for _ in range(2):
        port = free_port()
        env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "WEB_CONCURRENCY": "1",
               "XDG_RUNTIME_DIR": runtime}
        env.pop("HOST", None)
        servers.append((port, subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
             "api.http:create_app()"], env=env, cwd=ROOT, stderr=subprocess.DEVNULL)))
    try:
        for port, _ in servers:  # ready once a worker has loaded the app and answers
            wait_until(lambda: answers(port), f"gunicorn answering on {port}", 30, every=0.2)
        yield runtime, [port for port, _ in servers]
    finally:
        for _, process in servers:
            process.send_signal(signal.SIGINT)  # gunicorn's quick shutdown
            process.wait(timeout=10)


def answers(port: int) -> bool:
    try:
        raw_request(port, b"GET /api/v1/games/types HTTP/1.1\r\nHost: x\r\n\r\n")
        return True
    except OSError:
        return False


def raw_request(port: int, request: bytes) -> tuple[str, dict, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += connection.recv(65536)
        head, _, body = answer.partition(b"\r\n\r\n")
        status, *lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines)}
        while len(body) < int(headers["content-length"]):
            body += connection.recv(65536)
    return status, headers, body


def test_gunicorn_answers_its_own_errors_in_json_and_binds_loopback(gunicorn):
    runtime, (port, other_port) = gunicorn
    status, headers, body = raw_request(
        port, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status.startswith("HTTP/1.1 414")
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["code"] == 414 and json.loads(body)["message"]
    assert headers["x-content-type-options"] == "nosniff"

    status, headers, body = raw_request(
        port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert status.startswith("HTTP/1.1 431") and json.loads(body)["code"] == 431

    # Two servers on one machine: each has its own control socket.
    sockets = sorted(os.listdir(runtime))
    assert sockets == sorted(f"poyta-gunicorn-127.0.0.1-{p}.ctl" for p in (port, other_port))
    # Loopback by default: the port is not open on any other address of this machine.
    other_addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                                  socket.AF_INET)}
    for address in other_addresses - {"127.0.0.1", "127.0.1.1"}:
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=0.5).close()


def test_gunicorn_formats_every_line_it_logs_through_a_malformed_request_and_a_shutdown(
        redis_url, tmp_path):
    """The app's logging leaves out the process id of a record; gunicorn's own lines (a worker
    that exits, a request it cannot parse) still print one, never a logging error."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "WEB_CONCURRENCY": "1",
           "XDG_RUNTIME_DIR": str(tmp_path)}
    env.pop("HOST", None)
    log_path = tmp_path / "gunicorn.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
             "--log-level", "debug", "api.http:create_app()"],
            env=env, cwd=ROOT, stderr=log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                raw_request(port, b"GET /api/v1/games/types HTTP/1.1\r\nHost: x\r\n\r\n")
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        for malformed in (b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
                          b"NOT A REQUEST LINE\r\n\r\n",
                          b"GET / HTTP/1.1\r\nHost: x\r\nX-Bad\x00: y\r\n\r\n"):
            status, _, _ = raw_request(port, malformed)
            assert status.startswith("HTTP/1.1 400")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    logged = log_path.read_text()
    assert "Worker exiting" in logged and "Invalid request" in logged
    assert "Logging error" not in logged and "Traceback" not in logged
    assert re.search(r"\[\d+\] \[INFO\] Worker exiting", logged)
