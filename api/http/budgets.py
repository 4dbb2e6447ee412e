"""Rate limits (`limits`, counted in Redis so every process shares them) and long-poll caps.

Each budget counts per player (every device of a player shares it) and per
address, separately for creating players, creating games, acting (moves, joins,
take-backs, leaving, resigning, cards chosen ahead), guessing codes (invites and sign-in
codes), signing in with a passkey, the player's clock (settings and vacations), renames, setting a webhook,
making sign-in codes, long-polls and the reads that cost more than a view (a record, a replay step, the events, the
lobby, the inbox, the open data, the OpenAPI spec) and scraping the metrics; a budget is one count whichever of its endpoints is
called. A player may also hold only a few long-polls open at once. Beyond a budget: 429 with
Retry-After, in the one error shape.

The budgets are counted by `limits` itself, the library under flask-limiter: one hook that
looks up the endpoint's budgets costs a fraction of flask-limiter's machinery, which took a
sixth of an accepted action (`python -m bench.storage`).
"""
from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many

from api.http.errors import error_response
from api.storage import connections
from api.storage.budgets import LongPollSlots, RateCounters


def by_address() -> str:
    """The client's address: the TCP peer's, or the one the trusted proxies report
    (`POYTA_PROXY_HOPS`, werkzeug's ProxyFix)."""
    return request.remote_addr or "unknown"


def by_player() -> str:
    """The player authenticated for this request (see api.http.auth), else the address."""
    player = g.get("player")
    return f"player:{player.id}" if player else f"address:{by_address()}"


# Long-polls whose query names what they have seen (`after`), not an ETag.
CURSOR_POLLS = frozenset({"table.Chat"})


def waits() -> bool:
    """A long-poll: it asks to wait and names what it has already seen."""
    return bool(request.args.get("wait", "0").strip("0")) and (
        bool(request.if_none_match) or request.endpoint in CURSOR_POLLS)


@dataclass(frozen=True)
class Budget:
    name: str              # RATE_LIMITS[name] in the app's config replaces `limits`
    endpoints: tuple[str, ...]
    limits: str
    key: object            # a key function
    methods: tuple[str, ...] = ()  # only these methods of the endpoints (none: every method)
    when_counted: bool = False     # the request goes on when the counters do not answer


BUDGETS = (
    Budget("create_player", ("players.Players",), "10/minute;100/hour", by_address),
    Budget("create_game", ("games.Games", "games.Rematch"), "20/minute;300/hour", by_player),
    Budget("create_game_per_address", ("games.Games", "games.Rematch"), "60/minute;1000/hour",
           by_address),
    Budget("act", ("games.Actions", "games.Join", "games.TakeBack", "table.Leave", "table.Resign",
                   "table.Decline", "clock.Preselection"),
           "600/minute",
           by_player),
    Budget("guess_code", ("games.Invite", "players.SignIn", "friends.AddFriend"),
           "10/minute;60/hour", by_address),
    Budget("guess_code_per_player", ("games.Invite", "friends.AddFriend"), "10/minute;60/hour",
           by_player),
    # Each write is a script on the player's keys and one on the other player's.
    Budget("friends", ("friends.FriendLink", "friends.Friend", "friends.Block"),
           "60/minute;600/hour", by_player, methods=("POST", "PUT", "DELETE")),
    # Each sign-in's options keep a challenge alive for two minutes: one ceremony is two calls.
    Budget("passkey_signin", ("passkeys.SignInOptions", "passkeys.SignIn"), "20/minute;120/hour",
           by_address),
    # Each registration's options read the player's passkeys and keep a challenge alive.
    Budget("passkey_registration", ("passkeys.RegistrationOptions",), "10/minute;60/hour",
           by_player),
    # A change of a player's clock is a commit at each of their tables.
    Budget("clock", ("clock.Clock", "clock.Vacation"), "60/minute;600/hour", by_player),
    # A rename is a script at each of the player's tables and wakes everyone watching them.
    Budget("rename", ("players.Me",), "10/minute;60/hour", by_player, methods=("PATCH",)),
    # Each webhook set is checked, stored, and told every game going on.
    Budget("webhook", ("webhooks.Webhook",), "10/minute;60/hour", by_player, methods=("PUT",)),
    # Each ping is a request to the player's URL made while the caller waits.
    Budget("webhook_try", ("webhooks.WebhookTest", "webhooks.WebhookRedeliver"),
           "10/minute;60/hour", by_player),
    # A seek is checked against the seeker's games and ratings and queues a pairing run.
    Budget("seek", ("seeks.Seeks", "seeks.Seek"), "30/minute;300/hour", by_player,
           methods=("POST", "DELETE")),
    # A search reads a page of the directory and the blocks of those on it.
    Budget("search_players", ("profiles.Search",), "60/minute;600/hour", by_player),
    Budget("describe_bot", ("profiles.Description",), "10/minute;60/hour", by_player),
    # Each code is a live credential until it is used or expires.
    Budget("signin_code", ("players.SignInCodes",), "5/minute;20/hour", by_player),
    # Reads that cost more than a view: per player, and per address for anonymous callers (a
    # phone fetches a record once, steps a replay at a tap or two a second, reads the events
    # at each change of a game it shows); the address's own budget caps many players at once.
    Budget("read_record", ("games.Record",), "60/minute;600/hour", by_player),
    Budget("read_replay", ("games.ReplayStep",), "180/minute;3000/hour", by_player),
    Budget("read_events", ("games.Events",), "600/minute", by_player),
    Budget("read_history_per_address", ("games.Record", "games.ReplayStep", "games.Events"),
           "1200/minute", by_address),
    Budget("read_lobby", ("games.Lobby",), "120/minute", by_player),
    # A review is asked for once and read until done, a poll every few seconds.
    Budget("analysis", ("analysis.Analysis",), "60/minute;600/hour", by_player),
    Budget("read_inbox", ("players.Inbox",), "300/minute", by_player),
    # An export reads every game the player finished from PostgreSQL and replays its record.
    Budget("export", ("players.Export",), "3/minute;20/hour", by_player),
    # A deletion settles each of the player's games and touches every store.
    Budget("delete_account", ("players.Deletion",), "5/minute;20/hour", by_player),
    # An open data file is a month of games replayed from the archive unless it is kept; its
    # readers are programs and mirrors that fetch each file once and then ask with its ETag.
    Budget("read_open_data", ("opendata.OpenDataFile",), "10/minute;100/hour", by_address),
    Budget("list_open_data", ("opendata.OpenDataFiles",), "60/minute", by_address),
    Budget("read_spec", ("api-docs.openapi_json",), "30/minute;300/hour", by_address),
    # A scrape reads every process's metric files (a second's scrapes share one body); a
    # Prometheus scrapes a few times a minute. Counted while the counters answer: an operator
    # wants the metrics most when Redis does not.
    Budget("scrape_metrics", ("metrics",), "60/minute", by_address, when_counted=True),
)
# Counted only when a request waits: a poll that does not wait, the request phones send most,
# draws on no budget.
LONG_POLL_BUDGET = Budget("long_poll", ("games.GameView", "players.Inbox", "table.Chat"),
                          "120/minute", by_player)
