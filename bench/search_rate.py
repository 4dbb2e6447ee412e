"""How many simulations the hard bots fit in their budget, per game that has a hard level.

    nice -n 10 python -m bench.search_rate --seconds 0.05 --positions 20
    nice -n 10 python -m bench.search_rate --game sticheln --players 6 --option reverse=true

At a fixed set of positions per game (random play from fixed seeds at the game's typical
player count and default options unless --players and --option say otherwise, stopped at a
random point), the hard bot decides with a budget of `--seconds`
of CPU; this prints the mean simulations per decision and per CPU second. At equal CPU, more
simulations are more samples of the unseen cards: the measure of a faster simulator or search
loop.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.tournament import option_values
from rules import GAMES, Game
from rules.search import Budget, Clock


def positions(game: Game, count: int, players: int, options: dict):
    found = 0
    seed = 0
    while found < count:
        seed += 1
        rng = random.Random(seed)
        state = game.new_game(players, game.normalise_options(players, options), seed)
        for _ in range(rng.randrange(players * 6)):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            game.apply_action(state, seat, rng.choice(game.legal_actions(state, seat)))
        if game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                found += 1
                yield game.view(state, seat), legal


def counting_simulations() -> list[int]:
    """From now on every simulation a search's clock ticks off adds to the one-item list
    returned (the caller sets it to 0 before what it measures)."""
    ticks = [0]
    tick = Clock.tick

    def counted(clock: Clock, simulations: int = 1) -> None:
        ticks[0] += simulations
        tick(clock, simulations)

    Clock.tick = counted
    return ticks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--game", choices=sorted(GAMES), help="this game only")
    parser.add_argument("--players", type=int, help="default: the game's typical count")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    args = parser.parse_args(argv)
    options = option_values(args.option)
    ticks = counting_simulations()
    budget = Budget(seconds=args.seconds)
    for game in GAMES.values():
        if not game.has_bot_level("hard") or args.game not in (None, game.name):
            continue
        counts, spent = [], 0.0
        players = args.players or game.typical_players
        for index, (view, legal) in enumerate(positions(game, args.positions, players, options)):
            ticks[0] = 0
            started = time.process_time()
            game.bot_action(view, legal, "hard", random.Random(index), budget)
            spent += time.process_time() - started
            counts.append(ticks[0])
        print(f"{game.title:>10}: {statistics.fmean(counts):7.0f} simulations per decision "
              f"at {args.seconds} s, {sum(counts) / spent:7.0f} per CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
