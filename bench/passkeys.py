"""Passkey ceremonies over the HTTP API, on a real Redis (REDIS_URL, else an embedded Valkey of
its own), with the tests' software authenticator (ES256):

    python -m bench.passkeys [--rounds 200]

Registers one passkey for each of `--rounds` players, then signs each in on a new device; prints
the wall time of each ceremony (its two calls: options, then the answer) and the Redis commands
one sign-in costs, budgets included (the server's command counts before and after).
"""
from __future__ import annotations

import argparse
import statistics
import time

from redis import Redis

from api.http import create_app
from bench.redis_for_bench import bench_redis_url
from tests.api.authenticator import Authenticator

UNLIMITED = {"create_player": "1000000/minute", "passkey_signin": "1000000/minute",
             "passkey_registration": "1000000/minute"}


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    return (f"median {statistics.median(ordered) * 1000:.2f} ms, "
            f"p95 {ordered[int(len(ordered) * 0.95) - 1] * 1000:.2f} ms")


def commands(redis: Redis) -> int:
    return sum(stat["calls"] for name, stat in redis.info("commandstats").items()
               if name != "cmdstat_info")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    with bench_redis_url() as url:
        redis = Redis.from_url(url)
        redis.flushdb()
        app = create_app({"REDIS_URL": url, "RQ_REDIS_URL": url, "RATE_LIMITS": UNLIMITED})
        client = app.test_client()
        origin = app.extensions["poyta"].passkeys.origin
        held, registering, signing_in, costs = [], [], [], []
        for _ in range(rounds):
            token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            authenticator = Authenticator()
            started = time.perf_counter()
            options = client.post("/api/v1/players/me/passkey-registration/options",
                                  headers=headers).get_json()
            added = client.post("/api/v1/players/me/passkeys", headers=headers, json={
                "credential": authenticator.create(options, origin)})
            registering.append(time.perf_counter() - started)
            assert added.status_code == 201, added.get_json()
            held.append(authenticator)
        for authenticator in held:
            before = commands(redis)
            started = time.perf_counter()
            options = client.post("/api/v1/players/passkey-signin/options").get_json()
            signed_in = client.post("/api/v1/players/passkey-signin", json={
                "credential": authenticator.get(options, origin)})
            signing_in.append(time.perf_counter() - started)
            costs.append(commands(redis) - before)
            assert signed_in.status_code == 201, signed_in.get_json()
        print(f"registration ({rounds}): {ms(registering)}")
        print(f"sign-in ({rounds}): {ms(signing_in)}")
        print(f"Redis commands a sign-in: {min(costs)}-{max(costs)}")


if __name__ == "__main__":
    main()
