"""What the analysis of a finished game (rules/analysis.py) costs, how stable its verdicts are
against its budget, and whether it tells the bots' levels apart.

    nice -n 10 python -m bench.analysis cost --games 4
    nice -n 10 python -m bench.analysis stability --games 4 --budgets 0.01,0.03,0.1,0.3
    nice -n 10 python -m bench.analysis levels --games 50 --jobs 2

Every game is one of the game's quickest whole games (`Game.quick_options`: one deal, round or
hand), played by bots from fixed seeds; `--whole` plays the game's default options instead.
`cost` plays games with medium bots at the game's fewest, typical and most players and reviews
them at the default budget: CPU seconds per reviewed game, the evaluations, and reviews a worker
serves per hour.
`stability` reviews the same games twice with different seeds at each budget (CPU seconds an
evaluation): how often the two runs name the same best action, and how far the seats' losses
per decision differ. `levels` seats easy and hard bots alternately (hard at its default clock,
or `--hard-iterations`) and compares their expected loss per decision, with 95% intervals.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rules import GAMES
from rules.analysis import EVALUATION_SECONDS, Record, analysable, evaluation_budget, review
from rules.search import Budget

GAME_SECONDS = 60.0  # api.settings' default analysis budget a game


def played(name: str, players: int, seed: int, levels: list[str],
           budget: Budget | None = None, whole: bool = False) -> Record:
    game = GAMES[name]
    options = game.normalise_options(players, {} if whole else game.quick_options)
    state = game.new_game(players, options, seed)
    rng = random.Random(f"bot:{seed}")
    actions = []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = game.bot_action(game.view(state, seat), legal, levels[seat], rng, budget)
        actions.append({"seat": seat, "action": action})
        game.apply_action(state, seat, action)
    return Record(players, options, seed, actions)


def cost_of(name: str, players: int, seed: int, game_seconds: float,
            whole: bool) -> tuple[float, int]:
    game = GAMES[name]
    record = played(name, players, seed, ["medium"] * players, Budget(iterations=200), whole)
    started = time.process_time()
    budget, evaluations = evaluation_budget(game, record, game_seconds)
    review(game, record, budget, seed)
    return time.process_time() - started, evaluations


def player_counts(name: str) -> list[int]:
    game = GAMES[name]
    return sorted({game.min_players, game.typical_players, game.max_players})


def cost(args, pool) -> None:
    print(f"default budget: {args.game_seconds:g} CPU s a game, at most "
          f"{EVALUATION_SECONDS:g} s an evaluation")
    print("game       players  CPU s/game (mean, max)  evaluations  reviews/worker-hour")
    for name in names(args):
        for players in [args.players] if args.players else player_counts(name):
            runs = list(pool.map(cost_of, *zip(*[(name, players, seed, args.game_seconds,
                                                  args.whole)
                                                 for seed in range(1, args.games + 1)])))
            seconds = [spent for spent, _ in runs]
            mean = statistics.fmean(seconds)
            print(f"{name:10} {players:7}  {mean:8.2f}, {max(seconds):6.2f}"
                  f"          {statistics.fmean(n for _, n in runs):8.1f}"
                  f"     {3600 / mean:10.0f}")


def twice(name: str, seed: int, seconds: float) -> tuple[float, list[float], list[float]]:
    """Two reviews of one game with different seeds: the share of decisions whose best they
    agree on, and each seat's loss per decision in each."""
    game = GAMES[name]
    players = game.typical_players
    record = played(name, players, seed, ["medium"] * players, Budget(iterations=200))
    budget = Budget(seconds=seconds)
    first, second = (review(game, record, budget, seed + run) for run in (0, 1000))
    agree = total = 0
    for one, other in zip(first.seats, second.seats):
        for a, b in zip(one.choices, other.choices):
            agree += a.best == b.best
            total += 1
    return (agree / total if total else 1.0,
            [seat.accuracy or 0.0 for seat in first.seats],
            [seat.accuracy or 0.0 for seat in second.seats])


def stability(args, pool) -> None:
    budgets = [float(value) for value in args.budgets.split(",")]
    print("game       s/evaluation  same best  |loss per decision, run 1 - run 2|")
    for name in names(args):
        for seconds in budgets:
            runs = list(pool.map(twice, *zip(*[(name, seed, seconds)
                                               for seed in range(1, args.games + 1)])))
            agree = statistics.fmean(share for share, _, _ in runs)
            gaps = [abs(a - b) for _, first, second in runs for a, b in zip(first, second)]
            print(f"{name:10} {seconds:12g}  {agree:8.1%}   {statistics.fmean(gaps):.3f}")


def levels_of(name: str, seed: int, hard_iterations: int | None,
              seconds: float) -> dict[str, tuple[float, int]]:
    game = GAMES[name]
    players = game.typical_players
    levels = (["easy", "hard"] * players)[:players]
    if seed % 2:
        levels = levels[1:] + levels[:1]  # each level in each seat
    budget = Budget(iterations=hard_iterations) if hard_iterations else None
    record = played(name, players, seed, levels, budget)
    lost: dict[str, tuple[float, int]] = {"easy": (0.0, 0), "hard": (0.0, 0)}
    for seat in review(game, record, Budget(seconds=seconds), seed).seats:
        total, count = lost[levels[seat.seat]]
        lost[levels[seat.seat]] = (total + seat.total_loss, count + len(seat.choices))
    return lost


def levels(args, pool) -> None:
    print(f"loss per decision, reviewed at {args.seconds:g} s an evaluation "
          f"({args.games} games a line)")
    print("game       players  easy            hard            hard - easy")
    for name in names(args):
        runs = list(pool.map(levels_of, *zip(*[(name, seed, args.hard_iterations, args.seconds)
                                               for seed in range(1, args.games + 1)])))
        per_game = {level: [run[level][0] / run[level][1] for run in runs if run[level][1]]
                    for level in ("easy", "hard")}
        easy, hard = (_interval(per_game[level]) for level in ("easy", "hard"))
        gap = _interval([run["hard"][0] / run["hard"][1] - run["easy"][0] / run["easy"][1]
                         for run in runs if run["hard"][1] and run["easy"][1]])
        print(f"{name:10} {GAMES[name].typical_players:7}  {easy[0]:6.3f} ± {easy[1]:.3f}"
              f"  {hard[0]:6.3f} ± {hard[1]:.3f}  {gap[0]:+6.3f} ± {gap[1]:.3f}")


def _interval(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return (statistics.fmean(values),
            1.96 * statistics.stdev(values) / math.sqrt(len(values)))


def names(args) -> list[str]:
    return [args.game] if args.game else sorted(n for n, g in GAMES.items() if analysable(g))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("cost", "stability", "levels"))
    parser.add_argument("--game", choices=sorted(GAMES), help="this game only")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, help="this player count only (cost)")
    parser.add_argument("--whole", action="store_true",
                        help="the game's default options, not its quickest (cost)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game-seconds", type=float, default=GAME_SECONDS)
    parser.add_argument("--budgets", default="0.01,0.03,0.1,0.3",
                        help="CPU seconds an evaluation, comma-separated (stability)")
    parser.add_argument("--seconds", type=float, default=EVALUATION_SECONDS,
                        help="CPU seconds an evaluation (levels)")
    parser.add_argument("--hard-iterations", type=int,
                        help="hard's simulations a decision (levels; default: its clock)")
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(args.jobs) as pool:
        {"cost": cost, "stability": stability, "levels": levels}[args.what](args, pool)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
