"""The "your turn" notices: Web Push to a player's subscribed devices, and the game's webhook.

The API stores push subscriptions and serves the VAPID public key through the
functions here; the worker job `worker.jobs.notify_turn` calls `notify_turn`.

Delivery rules, decided here once:

* One notice per turn. The job first takes a short lease on
  `notified:<game>:<seat>:<turn_since>` with SET NX; when everything went out
  the key is kept for `NOTIFIED_TTL` so a second run of the job sends nothing.
* Each target (every subscription, and the webhook) is tried on its own: one
  failing never keeps the others from being sent.
* A push answered 404 or 410 means the subscription is gone: it is deleted.
  Other 4xx answers (from a push service or the webhook) are permanent for this
  message: logged and dropped, since retrying would not help.
* Network errors, time-outs, 429 and 5xx are transient: after every target was
  tried, the targets already served are remembered in
  `notified:<game>:<seat>:<turn_since>:sent`, the lease is released and
  `NotifyRetry` is raised so RQ's retry (see `api.service.RETRY`) runs the job
  again; the next run sends only what is still missing.
* Payloads carry the game's title and id, never cards or any other secret.
* Every request goes through `api.outbound`: never to an internal address, no
  redirect, short time-outs. A destination it refuses is logged and dropped.
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from redis import Redis

from api import chat, outbound
from api.service import NotFound, Service, Unprocessable

log = logging.getLogger(__name__)

VAPID_KEY = "vapid:private_key"
NOTIFIED_TTL = 7 * 86400          # how long a turn is remembered as notified
LEASE_SECONDS = 120               # how long one run may hold a turn while sending
PUSH_TTL = 86400                  # how long a push service keeps an undelivered notice
VAPID_EXPIRY = 12 * 3600          # the JWT's "exp", at most 24 h ahead (RFC 8292)
MAX_SUBSCRIPTIONS = 20            # per player
DEFAULT_SUBJECT = "mailto:admin@localhost"
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"

_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class NotifyRetry(Exception):
    """Some notices could not be delivered for now; RQ runs the job again."""


# --- VAPID keys ------------------------------------------------------------------------
def vapid_private_key(redis: Redis) -> ec.EllipticCurvePrivateKey:
    """The server's VAPID key, made on first use; SET NX makes every process agree."""
    pem = redis.get(VAPID_KEY)
    if pem is None:
        fresh = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
        redis.set(VAPID_KEY, fresh, nx=True)
        pem = redis.get(VAPID_KEY)
    return serialization.load_pem_private_key(pem, password=None)


def vapid_public_key(redis: Redis) -> str:
    """The public key as PushManager.subscribe's applicationServerKey wants it:
    the uncompressed P-256 point (65 bytes), base64url without padding."""
    point = vapid_private_key(redis).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# --- subscriptions -------------------------------------------------------------------------
def _subscriptions_key(player_id: str) -> str:
    return f"player:{player_id}:push"


def _owner_key(subscription_id: str) -> str:
    return f"push:owner:{subscription_id}"


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def subscribe(redis: Redis, player_id: str, subscription: dict) -> str:
    """Store (or renew) a browser's subscription for a player; returns its id.

    An endpoint belongs to one player at a time: when another player signs in
    on the same browser and subscribes, the previous player stops getting
    notices on it.
    """
    sub_id = subscription_id(subscription["endpoint"])
    key = _subscriptions_key(player_id)
    if not redis.hexists(key, sub_id) and redis.hlen(key) >= MAX_SUBSCRIPTIONS:
        raise Unprocessable(f"at most {MAX_SUBSCRIPTIONS} push subscriptions per player; "
                            "delete one first")
    entry = {"endpoint": subscription["endpoint"],
             "keys": {"p256dh": subscription["keys"]["p256dh"],
                      "auth": subscription["keys"]["auth"]},
             "created": time.time()}
    previous = redis.set(_owner_key(sub_id), player_id, get=True)
    pipe = redis.pipeline()
    if previous is not None and previous.decode() != player_id:
        pipe.hdel(_subscriptions_key(previous.decode()), sub_id)
    pipe.hset(key, sub_id, json.dumps(entry))
    pipe.execute()
    return sub_id


def unsubscribe(redis: Redis, player_id: str, sub_id: str) -> None:
    if not redis.hdel(_subscriptions_key(player_id), sub_id):
        raise NotFound(f"no push subscription {sub_id!r}")
    _drop_owner(redis, player_id, sub_id)


def subscriptions(redis: Redis, player_id: str) -> dict[str, dict]:
    return {sub_id.decode(): json.loads(raw)
            for sub_id, raw in redis.hgetall(_subscriptions_key(player_id)).items()}


def _forget(redis: Redis, player_id: str, sub_id: str) -> None:
    redis.hdel(_subscriptions_key(player_id), sub_id)
    _drop_owner(redis, player_id, sub_id)


def _drop_owner(redis: Redis, player_id: str, sub_id: str) -> None:
    _release(redis, _owner_key(sub_id), player_id)


