"""The Redis a benchmark talks to: REDIS_URL, else a throwaway embedded server of its own."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from api.devtools.embedded_redis import start_embedded


@contextmanager
def bench_redis_url() -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    server = start_embedded(Path(tempfile.mkdtemp(prefix="bench-redis-")))
    try:
        yield f"redis://{server.host}:{server.port}/0"
    finally:
        server.stop()
