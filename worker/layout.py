"""The worker processes Pöytä runs, declared once: each one's name, the queues it takes (first
come first) and its CPU niceness. `make run` (`api.devtools.serve`) starts `WORKERS`,
`python -m worker.run --layout NAME` runs one of them, and docker-compose.yml's worker services
are held to this list by tests/test_worker_layout.py. The queue names and the order in which a
bot worker takes them are the store's (`api.storage.jobs`)."""
from __future__ import annotations

from dataclasses import dataclass

from api.storage.jobs import (
    ANALYSIS_QUEUE,
    BOT_QUEUE,
    BOT_QUEUE_ORDER,
    DEEP_BOT_QUEUE,
    HEAVY_BOT_QUEUE,
    NOTICE_WORKER_QUEUES,
)

# A worker that takes hard bots first yields the CPU this much, so the quick replies and the API
# on the same machine get it first: the hard bots' deadline is on the wall clock anyway.
DEEP_NICENESS = 5
# The reviews of finished games take any CPU nothing else wants.
ANALYSIS_NICENESS = 19


@dataclass(frozen=True)
class WorkerProcess:
    name: str
    queues: tuple[str, ...]
    niceness: int = 0

    def argv(self, python: str = "python") -> list[str]:
        return [python, "-m", "worker.run", "--layout", self.name]


# Quick moves alone (easy, medium, deadlines), so a hard bot's thinking never holds up a reply.
QUICK = WorkerProcess("quick", (BOT_QUEUE, HEAVY_BOT_QUEUE))
# Hard bots first, quick moves while no hard one waits.
DEEP = WorkerProcess("deep", BOT_QUEUE_ORDER, niceness=DEEP_NICENESS)
# "Your turn" notices, then players' webhooks: a slow webhook never delays a bot move.
NOTICES = WorkerProcess("notices", NOTICE_WORKER_QUEUES)
# Bot moves first, as the deep worker takes them; reviews of finished games only when no bot move
# waits, and niced, so a review never takes the CPU from a move.
ANALYSES = WorkerProcess("analyses", (*BOT_QUEUE_ORDER, ANALYSIS_QUEUE), niceness=ANALYSIS_NICENESS)
BOT_WORKERS = (QUICK, DEEP)
WORKERS = (QUICK, DEEP, NOTICES, ANALYSES)
# A cluster node that runs one bot worker beside its API takes the notices as well.
QUICK_AND_NOTICES = WorkerProcess("quick-and-notices", QUICK.queues + NOTICES.queues)
DECLARED = {worker.name: worker for worker in (*WORKERS, QUICK_AND_NOTICES)}


def niceness_of(queues: tuple[str, ...]) -> int:
    """A worker given its queues by name is niced as the declared worker it takes first from,
    or as the reviews' worker when it takes them."""
    if ANALYSIS_QUEUE in queues:
        return ANALYSIS_NICENESS
    return DEEP_NICENESS if queues[0] == DEEP_BOT_QUEUE else 0
