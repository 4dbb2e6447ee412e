"""`make run`: Redis (`REDIS_URL`, else embedded), PostgreSQL (`DATABASE_URL`, else embedded, with
its data in data/postgres/), the workers and gunicorn, kept running.

A small supervisor loop, not honcho or supervisord: honcho (like foreman) is
built to stop every process when one exits, the opposite of what is needed
here, and supervisord is one more daemon with its own configuration file and
socket. The loop restarts any child that exits, waiting longer after each quick
exit (0.5 s doubling to 30 s), and kills whatever the dead child left in its
process group (SIGTERM first, so an orphaned RQ scheduler releases its lock,
then SIGKILL after a few seconds).

Each child is in its own process group (so what it forks can be stopped with it) and is told by
the kernel to stop (SIGTERM, `PR_SET_PDEATHSIG`) when the supervisor dies, even by SIGKILL: no
worker or web server outlives it, still serving on the port.

Children: the workers of `worker.layout.WORKERS` (a bot worker for quick moves alone, one for
bots that think long, which takes quick moves while no long one waits, so a hard bot's thinking
never holds up an easy or medium reply, and the notice worker, so a slow webhook never delays a
bot move) and gunicorn. HOST and PORT choose the address: 127.0.0.1:8000 by default (this
machine only); HOST=0.0.0.0 serves every interface. It prints http://localhost:PORT/, where
passkeys work (a browser refuses them at an IP address), and POYTA_PUBLIC_URL defaults to it.
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from api.devtools import embedded_postgres
from api.devtools.embedded_redis import answers, resolve
from worker.layout import WORKERS

ROOT = Path(__file__).resolve().parents[2]
FIRST_DELAY = 0.5          # seconds before restarting a child that exited
MAX_DELAY = 30.0
STABLE_AFTER = 30.0        # a child that ran this long starts again at FIRST_DELAY
STOP_GRACE = 10.0          # seconds a child may take to stop before SIGKILL
LEFTOVER_GRACE = 3.0       # seconds what a dead child left behind may take to stop
_PR_SET_PDEATHSIG = 1


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen | None = None
    started: float = 0.0
    quick_exits: int = 0
    start_at: float = 0.0
    env: dict = field(default_factory=dict)
    leftovers: int | None = None     # the process group of a child that exited

    def may_start(self) -> bool:
        """Time to start again, once what the previous one left has stopped (or been killed)."""
        if time.monotonic() < self.start_at:
            return False
        if self.leftovers is not None:
            if _group_alive(self.leftovers) and time.monotonic() < self.start_at + LEFTOVER_GRACE:
                return False
            _signal_group(self.leftovers, signal.SIGKILL)
            self.leftovers = None
        return True

    def start(self) -> None:
        # Its own process group: whatever it forks can be cleaned up with it.
        self.process = subprocess.Popen(self.argv, env=self.env, cwd=ROOT, start_new_session=True,
                                        preexec_fn=_stop_with(os.getpid()))
        self.started = time.monotonic()

    def exited(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def schedule_restart(self) -> float:
        """After the child exited: ask what it left to stop, and choose when to start again."""
        _signal_group(self.process.pid, signal.SIGTERM)
        ran = time.monotonic() - self.started
        self.quick_exits = 0 if ran >= STABLE_AFTER else self.quick_exits + 1
        delay = min(MAX_DELAY, FIRST_DELAY * 2 ** max(self.quick_exits - 1, 0))
        self.leftovers, self.process = self.process.pid, None
        self.start_at = time.monotonic() + delay
        return delay

    def terminate(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _signal_group(self.process.pid, signal.SIGTERM)

    def reap(self, deadline: float) -> None:
        """Wait for the child until `deadline`, then kill what is left of its group."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(deadline - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            pass
        _signal_group(self.process.pid, signal.SIGKILL)
        self.process.wait()


def _stop_with(supervisor: int):
    """In the child before it runs: SIGTERM when the supervisor dies; at once if it died
    already."""
    def arm() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != supervisor:
            os.kill(os.getpid(), signal.SIGTERM)
    return arm


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def _signal_group(group: int, signum: int) -> None:
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        pass


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def supervise(children: list[Child], stopping: threading.Event) -> None:
    while not stopping.is_set():
        for child in children:
            if child.process is None:
                if child.may_start():
                    child.start()
            elif (code := child.exited()) is not None:
                delay = child.schedule_restart()
                print(f"Pöytä: {child.name} exited with code {code}; "
                      f"restarting it in {delay:.1f} s", flush=True)
        stopping.wait(0.2)


# Browsers make passkeys only for a host name, never an IP address: this machine is localhost.
LOCAL_HOSTS = ("127.0.0.1", "0.0.0.0", "::", "::1", "localhost")


def browser_address(host: str, port: str) -> str:
    """Where a browser on this machine opens the app, passkeys working: http://localhost:PORT/."""
    return f"http://{'localhost' if host in LOCAL_HOSTS else host}:{port}/"


def main() -> int:
    given = os.environ.get("REDIS_URL")
    if given and not answers(given):
        print(f"Pöytä: REDIS_URL={given} does not answer. Start that Redis, correct the URL, "
              "or unset REDIS_URL to use an embedded one.", file=sys.stderr, flush=True)
        return 1
    url, embedded = resolve(ROOT / "data" / "redis")
    database_url, embedded_database = embedded_postgres.resolve(ROOT / "data" / "postgres")
    host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
    address = browser_address(host, port)
    # The RQ workers and gunicorn's workers share one metrics folder: /metrics sums them all.
    # Links in notices and the passkeys' relying party follow the printed address unless set.
    env = {"POYTA_PUBLIC_URL": address.rstrip("/"), **os.environ, "REDIS_URL": url,
           "DATABASE_URL": database_url, "HOST": host, "PORT": port,
           "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="poyta-metrics-")}
    python, gunicorn = sys.executable, str(Path(sys.executable).parent / "gunicorn")
    subprocess.run([python, "-m", "api.storage.migrate"], env=env, cwd=ROOT, check=True)
    children = [
        *(Child(f"{worker.name} worker ({' '.join(worker.queues)})", worker.argv(python), env=env)
          for worker in WORKERS),
        Child("web server", [gunicorn, "-c", "gunicorn.conf.py", "api.http:create_app()"],
              env=env),
    ]
    everywhere = host in ("0.0.0.0", "::")
    print(f"Pöytä: Redis at {url}{' (embedded)' if embedded else ''}; PostgreSQL at "
          f"{_without_password(database_url)}{' (embedded)' if embedded_database else ''}; "
          f"open {env['POYTA_PUBLIC_URL']}/ (listening on "
          f"{'every interface' if everywhere else host + ' only; HOST=0.0.0.0 for every interface'})",
          flush=True)

    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        supervise(children, stopping)
    finally:
        for child in children:
            if child.leftovers is not None:
                _signal_group(child.leftovers, signal.SIGKILL)
            child.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for child in children:
            child.reap(deadline)
        if embedded:
            embedded.stop()
        if embedded_database:
            embedded_database.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
