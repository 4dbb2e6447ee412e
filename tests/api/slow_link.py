"""A real TCP link to Redis that can hold one answer back: the fault a Redis pause (or a lost
packet) makes when it falls between a command's arrival and its reply.

The command reaches Redis and runs; its answer waits longer than the client's socket timeout, so
the client gives up, reconnects and sends the command again on a new connection, which the link
passes at once.
"""
from __future__ import annotations

import socket
import threading
import time


class SlowLink:
    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._armed: tuple[bytes, float] | None = None
        self._lock = threading.Lock()
        self.held = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def hold_next_answer_to(self, marker: bytes, seconds: float) -> None:
        """The next command containing `marker` runs at once; its answer is held `seconds`."""
        with self._lock:
            self._armed = (marker, seconds)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            hold = {"until": 0.0}
            threading.Thread(target=self._pump_commands, args=(client, server, hold),
                             daemon=True).start()
            threading.Thread(target=self._pump_answers, args=(server, client, hold),
                             daemon=True).start()

    def _pump_commands(self, source, sink, hold) -> None:
        while chunk := self._receive(source):
            with self._lock:
                if self._armed and self._armed[0] in chunk:
                    hold["until"] = time.monotonic() + self._armed[1]
                    self._armed = None
                    self.held += 1
            try:
                sink.sendall(chunk)
            except OSError:
                break
        self._close(source, sink)

    def _pump_answers(self, source, sink, hold) -> None:
        while chunk := self._receive(source):
            time.sleep(max(0.0, hold["until"] - time.monotonic()))
            try:
                sink.sendall(chunk)
            except OSError:
                break
        self._close(source, sink)

    @staticmethod
    def _receive(sock) -> bytes:
        try:
            return sock.recv(65536)
        except OSError:
            return b""

    @staticmethod
    def _close(*sockets) -> None:
        for sock in sockets:
            try:
                sock.close()
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
