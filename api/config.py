"""Every setting read from the environment, in one place.

    REDIS_URL                  the game store (default redis://127.0.0.1:6379/0)
    RQ_REDIS_URL               the Redis of the job queue (default: the game store's)
    POYTA_RETENTION_DAYS       finished or idle games and idle players expire after this (30)
    POYTA_TOKEN_CACHE_SECONDS  how long a process trusts a bearer token it looked up (2)
    POYTA_MEDIUM_SECONDS, POYTA_HARD_SECONDS   CPU seconds a search bot thinks per move
    POYTA_PUBLIC_URL           the address links in notices point to
    POYTA_VAPID_SUBJECT        the contact in Web Push's VAPID claims
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping

from rules.search import Budget

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True)
class Settings:
    redis_url: str = DEFAULT_REDIS_URL
    rq_redis_url: str | None = None
    retention_seconds: int = 30 * 86400
    token_cache_seconds: float = 2.0
    budgets: dict[str, Budget] = field(default_factory=dict)
    public_url: str = "http://127.0.0.1:8000"
    vapid_subject: str = "mailto:admin@localhost"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        redis_url = env.get("REDIS_URL") or DEFAULT_REDIS_URL
        budgets = {level: Budget(seconds=float(env[f"POYTA_{level.upper()}_SECONDS"]))
                   for level in ("medium", "hard") if env.get(f"POYTA_{level.upper()}_SECONDS")}
        return cls(
            redis_url=redis_url,
            rq_redis_url=env.get("RQ_REDIS_URL") or None,
            retention_seconds=int(float(env.get("POYTA_RETENTION_DAYS") or 30) * 86400),
            token_cache_seconds=float(env.get("POYTA_TOKEN_CACHE_SECONDS") or 2.0),
            budgets=budgets,
            public_url=(env.get("POYTA_PUBLIC_URL") or cls.public_url).rstrip("/"),
            vapid_subject=env.get("POYTA_VAPID_SUBJECT") or cls.vapid_subject,
        )
