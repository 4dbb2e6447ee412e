"""Bot strength: seats of given levels play whole games through rules/ only.

    nice -n 10 python -m bench.tournament sixnimmt --players 4 \\
        --seats hard,hard,baseline,baseline --games 200 --seconds 0.05

Prints, for each level (its seats pooled), the mean score per game and per deal, how
often one of its seats ranked first against its fair share (shared firsts count), and
the CPU it spent per decision; where lower scores win, each level's mean score as a
ratio of every other's. All with 95% intervals: normal ones over games for means and
rates, a paired bootstrap over games for ratios. Levels rotate round the table from
game to game, so no level keeps a seat's advantage. Seeds are fixed (game i uses seed
i + --first-seed), so the deals are repeatable; with `--record FILE` each finished game
is appended to FILE as it ends and a rerun with the same arguments plays only the games
missing from it (a long line survives being stopped). `--seconds` or `--iterations` set the
search levels' budget per decision (default: each level's own); `--scale F` gives each level
its own default budget times F instead (medium and hard as they are meant to differ, on a
shorter clock). Besides a game's bot
levels, a seat may be `random` or one of the game's benchmark-only levels
(`BENCHMARK_LEVELS` in its search module, e.g. 6 nimmt!'s `baseline`).
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

from rules import GAMES
from rules.search import DEFAULT_BUDGETS, Budget

RANDOM = "random"
BOOTSTRAP_SAMPLES = 2000


def benchmark_levels(game_name: str) -> dict:
    """The benchmark-only levels in the search module of the game's package, if any."""
    package = type(GAMES[game_name]).__module__.rpartition(".")[0]
    try:
        return import_module(f"{package}.search").BENCHMARK_LEVELS
    except (ImportError, AttributeError):
        return {}


def default_budget(level: str, extra: dict) -> Budget | None:
    """A level's budget when none is given: a bot level's default, or the `default_budget` a
    benchmark level carries (an ablation of hard thinks on hard's clock); None for the others,
    which keep their own (6 nimmt!'s baseline its simulations a card)."""
    return DEFAULT_BUDGETS.get(level) or getattr(extra.get(level), "default_budget", None)


def play_one(game_name: str, players: int, options: dict, levels: list[str], seed: int,
             budget: Budget | dict | None) -> tuple[dict, int, list[float], list[int]]:
    """The outcome of one game, how many deals it took, and each seat's CPU seconds and
    decisions; `budget` is one for every level or a Budget per level."""
    game = GAMES[game_name]
    extra = benchmark_levels(game_name)
    state = game.new_game(players, options, seed, recording=True)
    bot_rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(players)]
    thinking = [0.0] * players
    decisions = [0] * players
    moves = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        level = levels[seat]
        budget_now = budget.get(level) if isinstance(budget, dict) else budget
        started = time.process_time()
        if level == RANDOM:
            action = bot_rngs[seat].choice(legal)
        elif level in extra:
            action = extra[level](game.view(state, seat), legal, bot_rngs[seat],
                                  budget_now or default_budget(level, extra) or Budget())
        else:
            action = game.bot_action(game.view(state, seat), legal, level, bot_rngs[seat],
                                     budget_now)
        thinking[seat] += time.process_time() - started
        decisions[seat] += 1
        game.apply_action(state, seat, action)
        moves += 1
        if moves > 100_000:
            raise RuntimeError(f"game with seed {seed} does not end")
    return game.outcome(state), len(game.record(state)["deals"]), thinking, decisions


def read_record(path: str, line: dict) -> dict:
    """Games of this same line already in the record, by seed."""
    games = {}
    try:
        with open(path) as record:
            for text in record:
                entry = json.loads(text)
                if all(entry[key] == value for key, value in line.items()):
                    games[entry["seed"]] = tuple(entry["result"])
    except FileNotFoundError:
        pass
    return games


def seating(seats: list[str], index: int) -> list[str]:
    """The levels of game `index` of a run (0 for its first seed), turned one seat a game."""
    shift = index % len(seats)
    return seats[shift:] + seats[:shift]


def play_line(game_name: str, players: int, options: dict, seatings: list[list[str]],
              seeds: list[int], budget, jobs: int, record: str | None, line: dict
              ) -> tuple[dict, list[int]]:
    """Every game of a line by seed, those not yet in `record` played `jobs` at a time and
    appended to it as each ends; and the indices of the games played now."""
    recorded = read_record(record, line) if record else {}
    missing = [i for i in range(len(seeds)) if seeds[i] not in recorded]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        played = pool.map(play_one, [game_name] * len(missing), [players] * len(missing),
                          [options] * len(missing), [seatings[i] for i in missing],
                          [seeds[i] for i in missing], [budget] * len(missing))
        for index, result in zip(missing, played):
            recorded[seeds[index]] = result
            if record:
                with open(record, "a") as out:
                    out.write(json.dumps({**line, "seed": seeds[index], "result": result}) + "\n")
    return recorded, missing


def mean_interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    spread = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, spread


