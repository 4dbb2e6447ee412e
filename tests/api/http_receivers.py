"""Local HTTP servers that answer as a test needs: quickly, with a redirect, or a byte at a time."""
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """A local HTTP server; `answer(handler)` decides what each POST gets."""

    def __init__(self, answer):
        self.requests: list[tuple[str, str, bytes]] = []
        self.posts: list[tuple[dict, bytes]] = []   # each POST's headers and body
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                receiver.requests.append(("POST", self.path, body))
                receiver.posts.append((dict(self.headers), body))
                answer(self)

            def do_GET(self):  # noqa: N802
                receiver.requests.append(("GET", self.path, b""))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def drip(handler: BaseHTTPRequestHandler, lines: int, every: float) -> None:
    """Answer a header line at a time, `every` seconds apart: a receiver that never finishes."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    for _ in range(lines):
        handler.wfile.write(b"X-Drip: 1\r\n")
        handler.wfile.flush()
        time.sleep(every)
