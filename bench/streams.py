"""How many idle event streams one API process holds, its memory and CPU, and how soon a stream
is woken, one at a time and under a steady rate of wakes.

    python -m bench.streams [--streams 10000] [--samples 200] [--wakes 1000] [--seconds 20]

Starts one gunicorn process (gevent) on a free port against the Redis in REDIS_URL (default: an
embedded one), gives every stream's player a game with a partner, opens N `GET /api/v1/stream`
(NDJSON; four per player, the most a player may hold) and, while they are all open, measures:

1. idle: the worker's resident memory, its CPU (a share of one core) and the Redis commands a
   second it sends while nothing happens (slot renewals, looks at closed connections);
2. one at a time (the baseline): `--samples` chat lines, 20 a second, each at another player's
   table, each waking that player's four streams;
3. under load: `--wakes` stream wakes a second (a line a second for every four) for `--seconds`.

A wake is timed from just before the partner's line is stored (the time travels in its text)
until a stream carries it. The lines are stored as the domain stores them (`ChatStore.say`, one
script that appends and publishes), by a process of their own, without the game's load and the
webhook marks that `Chat.say` adds before it: those are the writer's cost, not the stream's.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests
from redis import Redis

from api.storage import connections
from api.tables import Tables
from api.tables.chat import CHAT_KEEP
from api.tables.model import iso
from bench.longpoll import free_port
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
PER_PLAYER = 4
BATCH = 100  # streams opened at once
SAMPLES_A_SECOND = 20  # the baseline's lines: far apart, so each wake is alone
IDLE_SECONDS = 10
DRAIN_SECONDS = 60  # after the last line, for its wakes; the worker's CPU counts until then
TARGET_P99 = 0.2
TARGET_RSS_MB = 1024


def worker_pid(master: int) -> int:
    return int(Path(f"/proc/{master}/task/{master}/children").read_text().split()[0])


def worker_rss_mb(master: int) -> float:
    for line in Path(f"/proc/{worker_pid(master)}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def worker_cpu_seconds(master: int) -> float:
    fields = Path(f"/proc/{worker_pid(master)}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


class Usage:
    """The worker's CPU and Redis's commands over a stretch of time."""

    def __init__(self, master: int, redis: Redis):
        self.master, self.redis = master, redis
        self.began = time.perf_counter()
        self.cpu = worker_cpu_seconds(master)
        self.commands = redis.info("stats")["total_commands_processed"]
        self.redis_cpu = redis_cpu_seconds(redis)

    def done(self) -> dict:
        elapsed = time.perf_counter() - self.began
        return {"elapsed": elapsed, "cpu": (worker_cpu_seconds(self.master) - self.cpu) / elapsed,
                "commands": (self.redis.info("stats")["total_commands_processed"]
                             - self.commands) / elapsed,
                "redis_cpu": (redis_cpu_seconds(self.redis) - self.redis_cpu) / elapsed}


def redis_cpu_seconds(redis: Redis) -> float:
    cpu = redis.info("cpu")
    return cpu["used_cpu_user"] + cpu["used_cpu_sys"]


def say_lines(redis_url: str, tables_at: list[tuple[str, list[str]]], partner: str,
              phase: str, lines: int, per_second: float, said: multiprocessing.Value) -> None:
    """In a process of its own: `lines` chat lines from `partner`, `per_second`, at the tables
    in turn; each line's text is the phase and the moment it was said."""
    chat = Tables(connections.store_client({"REDIS_URL": redis_url})).storage.chat
    began = time.perf_counter()
    for index in range(lines):
        wait = began + index / per_second - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        game_id, seated = tables_at[index % len(tables_at)]
        text = f"{phase}:{time.perf_counter():.6f}"
        chat.say(game_id, partner, {"seat": 1, "name": "Partner", "text": text, "at": iso(time.time())},
                 10 ** 9, 60, CHAT_KEEP, seated)
    said.value = lines / (time.perf_counter() - began)


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


async def read_stream(reader: asyncio.StreamReader, woken: dict[str, list[float]],
                      closed: list[int]) -> None:
    """Each chat line the stream carries: how long after it was said."""
    while True:
        line = await reader.readline()
        if not line:
            closed.append(1)
            return
        if b'"chat"' not in line:
            continue
        arrived = time.perf_counter()
        try:
            phase, said = json.loads(line)["text"].split(":")
        except (ValueError, KeyError):
            continue  # a chunk-size line of the chunked encoding, or another line
        woken.setdefault(phase, []).append(arrived - float(said))


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    return (f"p50 {statistics.median(values) * 1000:.0f} ms, "
            f"p99 {values[int(0.99 * (len(values) - 1))] * 1000:.0f} ms, "
            f"max {values[-1] * 1000:.0f} ms")


async def wake(redis_url: str, tables_at: list, partner: str, phase: str, lines: int,
               per_second: float, woken: dict, closed: list, master: int, redis: Redis) -> dict:
    said = multiprocessing.Value("d", 0.0)
    usage = Usage(master, redis)
    sayer = multiprocessing.Process(target=say_lines, args=(
        redis_url, tables_at, partner, phase, lines, per_second, said))
    sayer.start()
    await asyncio.to_thread(sayer.join)
    expected = lines * PER_PLAYER
    drained = time.perf_counter() + DRAIN_SECONDS  # the wakes the server is behind on
    while len(woken.get(phase, [])) < expected and time.perf_counter() < drained:
        await asyncio.sleep(0.2)
    used = usage.done()
    times = woken.get(phase, [])
    print(f"  {phase}: {lines} lines at {said.value:.0f}/s = {said.value * PER_PLAYER:.0f} "
          f"stream wakes/s; {len(times)} of {expected} wakes carried; {percentiles(times)}; "
          f"worker CPU {used['cpu']:.0%} of a core, Redis {used['commands']:,.0f} commands/s "
          f"({used['redis_cpu']:.0%} of a core); "
          f"{len(closed)} streams closed so far", flush=True)
    return {**used, "times": sorted(times), "rate": said.value * PER_PLAYER}


