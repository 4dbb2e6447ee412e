"""How often the Sticheln playout policy, and the playouts' easy model, play the card the easy
bot plays, in the easy bot's own position with every card known (the policy's noise off): the
playouts model the opponents with them, so against easy bots the closer the better. The easy
model counts as playing easy's card where easy rates its card as high (easy breaks such ties
at random).

    python -m bench.sticheln_policy_match --players 4 --games 50 --option reverse=true
"""
from __future__ import annotations

import argparse
import random
import sys

from bench.tournament import option_values
from rules.sticheln import GAME, bots, search
from rules.sticheln.cards import CARD_NAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    args = parser.parse_args(argv)
    raw = option_values(args.option)
    options = GAME.normalise_options(args.players, {"deals": 1, **raw})
    saved, search.NOISE = search.NOISE, 0.0
    same = modelled = total = 0
    for seed in range(1, args.games + 1):
        state = GAME.new_game(args.players, options, seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action = bots.easy_action(view, legal, rng, None)
            if state["phase"] == "play" and len(legal) > 1:
                knowledge = search.read_view(view)
                playout = search.Playout(knowledge, random.Random(seed))
                playout.hands = [list(hand) for hand in state["hands"]]
                playout.pain = [list(p) if p else None for p in state["pain"]]
                values, expected = knowledge.scoring(playout.pain_colours(seat))
                card = playout.policy(seat, list(knowledge.trick), values, expected,
                                      search.strengths(playout.top, knowledge.reverse),
                                      search.keep_values(playout.top, knowledge.reverse))
                same += CARD_NAMES[card] == action["card"]
                model = CARD_NAMES[playout.easy_choice(seat, state["leader"],
                                                       list(knowledge.trick))]
                rate = bots.EasyRater(knowledge).rate_play
                modelled += rate({"type": "play", "card": model}) == rate(action)
                total += 1
            GAME.apply_action(state, seat, action)
    search.NOISE = saved
    print(f"options {options}: the easy model plays easy's card in {modelled} of {total} plays "
          f"({100 * modelled / total:.1f}%), the policy in {same} "
          f"({100 * same / total:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
