"""Rate limits (flask-limiter, counted in Redis so every process shares them) and long-poll caps.

Each budget counts per player (every device of a player shares it) and per
address, separately for creating players, creating games, acting (moves, joins,
take-backs, leaving, resigning), guessing codes (invites and sign-in codes) and
long-polls; a budget is one count whichever of its endpoints is called. A player
may also hold only a few long-polls open at once. Beyond a budget: 429 with
Retry-After, in the one error shape.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from flask import Flask, Response, current_app, g, request
from flask_limiter import Limiter, RequestLimit
from flask_limiter.errors import RateLimitExceeded
from limits import RateLimitItem, parse_many
from redis.exceptions import RedisError

from api import connections, outage
from api.errors import error_response


def by_address() -> str:
    return request.remote_addr or "unknown"


def by_player() -> str:
    """The player authenticated for this request (see api.authenticate_first), else the address."""
    player = g.get("player")
    return f"player:{player['id']}" if player else f"address:{by_address()}"


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
    Budget("act", ("games.Actions", "games.Join", "games.TakeBack", "table.Leave", "table.Resign"),
           "600/minute",
           by_player),
    Budget("guess_code", ("games.Invite", "players.SignIn"), "10/minute;60/hour", by_address),
    Budget("guess_code_per_player", ("games.Invite",), "10/minute;60/hour", by_player),
)
# Counted by `count_long_poll` itself, only when a request waits: a poll that does not wait,
# the request phones send most, then never passes through the limiter.
LONG_POLL_BUDGET = Budget("long_poll", ("games.GameView", "players.Inbox"), "120/minute",
                          by_player)
MAX_OPEN_LONG_POLLS = 8    # per player (or address): a few devices, each with a game and its inbox
LONG_POLL_KEY = "longpolls:{}"
LONG_POLL_KEY_TTL = 120    # seconds: longer than any wait, so a crashed process's count fades


def init_app(app: Flask) -> None:
    hooks_before = _app_hooks(app)
    limiter = Limiter(
        by_address, app=app, storage_uri=connections.queue_url(app.config), strategy="fixed-window",
        key_prefix="ratelimit", on_breach=too_many,
        storage_options={"socket_connect_timeout": outage.CONNECT_TIMEOUT,
                         "socket_timeout": outage.COMMAND_TIMEOUT})
    chosen = app.config.get("RATE_LIMITS", {})
    unknown = set(chosen) - {budget.name for budget in (*BUDGETS, LONG_POLL_BUDGET)}
    if unknown:
        raise ValueError(f"no rate limit budget named {', '.join(sorted(unknown))}")
    for budget in BUDGETS:
        # One count per budget, whichever of its endpoints is called.
        shared = limiter.shared_limit(chosen.get(budget.name, budget.limits), scope=budget.name,
                                      key_func=budget.key)
        for endpoint in budget.endpoints:
            app.view_functions[endpoint] = shared(app.view_functions[endpoint])
    _run_only_for(app, {endpoint for budget in BUDGETS for endpoint in budget.endpoints},
                  hooks_before)
    app.register_error_handler(RateLimitExceeded, lambda error: error.response or too_many(None))
    app.extensions["poyta_long_poll_rates"] = (
        limiter, parse_many(chosen.get(LONG_POLL_BUDGET.name, LONG_POLL_BUDGET.limits)))
    # Counted beside the rate limits, never in the game store.
    app.extensions["poyta_long_polls"] = connections.queue_client(app.config,
                                                                  **outage.COMMAND_OPTIONS)
    app.before_request(count_long_poll)
    app.teardown_request(release_long_poll)


_HOOKS = (("before_request_funcs", False), ("after_request_funcs", True),
          ("teardown_request_funcs", False))


def _app_hooks(app: Flask) -> list:
    return [hook for registry, _ in _HOOKS for hook in getattr(app, registry).get(None, [])]


def _run_only_for(app: Flask, endpoints: set[str], hooks_before: list) -> None:
    """flask-limiter hooks every request, limited or not; its hooks (added since
    `hooks_before`) now run only for the endpoints it limits. Elsewhere they cost a fifth
    of an unchanged poll (`python -m bench.storage`) and decide nothing."""
    for registry, passes_response in _HOOKS:
        hooks = getattr(app, registry).get(None, [])
        hooks[:] = [hook if any(hook is old for old in hooks_before)
                    else _scoped(hook, endpoints, passes_response) for hook in hooks]


def _scoped(hook, endpoints: set[str], passes_response: bool):
    def run(*args):
        if request.endpoint in endpoints:
            return hook(*args)
        return args[0] if passes_response else None
    return run


def too_many(limit: RequestLimit | None) -> Response:
    return _too_many(limit and limit.limit, limit and limit.reset_at)


def _too_many(rate: RateLimitItem | None, reset_at: float | None) -> Response:
    retry_after = max(1, math.ceil(reset_at - time.time())) if reset_at else 60
    what = f" (at most {rate})" if rate else ""
    return error_response(429, f"too many requests{what}; try again in {retry_after} s",
                          {"Retry-After": str(retry_after)})


def count_long_poll() -> Response | None:
    if request.endpoint not in LONG_POLL_BUDGET.endpoints or not waits():
        return None
    limiter, rates = current_app.extensions["poyta_long_poll_rates"]
    who = LONG_POLL_BUDGET.key()
    for rate in rates:
        if not limiter.limiter.hit(rate, LONG_POLL_BUDGET.name, who):
            return _too_many(rate, limiter.limiter.get_window_stats(
                rate, LONG_POLL_BUDGET.name, who).reset_time)
    key = LONG_POLL_KEY.format(by_player())
    pipe = current_app.extensions["poyta_long_polls"].pipeline()
    pipe.incr(key)
    pipe.expire(key, LONG_POLL_KEY_TTL)
    open_polls = pipe.execute()[0]
    g.long_poll_key = key
    if open_polls > MAX_OPEN_LONG_POLLS:
        return error_response(429, f"at most {MAX_OPEN_LONG_POLLS} waiting requests at once; "
                                   "close one or poll without `wait`", {"Retry-After": "5"})
    return None


def release_long_poll(_error) -> None:
    key = g.pop("long_poll_key", None)
    if key is not None:
        try:
            current_app.extensions["poyta_long_polls"].decr(key)
        except RedisError:
            pass  # the key expires by itself
