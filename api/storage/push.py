"""Web Push in Redis: the server's VAPID key, each player's browser subscriptions (an endpoint
belongs to one player at a time), and each notice sent once ("your turn", a reminder, a digest,
a challenge: a lease while sending, the targets reached, then a mark)."""
from __future__ import annotations

import json

from redis import Redis

from api.storage import keys

# Deletes KEYS[1] only while it holds ARGV[1].
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class PushStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._release = redis.register_script(_RELEASE)

    def vapid_pem(self, make) -> bytes:
        """The server's VAPID key (PEM); the first caller's `make()` wins, so all agree."""
        pem = self.redis.get(keys.VAPID_KEY)
        if pem is None:
            self.redis.set(keys.VAPID_KEY, make(), nx=True)
            pem = self.redis.get(keys.VAPID_KEY)
        return pem

    def subscribe(self, player_id: str, sub_id: str, entry: dict, most: int) -> bool:
        """Store a browser's subscription; False when the player already has `most` others.

        An endpoint belongs to one player at a time: whoever subscribed it last.
        """
        key = keys.push_subscriptions(player_id)
        if not self.redis.hexists(key, sub_id) and self.redis.hlen(key) >= most:
            return False
        previous = self.redis.set(keys.push_owner(sub_id), player_id, get=True,
                                  ex=self.retention)
        if previous is not None and previous.decode() != player_id:
            self.redis.hdel(keys.push_subscriptions(previous.decode()), sub_id)
        pipe = self.redis.pipeline()
        pipe.hset(key, sub_id, json.dumps(entry))
        pipe.expire(key, self.retention)
        pipe.execute()
        return True

    def unsubscribe(self, player_id: str, sub_id: str) -> bool:
        if not self.redis.hdel(keys.push_subscriptions(player_id), sub_id):
            return False
        self._release(keys=[keys.push_owner(sub_id)], args=[player_id])
        return True

    def subscriptions(self, player_id: str) -> dict[str, dict]:
        return {sub_id.decode(): json.loads(raw) for sub_id, raw in
                self.redis.hgetall(keys.push_subscriptions(player_id)).items()}

    # --- notices, each sent once: a lease while sending, the targets reached, then a mark ------
    # A notice is named by its kind and parts: ("turn", game id, seat, turn_since),
    # ("reminder", game id, seat, turn_since, kind), ("digest", player id, day) or
    # ("challenge", game id, seat, player id) or ("started", game id, player id).
    @staticmethod
    def _mark(notice: tuple) -> str:
        kind, *parts = notice
        return {"turn": keys.notice, "reminder": keys.reminder, "digest": keys.digest,
                "challenge": keys.challenge_notice, "started": keys.start_notice}[kind](*parts)

    def take_notice_lease(self, notice: tuple, lease: str, seconds: int) -> bool:
        return bool(self.redis.set(self._mark(notice), lease, nx=True, ex=seconds))

    def release_notice_lease(self, notice: tuple, lease: str) -> None:
        self._release(keys=[self._mark(notice)], args=[lease])

    def notice_done(self, notice: tuple, seconds: int) -> None:
        self.redis.set(self._mark(notice), "sent", ex=seconds)

    def notices_sent(self, notice: tuple) -> set[str]:
        return {target.decode() for target in
                self.redis.smembers(self._mark(notice) + ":sent")}

    def notice_sent(self, notice: tuple, target: str, seconds: int) -> None:
        key = self._mark(notice) + ":sent"
        pipe = self.redis.pipeline()
        pipe.sadd(key, target)
        pipe.expire(key, seconds)
        pipe.execute()
