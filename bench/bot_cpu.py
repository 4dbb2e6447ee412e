"""The bots' CPU per move at the default budgets, per level and at the sizing's level mix,
beside the budgets before issue 54 (hard 0.3 s, medium 0.06 s, every search to its budget's
end), in one run.

    nice -n 10 python -m bench.bot_cpu --positions 60

Per game (its typical player count, default options), the positions are every `--every`th
decision of whole games the easy bots play from fixed seeds, so forced moves (one legal
action) come as often as in play. At each position every level decides with the same random
source, once at the old budgets and once at the new, one after the other (a load on the machine
stretches both alike; the clock is the CPU clock anyway). Prints, per game and level, the mean
CPU a move and the simulations a move and a CPU second, old and new; then the mean CPU a bot
move at the level mix of bench/sizing.py `ASSUMED` (every game weighing the same), old and new.
With `--agreement`, each search level decides once more at each budget with another random
source, and the bench prints how often (of the positions with a choice) that new choice is the
old budget's first one, beside how often the old budget's second choice is: a search on the
CPU clock is not repeatable, and the new budget should depart from the old no more than the old
departs from itself.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.search_rate import counting_simulations
from bench.sizing import ASSUMED
from rules import GAMES, Game
from rules.search import DEFAULT_BUDGETS, Budget, Clock

BEFORE = {"easy": DEFAULT_BUDGETS["easy"], "medium": Budget(seconds=0.06),
          "hard": Budget(seconds=0.3)}


def positions(game: Game, count: int, every: int):
    """(view, legal) of every `every`th decision of easy bots' games, `count` in all."""
    found, seed = 0, 0
    while True:
        seed += 1
        state = game.new_game(game.typical_players, game.normalise_options(
            game.typical_players, {}), seed)
        rngs = [random.Random(f"easy:{seed}:{seat}") for seat in range(game.typical_players)]
        decision = 0
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            decision += 1
            if decision % every == 0:
                yield view, legal
                found += 1
                if found == count:
                    return
            game.apply_action(state, seat, game.bot_action(view, legal, "easy", rngs[seat], None))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60, help="positions per game")
    parser.add_argument("--every", type=int, default=7, help="one decision in this many")
    parser.add_argument("--game", choices=sorted(GAMES), help="this game only")
    parser.add_argument("--agreement", action="store_true",
                        help="also how often the new choice is the old one")
    args = parser.parse_args(argv)
    ticks = counting_simulations()
    mix, _ = ASSUMED["level_mix"]
    configs = {"before": BEFORE, "now": DEFAULT_BUDGETS}
    print("budgets before: " + ", ".join(f"{level} {budget}" for level, budget in BEFORE.items()))
    print("budgets now:    " + ", ".join(f"{level} {budget}" for level, budget in
                                         DEFAULT_BUDGETS.items()))
    at_mix = {name: [] for name in configs}
    for game in GAMES.values():
        if not game.has_bot_level("hard") or args.game not in (None, game.name):
            continue
        cpu = {(name, level): [] for name in configs for level in mix}
        simulations = {key: 0 for key in cpu}
        forced = 0
        # Per search level: positions where the new budget's choice with another random source
        # is the old budget's first choice, and where the old budget's is.
        same = {level: [0, 0] for level in mix if level != "easy"}
        for index, (view, legal) in enumerate(positions(game, args.positions, args.every)):
            forced += len(legal) == 1
            for level in mix:
                chosen = {}
                for name, budgets in configs.items():
                    ticks[0] = 0
                    started = time.process_time()
                    chosen[name] = game.bot_action(view, legal, level, random.Random(index),
                                                   budgets[level])
                    cpu[name, level].append(time.process_time() - started)
                    simulations[name, level] += ticks[0]
                if args.agreement and level in same and len(legal) > 1:
                    for count, budgets in enumerate(configs.values()):
                        again = game.bot_action(view, legal, level, random.Random(10**6 + index),
                                                budgets[level])
                        same[level][1 - count] += again == chosen["before"]
        print(f"{game.title}, {game.typical_players} players, {args.positions} positions "
              f"({forced} forced):")
        for level in mix:
            cells = []
            for name in configs:
                spent = sum(cpu[name, level])
                rate = simulations[name, level] / spent if spent else 0.0
                cells.append(f"{name} {1000 * statistics.fmean(cpu[name, level]):6.1f} ms a move, "
                             f"{simulations[name, level] / args.positions:6.0f} simulations "
                             f"({rate:6.0f} a CPU second)")
            print(f"  {level:>6}: " + "; ".join(cells))
        if args.agreement:
            choices = args.positions - forced
            print("  the old budget's choice made again: " + ", ".join(
                f"{level} {100 * now / choices:.0f}% by the new budget, {100 * old / choices:.0f}% "
                f"by the old with another random source" for level, (now, old) in same.items()))
        for name in configs:
            at_mix[name].append(sum(share * statistics.fmean(cpu[name, level])
                                    for level, share in mix.items()))
        print(f"  at the level mix {mix}: " + ", ".join(
            f"{name} {1000 * at_mix[name][-1]:.1f} ms" for name in configs)
            + f" ({at_mix['before'][-1] / at_mix['now'][-1]:.2f}x less)")
    before, now = (statistics.fmean(at_mix[name]) for name in configs)
    print(f"Mean CPU a bot move at the level mix, the games weighing alike: before "
          f"{1000 * before:.1f} ms, now {1000 * now:.1f} ms ({before / now:.2f}x less)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
