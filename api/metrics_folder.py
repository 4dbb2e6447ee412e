"""The metrics folder of prometheus-client's multiprocess mode (`PROMETHEUS_MULTIPROC_DIR`),
kept to one file of each kind per process alive.

Every process writes its samples to files named by its pid, and a scrape reads every file in
the folder: the files of processes that died (gunicorn workers recycled or killed, RQ workers
restarted) piled up, and with them the scrape's cost (hundreds of milliseconds after a day of
restarts). So a dead process's counters and histograms are added into one archive file per
kind, its live gauges dropped (as `prometheus_client.multiprocess.mark_process_dead` does),
and its files removed: the sums stay the same. Every process sharing the folder shares one pid
namespace (a host, or the containers of docker-compose.yml's pairs), so a pid that does not
answer is a process that is gone.
"""
from __future__ import annotations

import fcntl
import glob
import os

from prometheus_client.mmap_dict import MmapedDict

SUMMED_KINDS = ("counter", "histogram")
LOCK_FILE = ".merge.lock"


def merge_dead(folder: str) -> int:
    """Folds the files of dead processes into the archives; returns how many files went."""
    with open(os.path.join(folder, LOCK_FILE), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one merger at a time: each value is added once
        gone = 0
        for path in glob.glob(os.path.join(folder, "*.db")):
            kind, _, pid = os.path.basename(path)[:-len(".db")].rpartition("_")
            if not pid.isdigit() or _alive(int(pid)):
                continue
            if kind in SUMMED_KINDS:
                _add_into(os.path.join(folder, f"{kind}_archive.db"), path)
            elif not kind.startswith("gauge_live"):
                continue  # the other gauge modes report a dead process's last value
            os.remove(path)
            gone += 1
        return gone


def _add_into(archive_path: str, path: str) -> None:
    archive = MmapedDict(archive_path)
    try:
        for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(path):
            archived, _ = archive.read_value(key)
            archive.write_value(key, archived + value, timestamp)
    finally:
        archive.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
