"""How much of 6 nimmt! hard's card choice is lost to its budget, in its own model.

    nice -n 15 python -m bench.sixnimmt_regret --positions 40 --budgets 0.01,0.03,0.1,0.3

Positions come from 4-player games of the published baseline (fixed seeds, stopped at a
random turn; every card choice of three or more cards). For each, the value of every card
under hard's own model (its deals, opponent ranks and rollouts) is estimated once from
`--reference-worlds` worlds; then hard decides `--repeats` times at each budget, and the
bench prints the mean regret (the best card's value less the chosen card's, in bullheads
of margin a decision) and how often hard chose the model's best card. A regret near zero
means more CPU cannot help: what is left to gain is in the model, not in its sampling.
"""
from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from rules import GAMES
from rules.search import Budget
from rules.sixnimmt import search
from rules.sixnimmt.bots import Seen

GAME = GAMES["sixnimmt"]
PLAYERS = 4
BATCH = 2048


def positions(count: int) -> list[tuple[dict, list]]:
    found: list[tuple[dict, list]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        state = GAME.new_game(PLAYERS, GAME.normalise_options(PLAYERS, {}), seed)
        for _ in range(rng.randrange(PLAYERS * 10)):
            if GAME.outcome(state) is not None:
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            GAME.apply_action(state, seat, search.baseline(GAME.view(state, seat), legal, rng,
                                                           Budget()))
        if GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            if legal[0]["type"] == "play" and len(legal) >= 3:
                found.append((GAME.view(state, seat), legal))
    return found


def model_values(view: dict, legal: list, worlds: int, seed: int) -> dict[int, float]:
    """Each card's mean value over `worlds` worlds of hard's own model."""
    cards = [action["card"] for action in legal]
    problem = search.card_problem(Seen.of(view), cards, search.fitted_opponents)
    rng = random.Random(seed)
    totals = np.zeros(len(cards))
    for _ in range(max(1, worlds // BATCH)):
        totals += problem.values(problem.deal(rng, BATCH)).sum(axis=1)
    return dict(zip(cards, totals / (max(1, worlds // BATCH) * BATCH)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--budgets", default="0.01,0.03,0.1,0.3",
                        help="CPU seconds a decision, comma-separated")
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--reference-worlds", type=int, default=30 * BATCH)
    args = parser.parse_args(argv)
    found = positions(args.positions)
    references = [model_values(view, legal, args.reference_worlds, 1000 + index)
                  for index, (view, legal) in enumerate(found)]
    print(f"6 nimmt!, {PLAYERS} players, {len(found)} positions, {args.repeats} decisions each "
          f"a budget, reference {args.reference_worlds} worlds a position")
    for seconds in (float(budget) for budget in args.budgets.split(",")):
        regrets, best_chosen = [], 0
        for (view, legal), values in zip(found, references):
            best = max(values.values())
            for repeat in range(args.repeats):
                card = GAME.bot_action(view, legal, "hard", random.Random(repeat),
                                       Budget(seconds=seconds))["card"]
                regrets.append(best - values[card])
                best_chosen += values[card] == best
        spread = 1.96 * statistics.stdev(regrets) / len(regrets) ** 0.5
        print(f"  {seconds:5.3f} s: regret {statistics.fmean(regrets):.4f} ± {spread:.4f} "
              f"bullheads a decision; the model's best card {best_chosen / len(regrets):.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
