"""How many idle event streams one API process holds, its memory, and how soon a stream is woken.

    python -m bench.streams [--streams 10000] [--samples 200]

Starts one gunicorn process (gevent) on a free port against the Redis in REDIS_URL (default: an
embedded one), opens N `GET /api/v1/stream` (NDJSON; four per player, the most a player may
hold) and, while they are all open, measures the worker's resident memory and the wake time of
`--samples` of them: a line said at a table of the stream's player (a chat line, published as
every commit is), from the moment the line is stored until the stream carries it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

from api.storage import connections
from api.tables import Tables
from bench.longpoll import free_port
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
PER_PLAYER = 4
BATCH = 100  # streams opened at once


async def open_stream(port: int, token: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Authorization: Bearer {token}\r\nAccept: application/x-ndjson\r\n\r\n")
                 .encode())
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream refused: {status!r}")
    return reader, writer


async def told(reader: asyncio.StreamReader, marker: bytes) -> float:
    """When the stream carries `marker`."""
    while True:
        line = await reader.readline()
        if not line:
            raise RuntimeError("stream closed")
        if marker in line:
            return time.perf_counter()


def worker_rss_mb(master: int) -> float:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for line in Path(f"/proc/{children[0]}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def run(tables: Tables, port: int, master: int, streams: int, samples: int) -> None:
    players = [tables.players.create(f"Bot {index}", bot=True)
               for index in range(-(-streams // PER_PLAYER))]
    partner = tables.players.create("Partner")
    rss_before = worker_rss_mb(master)
    started = time.perf_counter()
    opened, refused = [], 0
    for batch in range(0, streams, BATCH):
        answers = await asyncio.gather(*(open_stream(port, players[index // PER_PLAYER].token)
                                         for index in range(batch, min(streams, batch + BATCH))),
                                       return_exceptions=True)
        opened += [answer for answer in answers if not isinstance(answer, BaseException)]
        refused = batch + len(answers) - len(opened)
        if batch % 1000 == 0:
            print(f"  {len(opened)} open after {time.perf_counter() - started:.0f} s, "
                  f"{refused} refused", flush=True)
    opening = time.perf_counter() - started
    await asyncio.sleep(2)
    rss_held = worker_rss_mb(master)
    print(f"{len(opened)} streams open ({refused} refused) in {opening:.1f} s; "
          f"worker RSS {rss_before:.0f} MB "
          f"before, {rss_held:.0f} MB holding them "
          f"({(rss_held - rss_before) * 1024 / len(opened):.1f} KB a stream)")

    woken, closed = [], 0
    for sample in range(samples):
        index = sample * (len(opened) // samples) // PER_PLAYER * PER_PLAYER
        player = players[index // PER_PLAYER]
        stored = tables.seating.create_game(player, "sixnimmt", 2, {}, ["human", "human"],
                                            public=True)
        tables.seating.join(stored.id, partner, None)
        reader = opened[index][0]
        text = f"wake {sample}"
        waiting = asyncio.create_task(told(reader, text.encode()))
        await asyncio.sleep(0.05)  # the join's own events come first
        said = time.perf_counter()
        await asyncio.to_thread(tables.chat.say, stored.id, partner, text)
        try:
            woken.append((await asyncio.wait_for(waiting, 10)) - said)
        except (RuntimeError, asyncio.TimeoutError):
            closed += 1  # the server ended it (a Redis command that waited too long)
    woken.sort()
    print(f"wake of {len(woken)} streams among {len(opened)}: "
          f"p50 {statistics.median(woken) * 1000:.0f} ms, "
          f"p99 {woken[int(0.99 * (len(woken) - 1))] * 1000:.0f} ms, "
          f"max {woken[-1] * 1000:.0f} ms; {closed} closed; "
          f"worker RSS {worker_rss_mb(master):.0f} MB")
    for _, writer in opened:
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with bench_redis_url() as redis_url:
        port = free_port()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "--worker-class", "gevent",
             "--worker-connections", str(args.streams + 200), "--log-level", "warning",
             "api.http:create_app()"], cwd=ROOT,
            env={**os.environ, "REDIS_URL": redis_url, "WORKER_CONNECTIONS": str(args.streams + 200)},
            stderr=subprocess.DEVNULL)  # an access line a stream
        try:
            for _ in range(100):
                try:
                    requests.get(f"http://127.0.0.1:{port}/api/v1/games/types", timeout=1)
                    break
                except requests.RequestException:  # not listening yet, or still starting
                    time.sleep(0.1)
            tables = Tables(connections.store_client({"REDIS_URL": redis_url}))
            print(f"one gunicorn process (gevent), {args.streams} streams")
            asyncio.run(run(tables, port, server.pid, args.streams, args.samples))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
