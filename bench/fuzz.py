"""Authenticated fuzzing: schemathesis over the served spec with a valid player's token and the
links that let it play (a game made, then acted on, talked at, resigned), bounded in time.

    nice -n 10 python -m bench.fuzz [--minutes 5] [--workers 4] [--requests 30000]

Serves the app in this process (a threaded werkzeug server, the budgets lifted, a real RQ
worker beside it on its own Valkey and an embedded PostgreSQL, migrated) behind a counting
layer, and runs `schemathesis run` on the spec of `with_game_links` with
`Authorization: Bearer fuzz`, its long-polls' `wait` at most `MAX_FUZZ_WAIT` seconds (a wait
of up to a minute would hold a schemathesis worker for each one sent). The counting layer swaps that
placeholder for the token of a real player, a fresh player every `GAMES_A_PLAYER` games made
(a player may hold 30 open games) and whenever the token stopped working (the fuzzer signed
its device out), so every call that carries it is authenticated; calls
without it are schemathesis's own cases of missing or broken authentication. Prints the
requests, the authenticated share, the answers by status and every 5xx with its route, the
answers of each operation (and any operation never reached or never answered 2xx), and the
game store before and after: its keys and memory may grow by at most `KEYS_PER_CREATION`
keys and `BYTES_PER_CREATION` bytes for each thing made (a 201 answer: a player, a game, a
seek ...) plus `KEYS_SLACK` and `BYTES_SLACK`, so that what grows with the requests themselves
(a budget's window, an idempotent answer, a token) and never lapses fails the run. Exits non-zero
on a 5xx, on fewer than `--requests` requests, or on storage beyond its bound.
`tests/api/test_contract_schemathesis.py` runs a small slice of the same on every `make test`.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from redis import Redis
from werkzeug.exceptions import HTTPException
from werkzeug.serving import WSGIRequestHandler, make_server

from api.devtools.embedded_postgres import EmbeddedPostgres
from api.http import create_app
from api.storage import migrate
from bench.redis_for_bench import bench_redis_url
from bench.spec_fuzzer import SpecFuzzer
from worker.layout import ANALYSES, NOTICES

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "Bearer fuzz"
GAMES_A_PLAYER = 25
MAX_FUZZ_WAIT = 2
CONVERTER = re.compile(r"<\w+:(\w+)>")   # <string:game_id> as the spec writes it: <game_id>
SPEC_NAME = r"<\1>"
KEYS_PER_CREATION = 40       # a game's hash, log, events, chat, due-set marks, notices ...
BYTES_PER_CREATION = 96_000
KEYS_SLACK = 2_000
BYTES_SLACK = 32_000_000
# Games the fuzzer makes: POST /games sends one of these (random bodies are refused, 422, and
# would leave the operations on a game nothing to act on).
GAME_BODIES = [
    {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]},
    {"type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"},
    {"type": "sticheln", "players": 3, "seats": ["human", "human", {"bot": "medium"}]},
    {"type": "hattrick", "players": 4, "seats": ["human", {"bot": "easy"}, {"bot": "easy"},
                                                 {"bot": "easy"}], "public": True},
]
# 422 answers valid data that breaks a rule no schema states (seats must number the players).
EXPECTED = ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429"]
LIFTED = {name: "10000000/minute" for name in (
    "act", "create_player", "create_game", "create_game_per_address", "guess_code",
    "guess_code_per_player", "friends", "passkey_signin", "passkey_registration", "clock",
    "rename", "webhook", "signin_code", "read_record", "read_replay", "read_events",
    "read_history_per_address", "read_lobby", "read_inbox", "read_spec", "long_poll")}


def with_game_links(spec: dict) -> dict:
    """The spec with what a fuzzer needs to play: POST /games sends one of GAME_BODIES, and
    its 201 links the new game's id to every operation on a game."""
    spec = copy.deepcopy(spec)
    create = spec["paths"]["/api/v1/games"]["post"]
    create["requestBody"]["content"]["application/json"]["schema"] = {"enum": GAME_BODIES}
    links = {}
    for path, operations in spec["paths"].items():
        if "{game_id}" not in path:
            continue
        for operation in operations.values():
            if isinstance(operation, dict) and "operationId" in operation:
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {"game_id": "$response.body#/id"}}
    create["responses"]["201"]["links"] = links
    return spec


