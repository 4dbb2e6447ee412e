"""Every setting read from the environment, in one place.

    REDIS_URL, REDIS_CLUSTER, RQ_REDIS_URL   where the game store and the queue live
                               (read by `api.storage.connections.settings`)
    POYTA_RETENTION_DAYS       finished or idle games and idle players expire after this (30)
    POYTA_TOKEN_CACHE_SECONDS  how long a process trusts a bearer token it looked up (2)
    POYTA_MEDIUM_SECONDS, POYTA_HARD_SECONDS   CPU seconds a search bot thinks per move
    POYTA_PUBLIC_URL           the address links in notices point to
    POYTA_VAPID_SUBJECT        the contact in Web Push's VAPID claims
    POYTA_RATE_LIMITS          budgets replaced, as JSON: {"act": "1200/minute", ...}
                               (the names are `api.http.budgets.BUDGETS`')
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Mapping

from api.storage import connections
from rules.search import Budget


@dataclass(frozen=True)
class Settings:
    connections: dict = field(default_factory=lambda: connections.settings({}))
    retention_seconds: int = 30 * 86400
    token_cache_seconds: float = 2.0
    budgets: dict[str, Budget] = field(default_factory=dict)
    public_url: str = "http://127.0.0.1:8000"
    vapid_subject: str = "mailto:admin@localhost"
    rate_limits: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        budgets = {level: Budget(seconds=float(env[f"POYTA_{level.upper()}_SECONDS"]))
                   for level in ("medium", "hard") if env.get(f"POYTA_{level.upper()}_SECONDS")}
        return cls(
            connections=connections.settings(env),
            retention_seconds=int(float(env.get("POYTA_RETENTION_DAYS") or 30) * 86400),
            token_cache_seconds=float(env.get("POYTA_TOKEN_CACHE_SECONDS") or 2.0),
            budgets=budgets,
            public_url=(env.get("POYTA_PUBLIC_URL") or cls.public_url).rstrip("/"),
            vapid_subject=env.get("POYTA_VAPID_SUBJECT") or cls.vapid_subject,
            rate_limits=json.loads(env.get("POYTA_RATE_LIMITS") or "{}"),
        )
