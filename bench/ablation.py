"""What the ablation benches share: a level with constants set while it decides
(`LEVEL+NAME=VALUE[+NAME=VALUE...]` as a seat), and bench.tournament run with extra levels."""
from __future__ import annotations

import sys

from bench import tournament
from rules.search import DEFAULT_BUDGETS


STATES: dict = {}


def remember_states(game_class) -> None:
    """Keep the state of each view a game class makes in STATES["state"], for levels that are
    not fair and look at it (an oracle)."""
    view = game_class.view

    def remembering(self, state, seat):
        STATES["state"] = state
        return view(self, state, seat)
    game_class.view = remembering


def on_clock_of(base: str, level):
    """`level` thinking on the bot level `base`'s default budget when a tournament gives it
    none (no --seconds or --iterations), and on that times F under --scale F."""
    level.default_budget = DEFAULT_BUDGETS[base]
    return level


def patched(level, owners: list, settings: dict):
    """`level` deciding with each constant set on the first of `owners` (modules) that has it."""
    def act(view, legal, rng, budget):
        saved = []
        for name, value in settings.items():
            owner = next(owner for owner in owners if hasattr(owner, name))
            saved.append((owner, name, getattr(owner, name)))
            setattr(owner, name, value)
        try:
            return level(view, legal, rng, budget)
        finally:
            for owner, name, value in reversed(saved):
                setattr(owner, name, value)
    return act


def run(game_name: str, search_module, levels: dict, bases: dict, owners: list,
        argv: list[str] | None) -> int:
    """bench.tournament for `game_name` with `levels` added to its benchmark levels, and every
    seat named `BASE+NAME=VALUE...` (BASE one of `bases`) as that base with those constants."""
    argv = [game_name, *(sys.argv[1:] if argv is None else argv)]
    # Without --seats (as with --help) there is nothing to patch; the tournament answers.
    seats = argv[argv.index("--seats") + 1].split(",") if "--seats" in argv[:-1] else []
    added = {**getattr(search_module, "BENCHMARK_LEVELS", {}), **levels}
    for seat in seats:
        base, *settings = seat.split("+")
        if settings and base in bases:
            pairs = [setting.split("=", 1) for setting in settings]
            added[seat] = patched(bases[base], owners,
                                  {name: float(value) for name, value in pairs})
            own = tournament.default_budget(base, added)
            if own is not None:
                added[seat].default_budget = own
    search_module.BENCHMARK_LEVELS = added
    return tournament.main(argv)