def ratio_interval(numerators: list[float], denominators: list[float]) -> tuple[float, float, float]:
    """sum(numerators) / sum(denominators), and its 95% interval by a paired bootstrap over
    games (a fixed resampling seed, so a rerun prints the same interval)."""
    count = len(numerators)
    rng = random.Random(0)
    ratios = []
    for _ in range(BOOTSTRAP_SAMPLES):
        picks = [rng.randrange(count) for _ in range(count)]
        below = sum(denominators[i] for i in picks)
        if below:
            ratios.append(sum(numerators[i] for i in picks) / below)
    ratios.sort()
    low = ratios[int(0.025 * len(ratios))]
    high = ratios[int(0.975 * len(ratios)) - 1]
    return sum(numerators) / sum(denominators), low, high


def option_values(pairs: list[str]) -> dict:
    """`--option NAME=JSON` arguments as a dict of game options."""
    return {name: json.loads(value) for name, value in (pair.split("=", 1) for pair in pairs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True,
                        help="comma-separated level per seat: a bot level, a benchmark level, "
                             "or 'random'")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a game option, e.g. --option tactical_deck=true")
    parser.add_argument("--seconds", type=float, help="CPU seconds per search decision")
    parser.add_argument("--iterations", type=int, help="simulations per search decision")
    parser.add_argument("--scale", type=float,
                        help="each search level's default CPU seconds times this factor")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--record", help="JSON-lines file of finished games, resumed from")
    args = parser.parse_args(argv)

    game = GAMES[args.game]
    seats = args.seats.split(",")
    if len(seats) != args.players:
        parser.error("--seats must name one level per player")
    known = {bot.name for bot in game.bot_levels} | set(benchmark_levels(args.game)) | {RANDOM}
    unknown = sorted(set(seats) - known)
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)}; {game.title} has {sorted(known)}")
    options = game.normalise_options(args.players, option_values(args.option))
    budget = (Budget(seconds=args.seconds, iterations=args.iterations)
              if args.seconds is not None or args.iterations is not None else None)
    if args.scale is not None:
        if budget is not None:
            parser.error("--scale replaces --seconds and --iterations")
        extra = benchmark_levels(args.game)
        budget = {level: Budget(seconds=own.seconds * args.scale) for level in dict.fromkeys(seats)
                  if (own := default_budget(level, extra)) and own.seconds}

    seatings = [seating(seats, index) for index in range(args.games)]
    seeds = [args.first_seed + i for i in range(args.games)]
    line = {"game": args.game, "seats": seats, "options": options,
            "budget": (None if budget is None else ["scale", args.scale] if args.scale is not None
                       else [budget.seconds, budget.iterations])}
    started = time.perf_counter()
    recorded, missing = play_line(args.game, args.players, options, seatings, seeds, budget,
                                  args.jobs, args.record, line)
    elapsed = time.perf_counter() - started
    results = [recorded[seed] for seed in seeds]

    levels = list(dict.fromkeys(seats))
    # Per game and level: the mean score of its seats, per deal too, whether one of them
    # ranked first; and the CPU and decisions of its seats summed over the games.
    scores = {level: [] for level in levels}
    per_deal = {level: [] for level in levels}
    firsts = {level: [] for level in levels}
    cpu = {level: 0.0 for level in levels}
    decided = {level: 0 for level in levels}
    for seated, (outcome, deals, thinking, decisions) in zip(seatings, results):
        for level in levels:
            mine = [seat for seat, name in enumerate(seated) if name == level]
            mean = statistics.fmean(outcome["scores"][seat] for seat in mine)
            scores[level].append(mean)
            per_deal[level].append(mean / deals)
            firsts[level].append(1.0 if set(mine) & set(outcome["winners"]) else 0.0)
            cpu[level] += sum(thinking[seat] for seat in mine)
            decided[level] += sum(decisions[seat] for seat in mine)

    if isinstance(budget, dict):
        described = f"each level's default times {args.scale} (" + ", ".join(
            f"{level} {seconds.seconds:g} s" for level, seconds in budget.items()) + ")"
    elif budget is None:
        extra = benchmark_levels(args.game)
        described = "each level's default (" + ", ".join(
            f"{level} {own}" for level in levels if (own := default_budget(level, extra))) + ")"
    else:
        described = str(budget)
    print(f"{game.title}, {args.players} players, seats {args.seats}, {args.games} games "
          f"(seeds {args.first_seed}-{args.first_seed + args.games - 1}), options {options}, "
          f"budget {described}, {len(missing)} games played in {elapsed:.0f} s")
    for level in levels:
        mean, spread = mean_interval(scores[level])
        deal_mean, deal_spread = mean_interval(per_deal[level])
        first, first_spread = mean_interval(firsts[level])
        fair = seats.count(level) / args.players
        print(f"  {level:>8} x{seats.count(level)}: score {mean:8.2f} ± {spread:.2f}   "
              f"per deal {deal_mean:7.2f} ± {deal_spread:.2f}   "
              f"first {100 * first:5.1f}% ± {100 * first_spread:.1f} (fair {100 * fair:.0f}%)   "
              f"{1000 * cpu[level] / max(decided[level], 1):6.1f} ms CPU per decision")
    if game.lower_score_wins:
        for level in levels:
            for other in levels:
                if other != level:
                    ratio, low, high = ratio_interval(scores[level], scores[other])
                    print(f"  {level} / {other} mean score: {ratio:.3f} "
                          f"(95% interval {low:.3f}-{high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
