"""Where a command's CPU goes among the processes it starts: run it, sample every descendant's
CPU times five times a second, and print the total by kind of process (Chromium, workers, the
test processes, Valkey, PostgreSQL...).

    python -m bench.suite_cpu -- .venv/bin/python -m pytest -q -n 1 tests/e2e/test_pwa_table.py

Made for the test suite's own costs (`bench/RESULTS.md`): a process's last fifth of a second
and daemons that leave the tree (the embedded PostgreSQL's server) are not counted, so compare
two runs of the same command rather than reading the totals as exact.
"""
from __future__ import annotations

import argparse
import collections
import subprocess
import time

import psutil

SAMPLE_SECONDS = 0.2


def kind(argv: list[str]) -> str:
    text = " ".join(argv)
    if "chrom" in text:
        return "chromium"
    if "worker.run" in text or "multiprocessing" in text or "rq worker" in text:
        return "workers (worker.run, forked or started)"
    name = argv[0].rsplit("/", 1)[-1] if argv else "?"
    return f"{name} {argv[1] if len(argv) > 1 else ''}".strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = psutil.Process(process.pid)
    cpu: dict[tuple, float] = {}
    kinds: dict[tuple, str] = {}
    while process.poll() is None:
        try:
            children = root.children(recursive=True)
        except psutil.Error:
            children = []
        for child in children:
            try:
                key = (child.pid, child.create_time())
                times = child.cpu_times()
                cpu[key] = times.user + times.system
                kinds.setdefault(key, kind(child.cmdline()))
            except psutil.Error:
                continue
        time.sleep(SAMPLE_SECONDS)
    totals, counts = collections.Counter(), collections.Counter()
    for key, seconds in cpu.items():
        totals[kinds[key]] += seconds
        counts[kinds[key]] += 1
    print(f"{time.monotonic() - started:.1f} s wall, {sum(cpu.values()):.1f} CPU s in "
          f"{len(cpu)} processes, exit {process.returncode}")
    for name, seconds in totals.most_common():
        print(f"  {seconds:8.1f} CPU s  {counts[name]:5d}  {name}")


if __name__ == "__main__":
    main()
