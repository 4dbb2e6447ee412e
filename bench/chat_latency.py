"""How long a line said at a table takes to reach the other player, beside a move's time.

    python -m bench.chat_latency [--rounds 20]

Starts one gunicorn instance (gevent, one process) against the Redis in REDIS_URL (default: an
embedded one). Each round Bert waits on `GET /chat?after=N&wait=20` while Anna says a line,
then Bert waits on `GET /games/{id}?wait=20` while Anna moves: the time from Anna's request to
Bert's answer, for each. The phone before this waited on no message: it looked every 10 s.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from bench.longpoll import free_port
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent


def heard_after(listen, speak) -> float:
    """Seconds from `speak()` being sent until `listen()` has its answer."""
    answered = {}

    def wait():
        listen()
        answered["at"] = time.perf_counter()
    listener = threading.Thread(target=wait)
    listener.start()
    time.sleep(0.2)  # the listener is parked
    said = time.perf_counter()
    speak()
    listener.join()
    return answered["at"] - said


def rounds(base: str, count: int) -> tuple[list[float], list[float]]:
    http = requests.Session()
    anna = {"Authorization": "Bearer " + http.post(f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]}
    bert = {"Authorization": "Bearer " + http.post(f"{base}/api/v1/players", json={"name": "Bert"}).json()["token"]}
    game = http.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixtysix", "players": 2, "seats": ["human", "human"]}).json()
    http.post(f"{base}/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    game_url, chat_url = f"{base}/api/v1/games/{game['id']}", f"{base}/api/v1/games/{game['id']}/chat"
    bert_http = requests.Session()
    chat, moves = [], []
    for number in range(count):
        chat.append(heard_after(
            lambda: bert_http.get(f"{chat_url}?after={number}&wait=20", headers=bert, timeout=30).json(),
            lambda: http.post(chat_url, headers=anna, json={"text": f"line {number}"}).raise_for_status()))
        time.sleep(6.5)  # within the table's 5 lines in 30 s
        view = http.get(game_url, headers=anna).json()
        mover = anna if 0 in view["to_act"] else bert
        watcher = bert if mover is anna else anna
        etag = bert_http.get(game_url, headers=watcher).headers["ETag"]
        action = http.get(game_url, headers=mover).json()["legal_actions"][0]
        moves.append(heard_after(
            lambda: bert_http.get(f"{game_url}?wait=20", headers={**watcher, "If-None-Match": etag}, timeout=30),
            lambda: http.post(f"{game_url}/actions", headers=mover, json={"action": action}).raise_for_status()))
    return chat, moves


def describe(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    return f"p50 {statistics.median(ms):6.1f} ms, max {ms[-1]:6.1f} ms over {len(ms)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with bench_redis_url() as redis_url:
        port = free_port()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "--worker-class", "gevent", "--log-level", "warning",
             "api.http:create_app()"], cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url})
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    requests.get(f"{base}/api/v1/games/types", timeout=1)
                    break
                except requests.RequestException:  # not listening yet, or still starting
                    time.sleep(0.1)
            chat, moves = rounds(base, args.rounds)
            print(f"a line said, heard by the other player: {describe(chat)}")
            print(f"a move made, seen by the other player:  {describe(moves)}")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
