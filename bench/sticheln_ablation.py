"""Sticheln hard-bot ablations: bench.tournament with extra benchmark levels, each the hard bot
with one part swapped, so a change is measured before it is kept.

    nice -n 15 python -m bench.sticheln_ablation --players 4 --seats hard+RANK=1,easy,easy,easy \\
        --games 200 --seconds 0.02 --option deals=1 --option reverse=true

Levels added (besides the game's own), each on hard's default budget (medium_plays3 and 8 on
medium's) unless --seconds, --iterations or --scale say otherwise:
    easy_pain   hard's search in play, easy's pain choice
    easy_play   hard's pain choice, easy's play
    deep_pain   hard with ten times the budget for its pain choice (not a fair level)
    short4, short16
                hard searching the 4 or 16 cheapest pain choices (hard: 8); short4 on medium's
                clock is medium as it was before it weighed only its favourite cards in play
    medium_plays3, medium_plays8
                medium weighing the playout policy's 3 or 8 favourite cards in play (medium: 5)
    hard_plays5, hard_plays8
                hard weighing only the policy's 5 (as medium does) or 8 favourite cards in play
                with any number of players and variants (hard: 5 with 6 players or more under
                "tough" but not "late", else every card)
    hard_every_card
                hard weighing every card in play with any number of players: hard as it was
                before it shortlisted with 6 players or more under "tough" (and is elsewhere)
    selfish     hard valuing a playout by its own score, not its margin over the others
    hard_easy_opponents, medium_easy_opponents
                hard or medium with the others in its playouts playing as the easy bot does,
                in every variant (but "late") and with any number of players (hard: with 6
                players or more under "reverse" and "dark")
    hard_policy_opponents
                hard with the others in its playouts always playing by the playout policy, as
                before hard modelled them as easy with 6 players under "reverse" and "dark"
    no_hints    hard reading no pain colours from the cards passed on under "dark"
    hard_last_trick_hints, medium_last_trick_hints
                hard or medium reading them only from the last and the current trick, as
                before they read every trick of the deal
    oracle_dark hard shown the others' pain cards under "dark" (not a fair level)
    LEVEL+NAME=VALUE[+NAME=VALUE...]
                LEVEL with constants of rules/sticheln/search.py set to these numbers while it
                decides, e.g. hard+RANK=1+NOISE=0.2
"""
from __future__ import annotations

import sys

from bench import ablation
from rules.search import Budget
from rules.sticheln import GAME, bots, search
from rules.sticheln.game import Sticheln


def _mixed(pain_level, play_level):
    def act(view, legal, rng, budget):
        level = pain_level if legal[0]["type"] == "choose_pain" else play_level
        return level(view, legal, rng, budget)
    return act


def _deep_pain(times: float):
    """Hard with `times` its budget for the pain choice alone: is that choice short of time?"""
    def act(view, legal, rng, budget):
        if legal[0]["type"] == "choose_pain":
            budget = Budget(seconds=budget.seconds * times)
        return bots.hard_action(view, legal, rng, budget)
    return act


def _oracle_dark(view, legal, rng, budget):
    """Hard under "dark" shown the others' pain cards, as without "dark": what knowing them
    is worth, the most any inference of them could gain."""
    state = ablation.STATES["state"]
    seen = GAME.view({**state, "options": {**state["options"], "dark": False}}, view["seat"])
    return bots.hard_action(seen, legal, rng, budget)


def _no_hints(view, legal, rng, budget):
    """Hard reading no pain colours from the cards passed on under "dark" (as before 2c6f4d5)."""
    hints = search.pain_hints
    search.pain_hints = lambda table, players, me, reverse: ([[]] * players, [set()] * players)
    try:
        return bots.hard_action(view, legal, rng, budget)
    finally:
        search.pain_hints = hints


def _hints_from_the_last_trick(level):
    """`level` reading pain colours under "dark" only from the last and the current trick, as
    before it read every trick of the deal: the view without its list of the deal's tricks."""
    def act(view, legal, rng, budget):
        return level({**view, "table": {**view["table"], "tricks": []}}, legal, rng, budget)
    return act


def _own_score(playout) -> float:
    k = playout.k
    return k.totals[k.me] + search.final_score(k, (playout.pain[k.me] or []) + playout.won[k.me],
                                               playout.pain_colours(k.me))


def _selfish(view, legal, rng, budget):
    """Hard valuing a playout by its own score alone, not its margin over the others."""
    value = search.Playout.value
    search.Playout.value = _own_score
    try:
        return bots.hard_action(view, legal, rng, budget)
    finally:
        search.Playout.value = value


LEVELS = {
    **{name: ablation.on_clock_of("hard", level) for name, level in {
        "selfish": _selfish,
        "hard_easy_opponents": bots.search_bot(shortlist=8, plays=bots.hard_plays,
                                               easy_opponents=lambda knowledge: True),
        "hard_policy_opponents": bots.search_bot(shortlist=8, plays=bots.hard_plays),
        "no_hints": _no_hints,
        "hard_last_trick_hints": _hints_from_the_last_trick(bots.hard_action),
        "oracle_dark": _oracle_dark,
        "deep_pain": _deep_pain(10),
        "hard_every_card": bots.search_bot(shortlist=8, plays=lambda knowledge: None),
        "hard_plays5": bots.search_bot(shortlist=8, plays=lambda knowledge: 5),
        "hard_plays8": bots.search_bot(shortlist=8, plays=lambda knowledge: 8),
        "short4": bots.search_bot(shortlist=4, plays=lambda knowledge: None),
        "short16": bots.search_bot(shortlist=16, plays=lambda knowledge: None),
        "easy_pain": _mixed(bots.easy_action, bots.hard_action),
        "easy_play": _mixed(bots.hard_action, bots.easy_action),
    }.items()},
    "medium_plays3": ablation.on_clock_of(
        "medium", bots.search_bot(shortlist=4, plays=lambda knowledge: 3)),
    "medium_plays8": ablation.on_clock_of(
        "medium", bots.search_bot(shortlist=4, plays=lambda knowledge: 8)),
    "medium_easy_opponents": ablation.on_clock_of("medium", bots.search_bot(
        shortlist=4, plays=lambda knowledge: bots.MEDIUM_PLAYS,
        easy_opponents=lambda knowledge: True)),
    "medium_last_trick_hints": ablation.on_clock_of(
        "medium", _hints_from_the_last_trick(bots.medium_action)),
}
BASES = {"hard": bots.hard_action, "medium": bots.medium_action, **LEVELS}


def main(argv: list[str] | None = None) -> int:
    ablation.remember_states(Sticheln)
    return ablation.run("sticheln", search, LEVELS, BASES, [search], argv)


if __name__ == "__main__":
    sys.exit(main())