def bounded_waits(spec: dict) -> dict:
    """The spec with every long-poll's `wait` at most MAX_FUZZ_WAIT seconds."""
    spec = copy.deepcopy(spec)
    for operations in spec["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", ()):
                if parameter.get("name") == "wait" and "schema" in parameter:
                    parameter["schema"]["maximum"] = MAX_FUZZ_WAIT
    return spec


def flask_rule(path: str) -> str:
    """/games/{game_id} as Flask writes it: /games/<game_id>."""
    return re.sub(r"{(\w+)}", r"<\1>", path)


def store_size(redis_url: str) -> dict:
    """The game store's keys, memory, and keys by family (ids folded) with and without a TTL."""
    store = Redis.from_url(redis_url)
    families = Counter()
    for key in store.scan_iter(count=1000):
        family = re.sub(r"\{[^}]*\}|[0-9a-f]{16,}|\d+", "*", key.decode(errors="replace"))
        families[(family, store.ttl(key) >= 0)] += 1
    return {"keys": store.dbsize(), "bytes": store.info("memory")["used_memory"],
            "families": families}


class Counting:
    """WSGI layer: swaps the placeholder token for a real player's and counts the answers."""

    def __init__(self, app):
        self.app, self.client = app, app.test_client()
        self.lock = threading.Lock()
        self.statuses, self.server_errors = Counter(), Counter()
        self.operations: dict[str, Counter] = {}
        self.requests = self.authenticated = self.games = self.signed_out = self.created = 0
        self.routes = app.url_map.bind("localhost")
        self.token = self.new_token()

    def new_token(self) -> str:
        answer = self.client.post("/api/v1/players", json={"name": "Fuzz"})
        return f"Bearer {answer.get_json()['token']}"

    def operation(self, method: str, path: str) -> str:
        try:
            rule, _ = self.routes.match(path, method, return_rule=True)
            return f"{method} {CONVERTER.sub(SPEC_NAME, rule.rule)}"
        except HTTPException:
            return "(no route)"

    def count(self, method: str, path: str, code: int, authenticated: bool) -> None:
        operation = self.operation(method, path)
        with self.lock:
            self.requests += 1
            self.created += code == 201
            self.operations.setdefault(operation, Counter())[code] += 1
            self.authenticated += authenticated
            self.statuses[code] += 1
            if code >= 500:
                self.server_errors[f"{operation} {code}"] += 1

    def __call__(self, environ, start_response):
        carries = environ.get("HTTP_AUTHORIZATION") == PLACEHOLDER
        if carries:
            environ["HTTP_AUTHORIZATION"] = self.token
        creates = environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"] == "/api/v1/games"

        def counted(status, headers, exc_info=None):
            code = int(status.split()[0])
            self.count(environ["REQUEST_METHOD"], environ["PATH_INFO"], code, carries)
            with self.lock:
                if carries and creates and code == 201:
                    self.games += 1
                    if self.games % GAMES_A_PLAYER == 0:
                        self.token = self.new_token()
                elif carries and code == 401:  # the fuzzer signed the player's device out
                    self.token = self.new_token()
                    self.signed_out += 1
            return start_response(status, headers, exc_info)
        return self.app(environ, counted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--requests", type=int, default=30_000,
                        help="the least number of requests a run must send (the spec engine "
                             "stops there, or at --minutes)")
    parser.add_argument("--engine", choices=("spec", "schemathesis"), default="spec",
                        help="bench.spec_fuzzer in this process, or `schemathesis run`")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-fuzz-"))
    postgres = EmbeddedPostgres(folder / "postgres").start()
    migrate.upgrade(postgres.url)
    try:
        with bench_redis_url() as redis_url:
            counting, summary, before, after, took = fuzz(args, folder, redis_url,
                                                          postgres.url)
    finally:
        postgres.stop("immediate")
    print(f"fuzz: {took / 60:.1f} min, {counting.requests} requests, "
          f"{counting.authenticated} with a valid token "
          f"({counting.authenticated / max(counting.requests, 1):.0%}), "
          f"{counting.games} games made; the token signed out {counting.signed_out} times")
    print(f"answers: {dict(sorted(counting.statuses.items()))}")
    errors = sum(counting.server_errors.values())
    print(f"5xx: {errors} {dict(counting.server_errors)}")
    operations = {operation: codes for operation, codes in counting.operations.items()
                  if operation != "(no route)"}
    spec = json.loads((folder / "spec.json").read_text())
    spec_operations = {f"{method.upper()} {flask_rule(path)}"
                       for path, methods in spec["paths"].items()
                       for method, operation in methods.items()
                       if isinstance(operation, dict) and "operationId" in operation}
    print(f"\noperations: {len(spec_operations)} in the spec, {len(operations)} reached")
    for operation in sorted(operations):
        codes = operations[operation]
        print(f"  {sum(codes.values()):6d}  {operation}  {dict(sorted(codes.items()))}")
    print("never reached:", sorted(spec_operations - set(operations)) or "none")
    print("never answered 2xx:", sorted(operation for operation, codes in operations.items()
                                        if not any(200 <= code < 300 for code in codes)) or "none")
    key_bound = before["keys"] + KEYS_PER_CREATION * counting.created + KEYS_SLACK
    byte_bound = before["bytes"] + BYTES_PER_CREATION * counting.created + BYTES_SLACK
    print(f"\nthe game store: {before['keys']} keys, {before['bytes'] / 1e6:.1f} MB before; "
          f"{after['keys']} keys, {after['bytes'] / 1e6:.1f} MB after {counting.created} things "
          f"made (201); bound {key_bound} keys, {byte_bound / 1e6:.1f} MB")
    grown = after["families"] - before["families"]
    for (family, lapses), count in grown.most_common(25):
        print(f"  +{count:6d}  {family}  {'(TTL)' if lapses else '(no TTL)'}")
    print(summary)
    failed = (errors or counting.requests < args.requests or after["keys"] > key_bound
              or after["bytes"] > byte_bound)
    sys.exit(1 if failed else 0)


