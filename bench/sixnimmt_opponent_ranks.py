"""Which card the published baseline plays, by its rank in easy's order of caution: the table
behind 6 nimmt! hard's opponent model until the fitted one replaced it (OPPONENT_RANKS, now in
bench.sixnimmt_ablation).

    nice -n 15 python -m bench.sixnimmt_opponent_ranks --players 4 --rounds 100 --seconds 0.03

Every seat is the baseline; one-round games from seed 1000. At each card choice with more than
one card in hand, the hand is ordered as hard orders an opponent's (easy's caution, with the
cards the seat cannot see taken as those hidden from it plus its own) and the rank of the card
the baseline played is counted. Prints, by the number of cards in hand, the decisions counted
and the share of each rank, the safest first.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from rules import GAMES
from rules.search import Budget
from rules.sixnimmt.bots import Seen, caution
from rules.sixnimmt.search import baseline


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seconds", type=float,
                        help="the baseline's CPU a decision (default: its 100 rollouts a card)")
    args = parser.parse_args(argv)
    game = GAMES["sixnimmt"]
    options = game.normalise_options(args.players, {"threshold": 1})
    budget = Budget(seconds=args.seconds) if args.seconds else Budget()
    counts: dict[int, list[int]] = defaultdict(lambda: [0] * 10)
    for seed in range(1000, 1000 + args.rounds):
        state = game.new_game(args.players, options, seed)
        rngs = [random.Random(f"ranks:{seed}:{seat}") for seat in range(args.players)]
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            action = baseline(view, legal, rngs[seat], budget)
            if legal[0]["type"] == "play" and len(legal) > 1:
                seen = Seen.of(view)
                hidden = seen.unseen + seen.own
                order = sorted((choice["card"] for choice in legal), key=lambda card: caution(
                    card, seen.rows, seen.row_bullheads, hidden, seen.players - 1))
                counts[len(legal)][order.index(action["card"])] += 1
            game.apply_action(state, seat, action)
    print(f"baseline at {args.seconds or 'its 100 rollouts a card'} s, {args.players} players, "
          f"{args.rounds} rounds: share of each rank in easy's order (safest first)")
    for size in sorted(counts):
        total = sum(counts[size])
        shares = ", ".join(f"{count / total:.2f}" for count in counts[size][:size])
        print(f"  {size:2} cards, {total} decisions: ({shares})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
