"""Two levels of bench.tournament's record told apart game by game, at each level's default
budget: either two lines, the same seats with one level swapped for another (`--instead`),
two levels at one table (`--against`), or one line in two records (`--against-record`: the
same seats at other budgets or with other code, such as the budgets before issue 54).

    python -m bench.paired_lines sticheln --players 6 --seats medium,easy,easy,easy,easy,easy \\
        --instead hard --option tough=true --record bench/records/full-table.jsonl
    python -m bench.paired_lines sticheln --players 6 --seats hard,medium,easy,easy,easy,easy \\
        --against medium --option tough=true --record bench/records/full-table.jsonl
    python -m bench.paired_lines sticheln --players 6 --seats hard,medium,easy,easy,easy,easy \\
        --instead hard_every_card --option tough=true --record bench/records/full-table.jsonl \\
        --record bench/records/sticheln-ablation.jsonl
    python -m bench.paired_lines sticheln --players 4 --seats hard,easy,easy,easy \
        --record bench/records/issue54.jsonl --against-record bench/records/full-table.jsonl

Game i of both lines deals the same cards and seats the swapped level in the same seat, and at
one table both levels play the same deal, so the difference of each game is paired. Prints, with
95% intervals over the games of the run both sides have, the first seat's level's minus the
other's: points of first place and points a game. A run is named as bench.tournament names it,
by `--first-seed` and `--games` (defaults 1 and 200): its levels turn round the table from its
first game, so a line played again on fresh deals is paired with its own first seed, alone or
pooled with the first run (`--first-seed 1 --first-seed 201`).
"""
from __future__ import annotations

import argparse
import statistics
import sys

from bench.tournament import mean_interval, option_values, read_record, seating
from rules import GAMES


def outcomes(records: list[str], game: str, seats: list[str], options: dict, level: str,
             runs: list[range]) -> dict:
    """Per seed of the `runs`, whether the seats of `level` ranked first, and their mean score;
    the seats turn round the table game by game from each run's first seed, as bench.tournament
    seats them."""
    line = {"game": game, "seats": seats, "options": options, "budget": None}
    games = {seed: result for record in records for seed, result in read_record(record, line).items()}
    result = {}
    for seed, (outcome, *_) in games.items():
        run = next((run for run in runs if seed in run), None)
        if run is None:
            continue
        mine = [seat for seat, name in enumerate(seating(seats, seed - run.start)) if name == level]
        result[seed] = (100.0 * bool(set(mine) & set(outcome["winners"])),
                        sum(outcome["scores"][seat] for seat in mine) / len(mine))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True, help="the first line's seats, as recorded")
    other_level = parser.add_mutually_exclusive_group(required=True)
    other_level.add_argument("--instead",
                             help="the level that takes the first seat's level's seats in the other line")
    other_level.add_argument("--against", help="the other level at the same table")
    other_level.add_argument("--against-record", metavar="FILE",
                             help="the same line in this other record (the games of other "
                                  "budgets or code, on the same seeds)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    parser.add_argument("--record", action="append", required=True,
                        help="a record of bench.tournament or an ablation bench; may be repeated")
    parser.add_argument("--first-seed", type=int, action="append",
                        help="a run's first seed, as given to bench.tournament: it fixes each "
                             "game's seats; may be repeated to pool runs (default 1)")
    parser.add_argument("--games", type=int, default=200, help="each run's games, as given to "
                        "bench.tournament; those of them in the record are paired")
    args = parser.parse_args(argv)

    seats = args.seats.split(",")
    raw_options = option_values(args.option)
    options = GAMES[args.game].normalise_options(args.players, raw_options)
    runs = [range(first_seed, first_seed + args.games) for first_seed in args.first_seed or [1]]
    first = outcomes(args.record, args.game, seats, options, seats[0], runs)
    if args.against_record:
        other_name = f"{seats[0]} of {args.against_record}"
        other = outcomes([args.against_record], args.game, seats, options, seats[0], runs)
    elif args.instead:
        swapped = [args.instead if name == seats[0] else name for name in seats]
        other_name = args.instead
        other = outcomes(args.record, args.game, swapped, options, args.instead, runs)
    else:
        if args.against not in seats or args.against == seats[0]:
            parser.error("--against names another level of the same seats")
        other_name = args.against
        other = outcomes(args.record, args.game, seats, options, args.against, runs)
    seeds = sorted(set(first) & set(other))
    if len(seeds) < 2:
        parser.error("fewer than two games are in both lines")
    places, spread_places = mean_interval([first[s][0] - other[s][0] for s in seeds])
    points, spread_points = mean_interval([first[s][1] - other[s][1] for s in seeds])
    print(f"{len(seeds)} games paired by seed, {seats[0]} − {other_name}: "
          f"{places:+.1f} ± {spread_places:.1f} points of first place, "
          f"{points:+.2f} ± {spread_points:.2f} points a game (first "
          f"{statistics.fmean(first[s][0] for s in seeds):.1f}% against "
          f"{statistics.fmean(other[s][0] for s in seeds):.1f}%, points "
          f"{statistics.fmean(first[s][1] for s in seeds):.2f} against "
          f"{statistics.fmean(other[s][1] for s in seeds):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
