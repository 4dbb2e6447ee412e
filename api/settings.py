"""Every setting read from the environment, in one place, once per process (the API's and the
workers' alike).

    REDIS_URL, REDIS_CLUSTER, RQ_REDIS_URL   where the game store and the queue live
                               (`api.storage.connections.settings`)
    DATABASE_URL               the PostgreSQL that keeps the record: finished games move there
                               (`api.storage.sql`); unset, nothing is archived (`make run`
                               starts an embedded one)
    POYTA_RETENTION_DAYS       how long Redis keeps what is not live (30; fractions allowed):
                               idle games and players' cached keys; what a player owns is kept
                               in PostgreSQL and read back when Redis let it go
    POYTA_THROWAWAY_PLAYERS_LAPSE  1 (the default): a player who owns nothing (no passkey,
                               finished game, rating, friend or block) is kept in Redis only and
                               lapses after POYTA_RETENTION_DAYS idle; 0: every player is kept
                               in PostgreSQL from registering on
    POYTA_HOT_DAYS             how long Redis keeps a finished game once it is archived (3;
                               fractions allowed): record, replay, events and the inbox read the
                               archive after that
    POYTA_TOKEN_CACHE_SECONDS  how long a process trusts a bearer token it looked up (2)
    POYTA_MEDIUM_SECONDS, POYTA_HARD_SECONDS   CPU seconds a search bot thinks per move
    POYTA_PUBLIC_URL           the address links in notices point to
    POYTA_RP_ID                the passkeys' relying-party id: the host name passkeys are bound
                               to (the host of POYTA_PUBLIC_URL unless given)
    POYTA_ORIGIN               the origin the PWA runs at, which a passkey's answer must name
                               (POYTA_PUBLIC_URL's scheme, host and port unless given)
    POYTA_VAPID_SUBJECT        the contact in Web Push's VAPID claims
    POYTA_RATE_LIMITS          budgets replaced, as JSON: {"act": "1200/minute", ...}
                               (the names are `api.http.budgets.BUDGETS`')
    POYTA_PUSH_HOSTS           push services a browser's endpoint may be at: comma-separated
                               host suffixes, `*` for any https host
    POYTA_OUTBOUND_HTTP_LOOPBACK=1   webhooks and pushes may go to plain http on this machine
                               (the tests' local receivers); without it only a server that
                               listens on loopback only (HOST=127.0.0.1, `make run`'s
                               default) and trusts no proxy may (`loopback_only`)
    POYTA_PROXY_HOPS           how many proxies in front of the API set X-Forwarded-For (0: none,
                               the TCP peer is the client); budgets and the access log use the
                               client address they report
    PROMETHEUS_MULTIPROC_DIR   the folder where every process of a host writes its metrics
    POYTA_METRICS_TOKEN        when set, `/metrics` answers only a scrape that sends it as a
                               bearer token (else 401): closed to the public
    HOST                       the address gunicorn listens on (127.0.0.1 unless given): beyond
                               loopback, `/metrics` without a token set answers 401
    LOG_LEVEL                  INFO unless given
    POYTA_TEST_FAULTS          a test's fault points: where the process dies as a crash would
                               (`api.faults`)
    POYTA_TEST_CLOCK           a test hook: a file holding the instant every timing rule reads
                               as now (`api.tables.clock`)
    POYTA_VACATION_DAYS        each player's vacation days a year (30)
    POYTA_BOT_SECONDS_A_MINUTE CPU seconds a player's bots may think in a minute before the
                               player's games wait behind everyone else's (10; see
                               `api.tables.scheduling.BotScheduler.thrifty`)
    POYTA_CORS_ORIGINS         browser origins allowed to call the API from their pages:
                               comma-separated, e.g. `https://bots.example` (none unless given)
    POYTA_MAX_GAME_ACTIONS     the most actions a game's log holds; the action that fills it
                               ends the game as it stands (`api.storage.games.MAX_LOG_ACTIONS`)
    POYTA_ANALYSIS_SECONDS     CPU seconds the review of one finished game may take (60; see
                               docs/analysis.md)
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Mapping
from urllib.parse import urlsplit

from api.outbound import DEFAULT_PUSH_HOSTS, Policy, on_this_machine
from api.storage import connections
from api.storage.games import MAX_LOG_ACTIONS
from rules.search import Budget

TEST_CLOCK = "POYTA_TEST_CLOCK"


def loopback_only(env: Mapping[str, str]) -> bool:
    """The server listens on this machine's loopback only (HOST, as `make run` and gunicorn's
    config read it) and no proxy forwards to it (POYTA_PROXY_HOPS): only programs on this
    machine can call it, so sending to this machine exposes nothing. HOST unset is not
    enough: a container's or another launcher's address is not known here."""
    host = env.get("HOST", "")
    return bool(host) and not int(env.get("POYTA_PROXY_HOPS") or 0) and on_this_machine(host)


@dataclass(frozen=True)
class Settings:
    connections: dict = field(default_factory=lambda: connections.settings({}))
    store_given: bool = False  # REDIS_URL was set: else a worker's store is its queue's Redis
    database_url: str | None = None
    retention_seconds: int = 30 * 86400
    hot_seconds: int = 3 * 86400
    throwaway_players_lapse: bool = True
    token_cache_seconds: float = 2.0
    budgets: dict[str, Budget] = field(default_factory=dict)
    public_url: str = "http://127.0.0.1:8000"
    rp_id: str = "127.0.0.1"
    origin: str = "http://127.0.0.1:8000"
    vapid_subject: str = "mailto:admin@localhost"
    rate_limits: dict[str, str] = field(default_factory=dict)
    outbound: Policy = Policy()
    proxy_hops: int = 0
    metrics_dir: str | None = None
    metrics_token: str | None = None
    host: str = "127.0.0.1"
    log_level: str = "INFO"
    test_clock: str | None = None
    vacation_days: int = 30
    bot_seconds_a_minute: float = 10.0
    cors_origins: tuple[str, ...] = ()
    max_game_actions: int = MAX_LOG_ACTIONS
    seek_grace_seconds: float = 600.0  # a seek's table starts at its smallest count after this
    analysis_seconds: float = 60.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        budgets = {level: Budget(seconds=float(env[f"POYTA_{level.upper()}_SECONDS"]))
                   for level in ("medium", "hard") if env.get(f"POYTA_{level.upper()}_SECONDS")}
        push_hosts = env.get("POYTA_PUSH_HOSTS")
        public_url = (env.get("POYTA_PUBLIC_URL") or cls.public_url).rstrip("/")
        public = urlsplit(public_url)
        return cls(
            connections=connections.settings(env),
            store_given=bool(env.get("REDIS_URL")),
            database_url=env.get("DATABASE_URL") or None,
            retention_seconds=max(1, int(float(env.get("POYTA_RETENTION_DAYS") or 30) * 86400)),
            hot_seconds=max(1, int(float(env.get("POYTA_HOT_DAYS") or 3) * 86400)),
            throwaway_players_lapse=(env.get("POYTA_THROWAWAY_PLAYERS_LAPSE") or "1") != "0",
            token_cache_seconds=float(env.get("POYTA_TOKEN_CACHE_SECONDS") or 2.0),
            budgets=budgets,
            public_url=public_url,
            rp_id=env.get("POYTA_RP_ID") or public.hostname or cls.rp_id,
            origin=(env.get("POYTA_ORIGIN") or f"{public.scheme}://{public.netloc}").rstrip("/"),
            vapid_subject=env.get("POYTA_VAPID_SUBJECT") or cls.vapid_subject,
            rate_limits=json.loads(env.get("POYTA_RATE_LIMITS") or "{}"),
            outbound=Policy(
                loopback=env.get("POYTA_OUTBOUND_HTTP_LOOPBACK") == "1" or loopback_only(env),
                push_hosts=tuple(host.strip().lower() for host in push_hosts.split(","))
                if push_hosts else DEFAULT_PUSH_HOSTS),
            proxy_hops=int(env.get("POYTA_PROXY_HOPS") or 0),
            metrics_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            metrics_token=env.get("POYTA_METRICS_TOKEN") or None,
            host=env.get("HOST") or cls.host,
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            test_clock=env.get(TEST_CLOCK) or None,
            vacation_days=int(env.get("POYTA_VACATION_DAYS") or 30),
            bot_seconds_a_minute=float(env.get("POYTA_BOT_SECONDS_A_MINUTE") or 10.0),
            cors_origins=tuple(origin.strip().rstrip("/") for origin in
                               (env.get("POYTA_CORS_ORIGINS") or "").split(",") if origin.strip()),
            max_game_actions=int(env.get("POYTA_MAX_GAME_ACTIONS") or MAX_LOG_ACTIONS),
            seek_grace_seconds=float(env.get("POYTA_SEEK_GRACE_SECONDS") or 600.0),
            analysis_seconds=float(env.get("POYTA_ANALYSIS_SECONDS") or 60.0),
        )
