"""Production workers (`python -m worker.run QUEUE...`) for tests that serve the app, forked
from a server that imported the worker once per test process.

A fresh `python -m worker.run` spends most of a second of CPU importing the app before it takes
a job, and the browser and HTTP tests start one each, hundreds in all. Python's own forkserver
(`multiprocessing`) imports `worker.run` once, before any test's environment exists, and forks
each worker from that: the same code and `main` as the command, started with the test's
environment. Tests that assert what the command itself does (its argv, its log, its exit at a
fault point, read at import) start the command.
"""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

from api import faults

FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload(["worker.run"])


def _run(argv: list[str], env: dict[str, str], cwd: str, log: str) -> None:
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    with open(log, "ab", buffering=0) as output:
        os.dup2(output.fileno(), 1)
        os.dup2(output.fileno(), 2)
    from worker import run
    sys.exit(run.main(argv))


class ForkedWorker:
    """`subprocess.Popen`'s calls a test makes of a worker, for a forked one; its output is
    in `log`."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path):
        if faults.FAULTS in env:
            raise ValueError("fault points are read at import: start the command instead")
        self.args, self.log = argv, log
        self.process = FORKS.Process(target=_run, args=(argv, env, str(cwd), str(log)),
                                     name="worker.run")
        self.process.start()
        self.pid = self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        if self.process.exitcode is None:
            raise subprocess.TimeoutExpired(["worker.run", *self.args], timeout)
        return self.process.exitcode

    def terminate(self) -> None:
        self.process.terminate()

    def kill(self) -> None:
        self.process.kill()
