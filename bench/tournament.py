"""Bot strength: seats of given levels play whole games through rules/ only.

    python -m bench.tournament sixnimmt --players 4 --seats easy,random,random,random --games 200

Prints each seat's mean score and how often it ranked first (shared firsts count
for each), with 95% confidence intervals, and the ratio against the other seats.
Seeds are fixed (game i uses seed i + --first-seed), so runs are repeatable.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from importlib import import_module

RANDOM = "random"


def play_one(game, players: int, options: dict, levels: list[str], seed: int) -> dict:
    state = game.new_game(players, options, seed)
    bot_rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(players)]
    moves = 0
    while game.outcome(state) is None:
        for seat in list(game.to_act(state)):
            if seat not in game.to_act(state):
                continue
            legal = game.legal_actions(state, seat)
            if levels[seat] == RANDOM:
                action = bot_rngs[seat].choice(legal)
            else:
                action = game.bot_action(game.view(state, seat), legal, levels[seat], bot_rngs[seat])
            game.apply_action(state, seat, action)
            moves += 1
            if moves > 100_000:
                raise RuntimeError(f"game with seed {seed} does not end")
    return game.outcome(state)


def mean_interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    spread = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, spread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True, help="comma-separated bot level per seat, or 'random'")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a game option, e.g. --option tactical_deck=true")
    args = parser.parse_args(argv)

    import json
    game = import_module(f"rules.{args.game}").GAME
    levels = args.seats.split(",")
    if len(levels) != args.players:
        parser.error("--seats must name one level per player")
    raw_options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    options = game.normalise_options(args.players, raw_options)

    scores = [[] for _ in range(args.players)]
    firsts = [[] for _ in range(args.players)]
    started = time.perf_counter()
    for index in range(args.games):
        # Rotate the levels round the table so no level keeps a seat's advantage.
        shift = index % args.players
        seated = levels[shift:] + levels[:shift]
        outcome = play_one(game, args.players, options, seated, args.first_seed + index)
        for seat, level_index in enumerate(range(shift, shift + args.players)):
            original = level_index % args.players
            scores[original].append(outcome["scores"][seat])
            firsts[original].append(1.0 if seat in outcome["winners"] else 0.0)
    elapsed = time.perf_counter() - started

    print(f"{game.title}, {args.players} players, {args.games} games, options {options}, "
          f"{elapsed:.1f} s")
    for position, level in enumerate(levels):
        mean, spread = mean_interval(scores[position])
        first, first_spread = mean_interval(firsts[position])
        print(f"  position {position} ({level:>6}): mean score {mean:8.2f} ± {spread:.2f}   "
              f"first {100 * first:5.1f}% ± {100 * first_spread:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