def fuzz(args, folder: Path, redis_url: str, database_url: str):
    env = {"REDIS_URL": redis_url, "DATABASE_URL": database_url}
    os.environ.update(POYTA_RATE_LIMITS=json.dumps(LIFTED), LOG_LEVEL="WARNING")
    app = create_app(env)
    counting = Counting(app)
    WSGIRequestHandler.log_request = lambda *args, **kwargs: None  # the app logs its own
    server = make_server("127.0.0.1", 0, counting, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    worker = subprocess.Popen(
        [sys.executable, "-m", "worker.run", *ANALYSES.queues, *NOTICES.queues], cwd=ROOT, env={**os.environ, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    spec = bounded_waits(with_game_links(app.test_client().get("/api/openapi.json").get_json()))
    (folder / "spec.json").write_text(json.dumps(spec))

    def measured(engine):
        """What `engine()` returns, the store's size before and after it and the seconds it
        took; the server and the worker stopped whatever happens."""
        before = store_size(redis_url)
        started = time.monotonic()
        try:
            outcome = engine()
            took = time.monotonic() - started
            return outcome, before, store_size(redis_url), took
        finally:
            server.shutdown()
            worker.terminate()
            worker.wait(30)

    if args.engine == "spec":
        summary, before, after, took = measured(lambda: fuzz_spec(app, counting, spec, args))
        return counting, summary, before, after, took
    (folder / "schemathesis.toml").write_text(
        "[checks.positive_data_acceptance]\n"
        f"expected-statuses = {json.dumps(EXPECTED)}\n")
    # Without `check`: schemathesis's failures are what the summary reports.
    run, before, after, took = measured(lambda: subprocess.run(  # noqa: PLW1510
        [str(Path(sys.executable).parent / "schemathesis"),
         "--config-file", str(folder / "schemathesis.toml"), "run",
         str(folder / "spec.json"), "--url", f"http://127.0.0.1:{server.port}",
         "-H", f"Authorization: {PLACEHOLDER}", "--workers", str(args.workers),
         "--max-time", str(int(args.minutes * 60)), "--exclude-checks", "ignored_auth",
         # A stream answers for as long as it is read: each would hold a worker for
         # the whole time-out (the tests' slice covers them with a short heartbeat).
         "--exclude-path-regex", "/stream$",
         "--continue-on-failure", "--request-timeout", "30", "--no-color"],
        cwd=folder, capture_output=True, text=True))
    (folder / "schemathesis.out").write_text(run.stdout + run.stderr)
    summary = (f"\nschemathesis's summary (all of it in {folder / 'schemathesis.out'}):\n"
               + "\n".join(run.stdout.strip().splitlines()[-25:]))
    return counting, summary, before, after, took


PLAYERS = 12
THREADS = 3
MOVE_SHARE = 0.15     # of the requests: a legal move in one of the player's games


def fuzz_spec(app, counting: Counting, spec: dict, args) -> str:
    """`bench.spec_fuzzer` from THREADS threads, each with its own players seated in games in
    progress (a player replaced once signed out or GAMES_A_PLAYER games on), until
    --requests or --minutes."""
    stop_at = time.monotonic() + args.minutes * 60
    moves = Counter()
    # Ids the answers told, shared by the threads; the game types and this month to begin with.
    types = [kind["type"] for kind in app.test_client().get("/api/v1/games/types").get_json()]
    seen: dict[str, list[str]] = {"type_name": types, "type": types,
                                  "month": [time.strftime("%Y-%m"), "2026-01"]}

    def seated_player(client) -> dict:
        made = client.post("/api/v1/players", json={"name": "Fuzz"})
        counting.count("POST", "/api/v1/players", made.status_code, False)
        answer = made.get_json()
        player = {"token": answer["token"], "id": answer["id"], "games": [], "made": 0}
        seen.setdefault("player_id", []).append(player["id"])
        for body in GAME_BODIES:
            made = client.post("/api/v1/games", json=body,
                               headers={"Authorization": f"Bearer {player['token']}"})
            counting.count("POST", "/api/v1/games", made.status_code, True)
            if made.status_code == 201:
                player["games"].append(made.get_json()["id"])
                counting.games += 1
        return player

    def move(client, fuzzer: SpecFuzzer, player: dict) -> None:
        if not player["games"]:
            return
        game = fuzzer.rng.choice(player["games"])
        headers = {"Authorization": f"Bearer {player['token']}"}
        view = client.get(f"/api/v1/games/{game}", headers=headers)
        counting.count("GET", f"/api/v1/games/{game}", view.status_code, True)
        body = view.get_json(silent=True) or {}
        if body.get("status") == "finished":
            player["games"].remove(game)
            moves["games finished"] += 1
            return
        if not body.get("legal_actions") or body.get("your_seat") not in body.get("to_act", ()):
            return
        answer = client.post(f"/api/v1/games/{game}/actions", headers=headers, json={
            "action": fuzzer.rng.choice(body["legal_actions"]), "version": body["version"]})
        counting.count("POST", f"/api/v1/games/{game}/actions", answer.status_code, True)
        moves[answer.status_code] += 1

    def run(seed: int) -> None:
        client = app.test_client()
        fuzzer = SpecFuzzer(spec, random.Random(seed), re.compile(r"/stream$"), seen)
        players = [seated_player(client) for _ in range(PLAYERS // THREADS)]
        while time.monotonic() < stop_at and counting.requests < args.requests:
            if fuzzer.rng.random() < MOVE_SHARE:
                move(client, fuzzer, fuzzer.rng.choice(players))
                continue
            drawn = fuzzer.request(players)
            kwargs = drawn["kwargs"]
            token = kwargs["headers"].get("Authorization", "")
            player = next((p for p in players if token == f"Bearer {p['token']}"), None)
            answer = client.open(**kwargs)
            counting.count(kwargs["method"], kwargs["path"], answer.status_code,
                           player is not None)
            body = answer.get_json(silent=True)
            if answer.status_code < 300 and body is not None:
                fuzzer.remember(body)
            if player is None:
                continue
            if kwargs["method"] == "POST" and kwargs["path"] == "/api/v1/games" and \
                    answer.status_code == 201:
                player["games"].append(body["id"])
                player["made"] += 1
                counting.games += 1
            if answer.status_code == 401 or player["made"] >= GAMES_A_PLAYER:
                counting.signed_out += answer.status_code == 401
                players[players.index(player)] = seated_player(client)

    threads = [threading.Thread(target=run, args=(args.seed * 100 + number,))
               for number in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return f"\nmoves of the players' seats: {dict(moves)}"


if __name__ == "__main__":
    main()