# Per player (or address): a few devices, each with a game, its table talk and the inbox.
MAX_OPEN_LONG_POLLS = 12
MAX_WAIT = 60              # seconds, the longest `wait` the schemas accept


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
    counters = connections.queue_client(app.config, **connections.COMMAND_OPTIONS)
    app.extensions["poyta_budgets"] = (RateCounters(counters), by_endpoint)
    app.extensions["poyta_long_polls"] = LongPollSlots(counters)
    app.before_request(spend_budgets)
    app.after_request(tell_rate_limits)
    app.teardown_request(release_long_poll)


def spend_budgets() -> Response | None:
    """Registered after authentication: a budget per player needs the player."""
    counters, by_endpoint = current_app.extensions["poyta_budgets"]
    budgets = [(budget, rates) for budget, rates in by_endpoint.get(request.endpoint, ())
               if (budget is not LONG_POLL_BUDGET or waits())
               and not (budget.methods and request.method not in budget.methods)]
    windows = [(rate, budget.name, budget.key()) for budget, rates in budgets for rate in rates]
    try:
        g.rate_limits, refused = spend(counters, windows)
    except connections.UNAVAILABLE:
        if not budgets or not all(budget.when_counted for budget, _ in budgets):
            raise
        g.rate_limits, refused = [], None
    if refused is not None:
        return error_response(429, *refused)
    if request.endpoint in LONG_POLL_BUDGET.endpoints and waits():
        return hold_long_poll()
    return None


Spent = tuple[int, str, RateLimitItem, float]  # remaining, the window's name, rate, reset time


def spend(counters: RateCounters, windows: list[tuple[RateLimitItem, str, str]]
          ) -> tuple[list[Spent], tuple[str, dict] | None]:
    """Counts a request in its budgets' windows (rate, budget name, caller): the windows
    counted, and the 429's message and headers when one of them refused it."""
    now = time.time()
    spent = []
    for (_, name, _), window in zip(windows, counters.spend(windows)):
        reset_at = now + window.resets_in
        spent.append((window.remaining, f"{name}-{window.rate.get_expiry()}s", window.rate,
                      reset_at))
        if not window.allowed:
            return spent, too_many(window.rate, reset_at)
    return spent, None


def tell_rate_limits(response: Response) -> Response:
    spent = g.pop("rate_limits", None)
    if spent:
        response.headers.update(rate_limit_headers(spent))
    return response


def rate_limit_headers(spent: list[Spent]) -> list[tuple[str, str]]:
    """The budgets the request drew on, as the IETF's RateLimit-Policy (each window: its quota
    `q` and seconds `w`) and RateLimit (the window nearest to running out: what remains `r`
    and the seconds `t` until it resets)."""
    remaining, name, _, reset_at = min(spent, key=lambda entry: entry[0])
    return [("RateLimit-Policy", ", ".join(f'"{name}";q={rate.amount};w={rate.get_expiry()}'
                                           for _, name, rate, _ in spent)),
            ("RateLimit", f'"{name}";r={max(remaining, 0)};'
                          f't={max(0, math.ceil(reset_at - time.time()))}')]


def too_many(rate: RateLimitItem, reset_at: float) -> tuple[str, dict]:
    retry_after = max(1, math.ceil(reset_at - time.time()))
    return (f"too many requests (at most {rate}); try again in {retry_after} s",
            {"Retry-After": str(retry_after)})


def hold_long_poll() -> Response | None:
    who, slot = by_player(), secrets.token_hex(8)
    wait = request.args.get("wait", type=int) or 0
    if not current_app.extensions["poyta_long_polls"].hold(who, slot, min(wait, MAX_WAIT),
                                                          MAX_OPEN_LONG_POLLS):
        return error_response(429, f"at most {MAX_OPEN_LONG_POLLS} waiting requests at once; "
                                   "close one or poll without `wait`", {"Retry-After": "5"})
    g.long_poll_slot = (who, slot)
    return None


def release_long_poll(_error) -> None:
    held = g.pop("long_poll_slot", None)
    if held is not None:
        current_app.extensions["poyta_long_polls"].release(*held)
