"""A co-player's long-polls while one player renames over and over (issue 21, finding 5).

    python -m bench.rename_wakes [--tables 20] [--seconds 20] [--rate 5]

Anna and Bert sit together at `--tables` games. Bert long-polls one of them and his inbox as
the PWA does (`wait=25`, a new poll after each answer) while Anna renames `--rate` times a
second for `--seconds`. Printed for the API as it is, for the old behaviour in the same run (no
rename budget, every rename told at once: `RENAME_QUIET_SECONDS = 0`) and for the budget
alone: Anna's renames accepted and refused, and Bert's answers (each a wake-up he pays for
from his long-poll budget of 120 a minute) and 429s. The app runs in this process on
werkzeug's threaded server against REDIS_URL (default: an embedded Valkey).
"""
from __future__ import annotations

import argparse
import threading
import time
from collections import Counter

import requests
from werkzeug.serving import make_server

from api.http import create_app
from api.storage import connections
from api.storage import players as player_store
from bench.redis_for_bench import bench_redis_url

SEATS = {"type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}]}
ROOMY = {"create_player": "1000/minute", "create_game": "1000/minute"}
QUIET = player_store.RENAME_QUIET_SECONDS


# (label, rename budget lifted, every rename told at once)
SETTINGS = (("old: no rename budget, every rename told", True, True),
            ("the budget alone, every rename told", False, True),
            ("now: the budget, renames told once in 10 s a table", False, False))


def one_run(url: str, tables: int, seconds: float, rate: float, unbudgeted: bool,
            told_at_once: bool) -> dict:
    connections.store_client({"REDIS_URL": url}).flushdb()
    limits = {**ROOMY, **({"rename": "100000/minute"} if unbudgeted else {})}
    player_store.RENAME_QUIET_SECONDS = 0 if told_at_once else QUIET
    app = create_app({"REDIS_URL": url, "RQ_REDIS_URL": url, "REDIS_CLUSTER": "",
                      "RATE_LIMITS": limits})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.port}/api/v1"
    http = requests.Session()
    anna, bert = ({"Authorization": "Bearer " + http.post(
        base + "/players", json={"name": name}).json()["token"]} for name in ("Anna", "Bert"))
    game_ids = []
    for _ in range(tables):
        game = http.post(base + "/games", headers=anna, json=SEATS).json()
        http.post(f"{base}/games/invites/{game['invites'][0]['code']}", headers=bert)
        game_ids.append(game["id"])
    answers: Counter = Counter()
    stop = threading.Event()

    def watch(path: str) -> None:
        session = requests.Session()
        etag = session.get(base + path, headers=bert).headers["ETag"]
        while not stop.is_set():
            try:
                answer = session.get(f"{base}{path}?wait=25",
                                     headers={**bert, "If-None-Match": etag})
            except requests.RequestException:
                return  # the run is over and its server gone
            if stop.is_set():
                return
            answers[answer.status_code] += 1
            etag = answer.headers.get("ETag", etag)
            if answer.status_code == 429:
                time.sleep(float(answer.headers.get("Retry-After", 1)))
    watchers = [threading.Thread(target=watch, args=(path,), daemon=True)
                for path in (f"/games/{game_ids[0]}", "/players/me/games")]
    for watcher in watchers:
        watcher.start()
    time.sleep(0.5)
    renames: Counter = Counter()
    began = time.monotonic()
    number = 0
    while time.monotonic() - began < seconds:
        number += 1
        renames[http.patch(base + "/players/me", headers=anna,
                           json={"name": f"Anna {number}"}).status_code] += 1
        time.sleep(max(0.0, began + number / rate - time.monotonic()))
    stop.set()
    server.shutdown()
    return {"renames": dict(renames), "bert": dict(answers)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rate", type=float, default=5)
    args = parser.parse_args()
    with bench_redis_url() as url:
        for label, unbudgeted, told_at_once in SETTINGS:
            result = one_run(url, args.tables, args.seconds, args.rate, unbudgeted, told_at_once)
            print(f"{label}: Anna's renames by status {result['renames']}; Bert's answers "
                  f"by status {result['bert']} in {args.seconds:.0f} s "
                  f"({args.tables} shared tables, {args.rate:g} renames a second)", flush=True)


if __name__ == "__main__":
    main()
