"""Pairing seeks into tables (`api.tables.matching.pair`), no Redis:

    python -m bench.matchmaking [--seeks 10000] [--day-seeks 5000] [--seed 1]

First one round over `--seeks` open seeks spread over every game type and its player counts
(one to three types each, one or two paces, a fifth with a rating window, a tenth with bot
fill, a few blocks): the CPU time of the round and the tables it formed. Then a simulated day:
`--day-seeks` arrivals spread over 24 hours, a pairing round each minute as the worker's
sweeper runs it, and how long the seeks that were seated waited (median, 90th percentile,
most), per game type, with those still waiting at the end.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from api.tables.matching import BotFill, Pool, Seek, pair
from rules import GAMES

SIZES = {name: (game.min_players, game.max_players) for name, game in GAMES.items()}
PACES = ("1h", "1d", "3d")
GRACE = 600.0
ROUND_SECONDS = 60.0


def random_seek(rng: random.Random, number: int, created: float, players: int) -> Seek:
    types = rng.sample(sorted(SIZES), rng.choice((1, 1, 2, 3)))
    low = max(SIZES[kind][0] for kind in types)
    high = min(SIZES[kind][1] for kind in types)
    if low > high:
        types, (low, high) = types[:1], SIZES[types[0]]
    fewest = rng.randint(low, min(high, low + 2))
    most = rng.randint(fewest, min(high, fewest + 2))
    windowed = rng.random() < 0.2
    return Seek(f"s{number}", f"p{rng.randrange(players)}", created,
                {kind: None for kind in types}, fewest, most,
                tuple(rng.sample(PACES, rng.choice((1, 2)))), rated=rng.random() < 0.7,
                ratings={kind: rng.gauss(10, 8) for kind in types},
                window=rng.choice((5.0, 10.0)) if windowed else None,
                bot_fill=BotFill("medium", 3600.0) if rng.random() < 0.1 else None)


def blocks_among(rng: random.Random, players: int) -> dict[str, frozenset[str]]:
    return {f"p{n}": frozenset(f"p{rng.randrange(players)}" for _ in range(3))
            for n in rng.sample(range(players), players // 20)}


def one_round(count: int, seed: int) -> None:
    rng = random.Random(seed)
    players = count * 2
    now = 1_000_000.0
    seeks = [random_seek(rng, n, now - rng.uniform(0, 7200), players) for n in range(count)]
    pool = Pool(SIZES, GRACE, blocks_among(rng, players))
    started = time.process_time()
    tables = pair(seeks, now, pool)
    cpu = time.process_time() - started
    seated = sum(len(table.players) for table in tables)
    print(f"one round over {count} open seeks: {cpu:.3f} s of CPU, {len(tables)} tables, "
          f"{seated} seeks seated, {sum(table.bots for table in tables)} bot seats")


def one_day(arrivals: int, seed: int) -> None:
    rng = random.Random(seed)
    players = max(arrivals // 3, 10)
    times = sorted(rng.uniform(0, 86400) for _ in range(arrivals))
    pool = Pool(SIZES, GRACE, blocks_among(rng, players))
    open_seeks: dict[str, Seek] = {}
    waits: dict[str, list[float]] = defaultdict(list)
    partners: dict[str, set[str]] = defaultdict(set)
    arrived, cpu_most, number = 0, 0.0, 0
    now = 0.0
    while now <= 86400:
        while arrived < len(times) and times[arrived] <= now:
            seek = random_seek(rng, number, times[arrived], players)
            number += 1
            arrived += 1
            if seek.player not in {other.player for other in open_seeks.values()}:
                open_seeks[seek.id] = seek
        round_pool = Pool(pool.sizes, pool.grace, pool.blocks,
                          {player: frozenset(mates) for player, mates in partners.items()})
        started = time.process_time()
        tables = pair(list(open_seeks.values()), now, round_pool)
        cpu_most = max(cpu_most, time.process_time() - started)
        for table in tables:
            for seek_id in table.seeks:
                waits[table.game_type].append(now - open_seeks.pop(seek_id).created)
            for player in table.players:
                partners[player] |= set(table.players) - {player}
        now += ROUND_SECONDS
    print(f"a simulated day: {number} seeks arrived, a round each {ROUND_SECONDS:.0f} s, "
          f"grace {GRACE:.0f} s, the slowest round {cpu_most * 1000:.1f} ms of CPU")
    for game_type, waited in sorted(waits.items()):
        waited.sort()
        print(f"  {game_type:9} {len(waited):5} seated, waited median "
              f"{statistics.median(waited) / 60:5.1f} min, 90% {waited[int(len(waited) * .9)] / 60:5.1f} "
              f"min, most {waited[-1] / 60:6.1f} min")
    print(f"  still waiting at the end of the day: {len(open_seeks)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeks", type=int, default=10_000)
    parser.add_argument("--day-seeks", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    one_round(args.seeks, args.seed)
    one_day(args.day_seeks, args.seed)


if __name__ == "__main__":
    main()
