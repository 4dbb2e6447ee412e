"""CPU per request in the process, beside a bare Flask endpoint, and what each request hook costs.

    python -m bench.request_cpu [--requests 3000] [--without logs,headers,...]

Runs `create_app()` with Flask's test client (no HTTP server, no network but Redis) against the
Redis in REDIS_URL (default: an embedded one) and prints the CPU microseconds of: the bare endpoint
of `bench.bare_flask`, `GET /games/types`, an unchanged poll (304), a seated view and an
accepted action (a changed 6 nimmt! choice), the same with a new Idempotency-Key each time
(kept, at most 500 a player), and that action's own work without HTTP or Flask
(`Play.act`, the view and its JSON: what no framework could take away); the best of three
rounds each. `--without` leaves out the named request hooks (modules of `api/` with an
`init_app`) to show what they cost.
"""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import tempfile
import time

from bench.redis_for_bench import bench_redis_url

HOOKS = ("logs", "headers", "metrics", "budgets", "auth", "request_bounds",
         "strict_input", "idempotency")


def cpu_microseconds(request, count: int) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for _ in range(count):
            request()
        best = min(best, (time.process_time() - started) / count * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--without", default="", help=f"hooks to leave out, of {', '.join(HOOKS)}")
    args = parser.parse_args()
    without = [name for name in args.without.split(",") if name]
    with bench_redis_url() as url:
        os.environ.update(REDIS_URL=url, PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(),
                          POYTA_RATE_LIMITS=json.dumps({"act": "10000000/minute"}))
        for name in without:
            importlib.import_module(f"api.http.{name}").init_app = lambda app, *_, **__: None
        from api.http import create_app
        from api.tables import views
        from bench.bare_flask import app as bare_app
        app = create_app()
        logging.getLogger().handlers[:] = [logging.NullHandler()]
        client, bare = app.test_client(), bare_app.test_client()
        token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
        anna = {"Authorization": f"Bearer {token}"}
        # Two humans, the second never plays: each of Anna's plays replaces her choice.
        game = client.post("/api/v1/games", headers=anna, json={
            "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).get_json()
        bert = {"Authorization": "Bearer " + client.post(
            "/api/v1/players", json={"name": "Bert"}).get_json()["token"]}
        client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
        path = f"/api/v1/games/{game['id']}"
        etag = client.get(path, headers=anna).headers["ETag"]
        cards, sent = game["hand"][:2], [0]

        def act():
            sent[0] += 1
            return client.post(path + "/actions", headers=anna,
                               json={"action": {"type": "play", "card": cards[sent[0] % 2]}})

        def keyed_act():
            sent[0] += 1
            return client.post(path + "/actions", headers={**anna, "Idempotency-Key": f"k{sent[0]}"},
                               json={"action": {"type": "play", "card": cards[sent[0] % 2]}})

        service = app.extensions["poyta"]
        player = service.players.for_token(token)

        def act_alone():
            sent[0] += 1
            stored = service.play.act(game["id"], player, {"type": "play", "card": cards[sent[0] % 2]},
                                 None)
            return app.json.dumps(views.view(stored, stored.seat_of(player.id)))

        requests = {
            "bare Flask endpoint": lambda: bare.get("/"),
            "GET /games/types": lambda: client.get("/api/v1/games/types"),
            "304 poll": lambda: client.get(path, headers={**anna, "If-None-Match": etag}),
            "seated view": lambda: client.get(path, headers=anna),
            "accepted action": act,
            "with Idempotency-Key": keyed_act,
            "the action's own work": act_alone,
        }
        print(f"CPU per request, best of 3 rounds of {args.requests}"
              + (f", without {', '.join(without)}" if without else ""))
        for name, request in requests.items():
            answer = request()
            status = f"({answer.status_code})" if hasattr(answer, "status_code") else ""
            print(f"  {name:<22}{cpu_microseconds(request, args.requests):8.0f} µs   {status}")


if __name__ == "__main__":
    main()
