"""Pairing a Swiss round of a large field: the time one round's pairing takes.

    python -m bench.tournament_pairing --players 256 --size 4 --rounds 7
    python -m bench.tournament_pairing --players 256 --size 4 --job

Plays a whole Swiss tournament of `--players` at `--size`-seat tables with made-up results (each
table's places drawn at random, seeded), pairing every round from the standings and the
table-mates met before (`api.tables.tournament_pairing`), and prints for each round the time
its pairing took (standings sorted and tables drawn) and how many pairs met again.

With `--job`, the first round as the worker pairs it instead, on a store (REDIS_URL, else an
embedded server of its own): the players registered and entered, then the one job that starts the
tournament, pairs its round and makes every table's game of 6 nimmt!, timed whole.
"""
from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from api.tables.tournament_pairing import (
    BOT, Record, places_of, standing_order, swiss_round, table_points,
)


def job(players: int, size: int) -> None:
    from api.settings import Settings
    from api.storage import connections
    from api.tables import Tables
    from bench.redis_for_bench import bench_redis_url
    with bench_redis_url() as url:
        settings = Settings.from_env()
        tables = Tables(connections.store_client({"REDIS_URL": url}), settings=settings)
        entrants = [tables.players.create(f"Player {index}") for index in range(players)]
        made = tables.tournaments.create(entrants[0], "Bench", "sixnimmt", size, rounds=7,
                                         cap=players, options={"threshold": 66})
        for entrant in entrants:
            tables.tournaments.join(made["id"], entrant)
        started, cpu = time.perf_counter(), time.process_time()
        status = tables.tournaments.move_on(made["id"])
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        shown = tables.tournaments.get(made["id"], None)
        games = [table["game_id"] for table in shown["rounds"][0]["tables"]]
        assert status == "running" and all(tables.games.find(game) for game in games)
        print(f"{players} players, {size}-seat tables: the job paired round 1 and made its "
              f"{len(games)} games in {took * 1000:.0f} ms ({cpu * 1000:.0f} ms of this "
              f"process's CPU; the store's own work and the machine's load make the rest)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--job", action="store_true",
                        help="time the worker's job of round 1 on a store instead")
    args = parser.parse_args()
    if args.job:
        job(args.players, args.size)
        return
    rng = random.Random(args.seed)
    records = {f"p{index:04d}": Record(rating=rng.gauss(25, 8)) for index in range(args.players)}
    met: dict[str, dict[str, int]] = {}
    times = []
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        tables = swiss_round(standing_order(records), args.size, met)
        took = time.perf_counter() - started
        times.append(took)
        repeats = 0
        for table in tables:
            scores = [rng.randrange(30) for _ in table]
            for seat, points in enumerate(table_points(places_of(scores, lower_wins=True))):
                if table[seat] is not BOT:
                    records[table[seat]].points += points
            players = [player for player in table if player is not BOT]
            for a, b in itertools.combinations(players, 2):
                repeats += bool(met.get(a, {}).get(b))
                met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
                met.setdefault(b, {})[a] = met.get(b, {}).get(a, 0) + 1
                records[a].met[b] = records[b].met[a] = met[a][b]
        print(f"round {number}: {len(tables)} tables paired in {took * 1000:.1f} ms, "
              f"{repeats} pairs met again")
    print(f"{args.players} players, {args.size}-seat tables: "
          f"median {statistics.median(times) * 1000:.1f} ms, most {max(times) * 1000:.1f} ms a round")


if __name__ == "__main__":
    main()
