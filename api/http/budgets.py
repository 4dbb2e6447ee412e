"""Rate limits (`limits`, counted in Redis so every process shares them) and long-poll caps.

Each budget counts per player (every device of a player shares it) and per
address, separately for creating players, creating games, acting (moves, joins,
take-backs, leaving, resigning, cards chosen ahead), guessing codes (invites and sign-in
codes), the player's clock (settings and vacations) and long-polls; a budget is one count
whichever of its endpoints is called. A player may also hold only a few long-polls open at
once. Beyond a budget: 429 with
Retry-After, in the one error shape.

The budgets are counted by `limits` itself, the library under flask-limiter: one hook that
looks up the endpoint's budgets costs a fraction of flask-limiter's machinery, which took a
sixth of an accepted action (`python -m bench.storage`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many

from api.http.errors import error_response
from api.storage import connections
from api.storage.budgets import LongPollSlots, RateCounters


def by_address() -> str:
    return request.remote_addr or "unknown"


def by_player() -> str:
    """The player authenticated for this request (see api.http.authenticate_first), else the address."""
    player = g.get("player")
    return f"player:{player.id}" if player else f"address:{by_address()}"


def waits() -> bool:
    """A long-poll: it asks to wait and names what it has already seen."""
    return bool(request.args.get("wait", "0").strip("0")) and bool(request.if_none_match)


@dataclass(frozen=True)
class Budget:
    name: str              # RATE_LIMITS[name] in the app's config replaces `limits`
    endpoints: tuple[str, ...]
    limits: str
    key: object            # a key function


BUDGETS = (
    Budget("create_player", ("players.Players",), "10/minute;100/hour", by_address),
    Budget("create_game", ("games.Games", "games.Rematch"), "20/minute;300/hour", by_player),
    Budget("create_game_per_address", ("games.Games", "games.Rematch"), "60/minute;1000/hour",
           by_address),
    Budget("act", ("games.Actions", "games.Join", "games.TakeBack", "table.Leave", "table.Resign",
                   "clock.Preselection"),
           "600/minute",
           by_player),
    Budget("guess_code", ("games.Invite", "players.SignIn"), "10/minute;60/hour", by_address),
    Budget("guess_code_per_player", ("games.Invite",), "10/minute;60/hour", by_player),
    # A change of a player's clock is a commit at each of their tables.
    Budget("clock", ("clock.Clock", "clock.Vacation"), "60/minute;600/hour", by_player),
)
# Counted only when a request waits: a poll that does not wait, the request phones send most,
# draws on no budget.
LONG_POLL_BUDGET = Budget("long_poll", ("games.GameView", "players.Inbox"), "120/minute",
                          by_player)
MAX_OPEN_LONG_POLLS = 8    # per player (or address): a few devices, each with a game and its inbox


def init_app(app: Flask) -> None:
    chosen = app.config.get("RATE_LIMITS", {})
    unknown = set(chosen) - {budget.name for budget in (*BUDGETS, LONG_POLL_BUDGET)}
    if unknown:
        raise ValueError(f"no rate limit budget named {', '.join(sorted(unknown))}")
    by_endpoint: dict[str, list[tuple[Budget, list[RateLimitItem]]]] = {}
    for budget in (*BUDGETS, LONG_POLL_BUDGET):
        rates = parse_many(chosen.get(budget.name, budget.limits))
        for endpoint in budget.endpoints:
            by_endpoint.setdefault(endpoint, []).append((budget, rates))
    app.extensions["poyta_budgets"] = (RateCounters(connections.queue_url(app.config)),
                                       by_endpoint)
    app.extensions["poyta_long_polls"] = LongPollSlots(
        connections.queue_client(app.config, **connections.COMMAND_OPTIONS))
    app.before_request(spend_budgets)
    app.teardown_request(release_long_poll)


def spend_budgets() -> Response | None:
    """Registered after authentication: a budget per player needs the player."""
    counters, by_endpoint = current_app.extensions["poyta_budgets"]
    for budget, rates in by_endpoint.get(request.endpoint, ()):
        if budget is LONG_POLL_BUDGET and not waits():
            continue
        who = budget.key()
        for rate in rates:
            if not counters.hit(rate, budget.name, who):
                return too_many(rate, counters.resets_at(rate, budget.name, who))
    if request.endpoint in LONG_POLL_BUDGET.endpoints and waits():
        return hold_long_poll()
    return None


def too_many(rate: RateLimitItem, reset_at: float) -> Response:
    retry_after = max(1, math.ceil(reset_at - time.time()))
    return error_response(429, f"too many requests (at most {rate}); try again in {retry_after} s",
                          {"Retry-After": str(retry_after)})


def hold_long_poll() -> Response | None:
    who = by_player()
    open_polls = current_app.extensions["poyta_long_polls"].hold(who)
    g.long_poll_holder = who
    if open_polls > MAX_OPEN_LONG_POLLS:
        return error_response(429, f"at most {MAX_OPEN_LONG_POLLS} waiting requests at once; "
                                   "close one or poll without `wait`", {"Retry-After": "5"})
    return None


def release_long_poll(_error) -> None:
    who = g.pop("long_poll_holder", None)
    if who is not None:
        current_app.extensions["poyta_long_polls"].release(who)