def per_wake(phase: dict, idle: dict, figure: str) -> float:
    """A wake's share of `figure` (worker CPU or Redis commands): the phase's total less what
    the held streams cost over as long, over the wakes carried."""
    extra = (phase[figure] - idle[figure]) * phase["elapsed"]
    return extra / max(1, len(phase["times"]))


async def run(tables: Tables, redis_url: str, port: int, master: int, args) -> bool:
    players = [tables.players.create(f"Bot {index}", bot=True)
               for index in range(-(-args.streams // PER_PLAYER))]
    partner = tables.players.create("Partner")
    started = time.perf_counter()
    tables_at = []
    for player in players:
        stored = tables.seating.create_game(player, "sixnimmt", 2, {}, ["human", "human"],
                                            public=True)
        tables.seating.join(stored.id, partner, None)
        tables_at.append((stored.id, [player.id, partner.id]))
    print(f"{len(players)} players, a game each with the partner, in "
          f"{time.perf_counter() - started:.0f} s", flush=True)

    redis = Redis.from_url(redis_url)
    rss_before = worker_rss_mb(master)
    started = time.perf_counter()
    opened, refused = [], 0
    for batch in range(0, args.streams, BATCH):
        answers = await asyncio.gather(*(open_stream(port, players[index // PER_PLAYER].token)
                                         for index in range(batch, min(args.streams, batch + BATCH))),
                                       return_exceptions=True)
        opened += [answer for answer in answers if not isinstance(answer, BaseException)]
        refused = batch + len(answers) - len(opened)
        if batch % 2000 == 0:
            print(f"  {len(opened)} open after {time.perf_counter() - started:.0f} s, "
                  f"{refused} refused", flush=True)
    opening = time.perf_counter() - started
    woken: dict[str, list[float]] = {}
    closed: list[int] = []
    readers = [asyncio.create_task(read_stream(reader, woken, closed)) for reader, _ in opened]
    await asyncio.sleep(2)  # the first looks' events
    idle = Usage(master, redis)
    await asyncio.sleep(IDLE_SECONDS)
    idle = idle.done()
    rss_held = worker_rss_mb(master)
    print(f"{len(opened)} streams open ({refused} refused) in {opening:.1f} s; worker RSS "
          f"{rss_before:.0f} MB before, {rss_held:.0f} MB holding them "
          f"({(rss_held - rss_before) * 1024 / max(1, len(opened)):.1f} KB a stream); idle: "
          f"worker CPU {idle['cpu']:.0%} of a core, Redis {idle['commands']:,.0f} commands/s "
          f"({idle['redis_cpu']:.0%} of a core)",
          flush=True)

    print("wakes (each line wakes its player's 4 streams):", flush=True)
    alone = await wake(redis_url, tables_at, partner.id, "alone", args.samples, SAMPLES_A_SECOND,
                       woken, closed, master, redis)
    lines_a_second = args.wakes / PER_PLAYER
    loaded = await wake(redis_url, tables_at, partner.id, "loaded",
                        int(lines_a_second * args.seconds), lines_a_second, woken, closed,
                        master, redis)
    rss_end = worker_rss_mb(master)
    p99 = loaded["times"][int(0.99 * (len(loaded["times"]) - 1))] if loaded["times"] else 1e9
    per_wake_ms = per_wake(loaded, idle, "cpu") * 1000
    per_wake_commands = per_wake(loaded, idle, "commands")
    print(f"summary: {len(opened)} streams, worker RSS {rss_end:.0f} MB (target < "
          f"{TARGET_RSS_MB} MB); wake p99 alone {percentiles(alone['times']).split(', ')[1][4:]}"
          f" (the baseline), at {loaded['rate']:.0f} wakes/s {p99 * 1000:.0f} ms (target "
          f"{TARGET_P99 * 1000:.0f} ms); worker CPU idle {idle['cpu']:.0%}, loaded "
          f"{loaded['cpu']:.0%} of a core: {idle['cpu'] / len(opened) * 1e6:.1f} µs a stream a "
          f"second and {per_wake_ms:.2f} ms a wake; Redis {idle['commands'] / len(opened):.2f} "
          f"commands a stream a second and {per_wake_commands:.1f} a wake; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for task in readers:
        task.cancel()
    for _, writer in opened:
        writer.close()
    return p99 <= TARGET_P99 and rss_end < TARGET_RSS_MB and not refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--samples", type=int, default=200, help="lines of the baseline")
    parser.add_argument("--wakes", type=int, default=1000, help="stream wakes a second")
    parser.add_argument("--seconds", type=float, default=20, help="of the loaded phase")
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
            print(f"one gunicorn process (gevent), {args.streams} streams; load average "
                  f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
            met = asyncio.run(run(tables, redis_url, port, server.pid, args))
        finally:
            server.terminate()
            server.wait()
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
