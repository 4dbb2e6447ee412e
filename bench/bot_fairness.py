"""One player's hard reply while others keep dozens of bot-heavy games busy, with the fair share
of the bots' time and, in the same run, without it (a share that never runs out).

    nice -n 10 python -m bench.bot_fairness [--attackers 4] [--games 5] [--seconds 60]

For each mode starts what `make run` starts (gunicorn and the workers of
`worker.layout.BOT_WORKERS`) against its own Redis. `--attackers` players each keep
`--games` games of 6 nimmt! going (10 seats: the player, 3 hard and 6 medium bots, no time
limit, the longest `threshold`) and resigns them at once, so that bots play every seat; with
`--attack play` they stay seated instead and answer every turn at once (3 hard bots a game, one
game after another), so that a human always waits on their bots.
Meanwhile one other player plays Sixty-six against a hard bot, thinking 2-4 s a move, and the
bench times each of that player's moves to the bot's reply (as `bench.bot_latency` does).
Prints the victim's reply p50 / p95 / max and the moves made in the attackers' games, per mode.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
from redis import Redis
from rq import Worker

from api.devtools.embedded_cluster import free_port
from api.tables import Tables
from bench.bot_latency import Human, Results, line
from bench.redis_for_bench import bench_redis_url
from bench.starting import wait_until_ready
from worker.layout import BOT_WORKERS

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ATTACK_SEATS = ["human"] + [{"bot": "hard"}] * 3 + [{"bot": "medium"}] * 6
MODES = {"without a share": str(10 ** 9), "with the fair share": None}


def attack(base: str, token: str, game_ids: list[str]) -> None:
    """Resigns every game at once: stand-in bots play all ten seats from then on."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    for game_id in game_ids:
        session.post(f"{base}/api/v1/games/{game_id}/resign", timeout=30)


def run_mode(url: str, share: str | None, args) -> tuple[Results, str]:
    redis = Redis.from_url(url)
    redis.flushdb()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    logs = Path(tempfile.mkdtemp(prefix="bench-fairness-"))
    env = {**os.environ, "REDIS_URL": url, "HOST": "127.0.0.1", "PORT": str(port),
           "LOG_LEVEL": "WARNING", "PROMETHEUS_MULTIPROC_DIR": str(logs)}
    if share:
        env["POYTA_BOT_SECONDS_A_MINUTE"] = share
    argvs = [[str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.http:create_app()"]]
    argvs += [worker.argv(sys.executable) for worker in BOT_WORKERS]
    children = [subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL) for argv in argvs]
    stop = threading.Event()
    try:
        wait_until_ready(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200
                         and len(Worker.all(connection=redis)) >= len(BOT_WORKERS),
                         "the processes did not start", pause=0.2)
        service = Tables(redis)
        attack_games, threads = [], []
        attackers = Results(time.monotonic(), args.warmup)
        for index in range(args.attackers):
            player = service.players.create(f"Attacker {index}")
            if args.attack == "play":
                threads += [threading.Thread(target=Human(
                    base, service, player, player.token, ("sixnimmt", 4), "hard", (0.0, 0.1),
                    seed=index * args.games + game, results=attackers, stop=stop).play,
                    daemon=True) for game in range(args.games)]
                continue
            games = [service.seating.create_game(player, "sixnimmt", len(ATTACK_SEATS),
                                                 {"threshold": 200}, ATTACK_SEATS,
                                                 pace="none").id
                     for _ in range(args.games)]
            attack(base, player.token, games)
            attack_games += games
        victim = service.players.create("Victim")
        results = Results(time.monotonic(), args.warmup)
        human = Human(base, service, victim, victim.token, ("sixtysix", 2), "hard",
                      (2.0, 4.0), seed=1, results=results, stop=stop)
        threads.append(threading.Thread(target=human.play, daemon=True))
        for thread in threads:
            thread.start()
        time.sleep(args.warmup + args.seconds)
        stop.set()
        versions = [service.storage.games.load(game_id) for game_id in attack_games]
        if args.attack == "play":
            return results, f"the attackers' turns answered: {len(attackers.samples)}"
        return results, f"moves in the attackers' games: {sum(r.version for r in versions if r)}"
    finally:
        stop.set()
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--games", type=int, default=5, help="games per attacker")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--attack", choices=("resign", "play"), default="resign")
    args = parser.parse_args()
    print(f"{args.attackers} players with {args.games} bot-heavy 6 nimmt! games each "
          f"({'resigned' if args.attack == 'resign' else 'played at once'}); "
          f"one other player's Sixty-six against hard, {args.seconds:g} s after {args.warmup:g} s")
    print(f"{'':<34}{'moves':>6}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    with bench_redis_url() as url:
        for mode, share in MODES.items():
            results, attackers = run_mode(url, share, args)
            replies = [s.settled for s in results.samples if s.settled is not None]
            print(f"hard reply, {mode:<22}{line('', replies)[22:]}   "
                  f"({attackers})")


if __name__ == "__main__":
    main()
