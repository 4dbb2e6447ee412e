"""Strength per CPU-second: one search level at several budgets against fixed opponents.

    nice -n 15 python -m bench.strength_curve sixnimmt --players 4 --against baseline \\
        --option threshold=1 --budgets 0.01,0.03,0.1,0.3,1 --games 200 --jobs 2 \\
        --record curve.jsonl

Seat 0's level (`--level`, default hard) thinks the given CPU seconds a decision; every other
seat is `--against` (easy, or a benchmark level such as 6 nimmt!'s `baseline`) at its own
default. Levels rotate round the table and game i uses seed i at every budget, so the points
are paired by seed. Per budget it prints, with 95% intervals: where lower scores win, the
level's mean score as a ratio of the opponents' (paired bootstrap over games); otherwise how
often it was first (against its fair share) and its points a game over the opponents' mean;
and the CPU it spent a decision. The knee is the smallest budget whose estimate lies inside
the interval of the plateau's point (the largest budget's, or `--plateau`'s): the default to
choose. `--record` keeps finished games as bench.tournament does, so a stopped curve resumes.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.tournament import mean_interval, option_values, play_line, ratio_interval
from rules import GAMES
from rules.search import Budget


def point(game, results: list, seatings: list[list[str]], level: str) -> dict:
    """The level's figures over the games of one budget."""
    mine_scores, other_scores, firsts, cpu, decided = [], [], [], 0.0, 0
    for seated, (outcome, _deals, thinking, decisions) in zip(seatings, results):
        seat = seated.index(level)
        scores = outcome["scores"]
        mine_scores.append(scores[seat])
        other_scores.append(statistics.fmean(s for i, s in enumerate(scores) if i != seat))
        firsts.append(1.0 if seat in outcome["winners"] else 0.0)
        cpu += thinking[seat]
        decided += decisions[seat]
    figures = {"cpu_ms": 1000 * cpu / max(decided, 1),
               "first": mean_interval(firsts),
               "margin": mean_interval([m - o for m, o in zip(mine_scores, other_scores)])}
    if game.lower_score_wins:
        ratio, low, high = ratio_interval(mine_scores, other_scores)
        figures["estimate"], figures["interval"] = ratio, (low, high)
    else:
        first, spread = figures["first"]
        figures["estimate"], figures["interval"] = first, (first - spread, first + spread)
    return figures


def knee(budgets: list[float], figures: list[dict], plateau: float) -> float:
    """The smallest budget whose estimate lies inside the interval of the plateau's point."""
    low, high = figures[budgets.index(plateau)]["interval"]
    return next(budget for budget, figure in zip(budgets, figures)
                if low <= figure["estimate"] <= high or budget == plateau)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", default="easy")
    parser.add_argument("--budgets", default="0.01,0.03,0.1,0.3,1",
                        help="comma-separated CPU seconds a decision; SECONDS:GAMES plays "
                             "fewer games at that budget (its interval widens)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plateau", type=float,
                        help="the budget whose point stands for the plateau (default: the "
                             "largest; name a smaller one when the largest has few games)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--record", help="JSON-lines file of finished games, resumed from")
    args = parser.parse_args(argv)

    game = GAMES[args.game]
    options = game.normalise_options(args.players, option_values(args.option))
    seats = [args.level] + [args.against] * (args.players - 1)
    # Game i seats the level at seat i mod players.
    points = [(float(seconds), int(games or args.games)) for seconds, _, games in
              (budget.partition(":") for budget in args.budgets.split(","))]
    seatings = [seats[-(i % args.players):] + seats[:-(i % args.players)]
                for i in range(max(games for _, games in points))]
    budgets = [seconds for seconds, _ in points]
    figures = []
    print(f"{game.title}, {args.players} players, {args.level} against {args.against}, "
          f"seeds from 1, options {options}")
    print(f"| {args.level}'s CPU a decision | "
          + ("mean score against the others' (ratio)" if game.lower_score_wins
             else "first (fair share)") + " | points a game over the others | CPU measured |")
    print("| --- | --- | --- | --- |")
    for seconds, games in points:
        seeds = list(range(1, games + 1))
        budget = {args.level: Budget(seconds=seconds)}
        line = {"game": args.game, "seats": seats, "options": options,
                "budget": [args.level, seconds]}
        started = time.perf_counter()
        recorded, missing = play_line(args.game, args.players, options, seatings[:games], seeds,
                                      budget, args.jobs, args.record, line)
        figure = point(game, [recorded[seed] for seed in seeds], seatings[:games], args.level)
        figures.append(figure)
        low, high = figure["interval"]
        first, first_spread = figure["first"]
        margin, margin_spread = figure["margin"]
        shown = (f"{figure['estimate']:.3f}x ({low:.3f}-{high:.3f}); first "
                 f"{100 * first:.1f}% ± {100 * first_spread:.1f}" if game.lower_score_wins
                 else f"{100 * first:.1f}% ± {100 * first_spread:.1f} "
                      f"({100 / args.players:.1f}%)")
        print(f"| {seconds:g} s, {games} games | {shown} | {margin:+.2f} ± {margin_spread:.2f} "
              f"| {figure['cpu_ms']:.1f} ms ({len(missing)} games in "
              f"{time.perf_counter() - started:.0f} s) |", flush=True)
    plateau = budgets[-1] if args.plateau is None else args.plateau
    print(f"knee (the smallest budget inside the interval of the {plateau:g} s point): "
          f"{knee(budgets, figures, plateau):g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
