"""Bot strength: seats of given levels play whole games through rules/ only.

    python -m bench.tournament sixnimmt --players 4 --seats hard,easy,easy,easy --games 200 \\
        --seconds 0.2 --jobs 2

Prints each level's mean score per game and per deal and how often it ranked
first (shared firsts count for each), with 95% confidence intervals. Levels
rotate round the table from game to game, so no level keeps a seat's
advantage. Seeds are fixed (game i uses seed i + --first-seed), so runs are
repeatable; `--seconds` or `--iterations` set the search bots' budget per
decision (default: each level's own).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module

from rules.search import Budget

RANDOM = "random"


def play_one(game_name: str, players: int, options: dict, levels: list[str], seed: int,
             budget: Budget | None) -> tuple[dict, int]:
    """The outcome of one game, and how many deals it took."""
    game = import_module(f"rules.{game_name}").GAME
    state = game.new_game(players, options, seed)
    bot_rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(players)]
    moves = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if levels[seat] == RANDOM:
            action = bot_rngs[seat].choice(legal)
        else:
            action = game.bot_action(game.view(state, seat), legal, levels[seat], bot_rngs[seat],
                                     budget)
        game.apply_action(state, seat, action)
        moves += 1
        if moves > 100_000:
            raise RuntimeError(f"game with seed {seed} does not end")
    return game.outcome(state), len(game.record(state)["deals"])


def mean_interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    spread = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, spread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True, help="comma-separated bot level per seat, or 'random'")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a game option, e.g. --option tactical_deck=true")
    parser.add_argument("--seconds", type=float, help="CPU seconds per search decision")
    parser.add_argument("--iterations", type=int, help="simulations per search decision")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args(argv)

    game = import_module(f"rules.{args.game}").GAME
    levels = args.seats.split(",")
    if len(levels) != args.players:
        parser.error("--seats must name one level per player")
    raw_options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    options = game.normalise_options(args.players, raw_options)
    budget = (Budget(seconds=args.seconds, iterations=args.iterations)
              if args.seconds is not None or args.iterations is not None else None)

    seatings = []
    for index in range(args.games):
        shift = index % args.players
        seatings.append((shift, levels[shift:] + levels[:shift]))
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(play_one, [args.game] * args.games, [args.players] * args.games,
                                [options] * args.games, [seated for _, seated in seatings],
                                [args.first_seed + i for i in range(args.games)],
                                [budget] * args.games))
    elapsed = time.perf_counter() - started

    scores = [[] for _ in levels]
    per_deal = [[] for _ in levels]
    firsts = [[] for _ in levels]
    for (shift, _), (outcome, deals) in zip(seatings, results):
        for seat in range(args.players):
            position = (seat + shift) % args.players
            scores[position].append(outcome["scores"][seat])
            per_deal[position].append(outcome["scores"][seat] / deals)
            firsts[position].append(1.0 if seat in outcome["winners"] else 0.0)

    print(f"{game.title}, {args.players} players, {args.games} games, options {options}, "
          f"budget {budget or 'level defaults'}, {elapsed:.1f} s")
    for position, level in enumerate(levels):
        mean, spread = mean_interval(scores[position])
        deal_mean, deal_spread = mean_interval(per_deal[position])
        first, first_spread = mean_interval(firsts[position])
        print(f"  position {position} ({level:>6}): score {mean:8.2f} ± {spread:.2f}   "
              f"per deal {deal_mean:7.2f} ± {deal_spread:.2f}   "
              f"first {100 * first:5.1f}% ± {100 * first_spread:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