# --- the job ---------------------------------------------------------------------------------
def notify_turn(service: Service, game_id: str, seat: int, turn_since: int) -> int:
    """Tell the player of `seat` that their turn began at version `turn_since`.

    Returns the number of notices sent by this run (pushes plus the webhook);
    0 when the turn is over, not a human's, or was already notified.
    """
    redis = service.redis
    try:
        stored = service.load(game_id)
    except NotFound:
        return 0
    if not 0 <= seat < len(stored.seats):
        return 0
    entry = stored.seats[seat]
    if (seat not in stored.to_act() or entry["turn_since"] != turn_since
            or stored.played_by_bot(seat) or entry["player_id"] is None):
        return 0

    marker = f"notified:{game_id}:{seat}:{turn_since}"
    sent_key = f"{marker}:sent"
    lease = secrets.token_hex(8)
    if not redis.set(marker, lease, nx=True, ex=LEASE_SECONDS):
        return 0  # notified already, or another run is sending right now
    done = {value.decode() for value in redis.smembers(sent_key)}

    base_url = os.environ.get("POYTA_PUBLIC_URL", DEFAULT_PUBLIC_URL).rstrip("/")
    notice = _Notice(game_id=game_id, seat=seat, player_id=entry["player_id"],
                     name=entry["name"] or "Player", title=stored.game.title,
                     link=f"{base_url}/#/game/{game_id}")
    targets = [(f"push:{sub_id}", sub)
               for sub_id, sub in subscriptions(redis, notice.player_id).items()]
    if stored.meta.get("webhook"):
        targets.append(("webhook", stored.meta["webhook"]))

    try:
        sent, transient = _send_all(redis, notice, targets, done, sent_key)
    except BaseException:
        _release(redis, marker, lease)  # a bug or a bad setting: let the retry try again
        raise
    if transient:
        _release(redis, marker, lease)
        raise NotifyRetry(f"{len(transient)} notice(s) for game {game_id} seat {seat} "
                          f"not delivered yet: {', '.join(transient)}")
    redis.set(marker, "sent", ex=NOTIFIED_TTL)
    return sent


@dataclass(frozen=True)
class _Notice:
    game_id: str
    seat: int
    player_id: str
    name: str
    title: str
    link: str

    def push_payload(self) -> str:
        """What the service worker shows: the game's title and id, nothing secret."""
        return json.dumps({"title": "Your turn", "body": f"{self.title}: it is your turn",
                           "url": f"/#/game/{self.game_id}", "game": self.game_id})

    def webhook_body(self) -> dict:
        """Discord reads `content`, Slack `text`: a player's name can neither mention
        anybody nor make a link in either."""
        discord = f"{chat.discord_text(self.name)}, it is your turn in {self.title}: {self.link}"
        slack = f"{chat.slack_text(self.name)}, it is your turn in {self.title}: {self.link}"
        return {"content": discord, "text": slack, "username": "Pöytä",
                "allowed_mentions": {"parse": []}}


def _release(redis: Redis, key: str, value: str) -> None:
    """Delete `key` only while it still holds `value`."""
    redis.register_script(_RELEASE_SCRIPT)(keys=[key], args=[value])


def _send_all(redis: Redis, notice: _Notice, targets: list[tuple[str, object]], done: set[str],
              sent_key: str) -> tuple[int, list[str]]:
    """Try every target not served yet; returns (notices sent, targets to retry)."""
    sent, transient = 0, []
    for target, detail in targets:
        if target in done:
            continue
        try:
            if target == "webhook":
                delivered = _post_webhook(detail, notice)
            else:
                delivered = _push(redis, notice, target.removeprefix("push:"), detail)
        except _Transient as error:
            log.warning("notice %s for game %s seat %s failed, will retry: %s",
                        target, notice.game_id, notice.seat, error)
            transient.append(target)
            continue
        sent += delivered
        redis.sadd(sent_key, target)
        redis.expire(sent_key, NOTIFIED_TTL)
    return sent, transient


class _Transient(Exception):
    pass


def _transient_status(status: int | None) -> bool:
    return status is None or status == 429 or status >= 500


def _push(redis: Redis, notice: _Notice, sub_id: str, subscription: dict) -> int:
    """1 when the push service accepted the notice, 0 when it is dropped for good."""
    endpoint = subscription["endpoint"]
    parts = urlsplit(endpoint)
    claims = {"sub": os.environ.get("POYTA_VAPID_SUBJECT", DEFAULT_SUBJECT),
              "aud": f"{parts.scheme}://{parts.netloc}",
              "exp": int(time.time()) + VAPID_EXPIRY}
    try:
        # Checked before the VAPID signature is made: it goes only to a push service.
        outbound.check_url(endpoint, push=True)
        webpush({"endpoint": endpoint, "keys": subscription["keys"]}, data=notice.push_payload(),
                vapid_private_key=Vapid(vapid_private_key(redis)), vapid_claims=claims,
                content_encoding="aes128gcm", ttl=PUSH_TTL, requests_session=outbound.Session(),
                headers={"Urgency": "normal", "Topic": notice.game_id[:32]})
    except outbound.Refused as error:
        log.error("push subscription %s of player %s refused: %s", sub_id, notice.player_id, error)
        return 0
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)  # None: not sent at all
        if status in (404, 410):
            log.info("push subscription %s of player %s is gone (%s): deleted",
                     sub_id, notice.player_id, status)
            _forget(redis, notice.player_id, sub_id)
            return 0
        if status is not None and _transient_status(status):
            raise _Transient(f"push service answered {status}") from error
        log.error("push service refused the notice for subscription %s: %s", sub_id, error)
        return 0
    except outbound.Unreachable as error:
        raise _Transient(f"push service unreachable: {error}") from error
    return 1


def _post_webhook(url: str, notice: _Notice) -> int:
    try:
        response = outbound.post(url, json=notice.webhook_body())
    except outbound.Refused as error:
        log.error("webhook of game %s refused: %s", notice.game_id, error)
        return 0
    except outbound.Unreachable as error:
        raise _Transient(f"webhook unreachable: {error}") from error
    if response.ok:
        return 1
    if _transient_status(response.status_code):
        raise _Transient(f"webhook answered {response.status_code}")
    log.error("webhook refused the notice (%s): %s", response.status_code, response.text[:200])
    return 0
