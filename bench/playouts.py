"""Random playouts per second through rules/, the loop search bots will run.

    python -m bench.playouts [--seconds 3]

For each game: whole random games per second, actions per second, and the same
loop with a JSON round trip of the state after every action as the in-run
baseline (what a naive copy-per-step search would pay); the ratio holds on a
noisy machine where absolute numbers do not.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from rules import GAMES


def playouts(game, players: int, seconds: float, round_trip: bool) -> tuple[int, int, float]:
    rng = random.Random(7)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_game(players, game.normalise_options(players, {}), rng.randrange(2**62))
        while game.outcome(state) is None:
            seat = rng.choice(game.to_act(state))
            game.apply_action(state, seat, rng.choice(game.legal_actions(state, seat)))
            actions += 1
            if round_trip:
                state = json.loads(json.dumps(state))
        games += 1
    return games, actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'game':<12}{'players':>8}{'games/s':>10}{'actions/s':>12}"
          f"{'actions/s with JSON copy':>26}{'ratio':>8}")
    for name, game in GAMES.items():
        players = min(max(4, game.min_players), game.max_players)
        games, actions, elapsed = playouts(game, players, args.seconds, round_trip=False)
        _, copied_actions, copied_elapsed = playouts(game, players, args.seconds, round_trip=True)
        rate, copied_rate = actions / elapsed, copied_actions / copied_elapsed
        print(f"{name:<12}{players:>8}{games / elapsed:>10.1f}{rate:>12.0f}"
              f"{copied_rate:>26.0f}{rate / copied_rate:>8.1f}")


if __name__ == "__main__":
    main()
