"""`make run`: Redis (embedded when none answers), one RQ worker and gunicorn on PORT."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from api import connections
from api.embedded_redis import resolve

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    url, embedded = resolve(ROOT / "data" / "redis")
    # The RQ workers and gunicorn's workers share one metrics folder: /metrics sums them all.
    env = {**os.environ, "REDIS_URL": url,
           "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="poyta-metrics-")}
    queue_url = connections.queue_url(connections.settings(env))
    port = os.environ.get("PORT", "8000")
    bin_dir = Path(sys.executable).parent
    print(f"Pöytä: Redis at {url}{' (embedded)' if embedded else ''}; "
          f"open http://127.0.0.1:{port}/", flush=True)
    children = [
        # Pöytä's worker is a SimpleWorker (jobs run in its own process: no fork and no
        # re-import per job, which keeps an easy bot's move in milliseconds) with the sweeper.
        subprocess.Popen([str(bin_dir / "rq"), "worker", "bots", "--url", queue_url, "--with-scheduler",
                          "--worker-class", "worker.runner.PoytaWorker"], env=env, cwd=ROOT),
        subprocess.Popen([str(bin_dir / "gunicorn"), "--bind", f"0.0.0.0:{port}",
                          "--worker-class", "gevent", "--workers", "2",
                          "--worker-connections", "2000",
                          "api:create_app()"], env=env, cwd=ROOT),
    ]

    def stop(*_):
        for child in children:
            child.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        status = children[1].wait()
    finally:
        stop()
        for child in children:
            child.wait()
        if embedded:
            embedded.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
