"""The "your turn" and "game started" notices: Web Push to a player's subscribed devices, and the game's webhook.

The worker job `worker.jobs.notify_turn` calls `Notices.notify_turn`; the reminders and the
daily digest (`api.tables.reminders`) are other kinds of notice sent by `Notices.deliver`.
Delivery rules, decided here once:

* One notice per turn (per reminder, per digest). The job first takes a short lease on the
  notice (SET NX); when everything went out it is kept for `NOTIFIED_TTL` so a second
  run of the job sends nothing.
* Each target (every subscription, and the webhook) is tried on its own: one
  failing never keeps the others from being sent.
* A push answered 404 or 410 means the subscription is gone: it is deleted.
  Other 4xx answers from a push service are permanent for this message: logged and dropped,
  since retrying would not help. The game's webhook goes through the webhook pipeline
  (`api.tables.delivery`), which the players' webhooks share.
* Network errors, time-outs, 429 and 5xx are transient: after every target was
  tried, the targets already served are remembered with the notice, the lease is released and
  `NotifyRetry` is raised so RQ's retry (`api.storage.jobs.RETRY`) runs the job
  again; the next run sends only what is still missing.
* Payloads carry the game's title and id, never cards or any other secret.
* Every request goes through `api.outbound`: never to an internal address, no
  redirect, short time-outs. A destination it refuses is logged and dropped.
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from api import outbound
from api.settings import Settings
from api.tables import delivery
from api.tables.delivery import transient_status
from api.tables.games import Games
from api.tables.model import ACTIVE
from api.tables.push import Push

log = logging.getLogger(__name__)

NOTIFIED_TTL = 7 * 86400          # how long a turn is remembered as notified
LEASE_SECONDS = 120               # how long one run may hold a turn while sending
PUSH_TTL = 86400                  # how long a push service keeps an undelivered notice
VAPID_EXPIRY = 12 * 3600          # the JWT's "exp", at most 24 h ahead (RFC 8292)


class NotifyRetry(Exception):
    """Some notices could not be delivered for now; RQ runs the job again."""


class _Transient(Exception):
    pass


@dataclass(frozen=True)
class Notice:
    game_id: str
    seat: int
    player_id: str
    name: str
    title: str
    link: str

    def topic(self) -> str:
        """A push service keeps only the newest undelivered notice of one topic."""
        return self.game_id[:32]

    def push_payload(self) -> str:
        """What the service worker shows: the game's title and id, nothing secret."""
        return json.dumps({"title": "Your turn", "body": f"{self.title}: it is your turn",
                           "url": f"/#/game/{self.game_id}", "game": self.game_id})

    def webhook_body(self) -> dict:
        """Discord reads `content`, Slack `text`: a player's name can neither mention
        anybody nor make a link in either."""
        turn = f"it is your turn in {self.title}: {self.link}"
        discord = f"{outbound.discord_text(self.name)}, {turn}"
        slack = f"{outbound.slack_text(self.name)}, {turn}"
        return {"content": discord, "text": slack, "username": "Pöytä",
                "allowed_mentions": {"parse": []}}


@dataclass(frozen=True)
class StartNotice(Notice):
    """Every seat of the player's game is taken; somebody else begins."""

    def push_payload(self) -> str:
        return json.dumps({"title": "Game started", "body": f"{self.title}: every seat is taken",
                           "url": f"/#/game/{self.game_id}", "game": self.game_id})


class Notices:
    def __init__(self, games: Games, push: Push, settings: Settings):
        self.games = games
        self.push = push
        self.store = push.store
        self.settings = settings

    def notify_turn(self, game_id: str, seat: int, turn_since: int) -> int:
        """Tell the player of `seat` that their turn began at version `turn_since`.

        Returns the number of notices sent by this run (pushes plus the webhook);
        0 when the turn is over, not a human's, or was already notified.
        """
        stored = self.games.find(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return 0
        entry = stored.seats[seat]
        if (seat not in stored.to_act() or entry.turn_since != turn_since
                or stored.played_by_bot(seat) or entry.player_id is None):
            return 0

        notice = Notice(game_id=game_id, seat=seat, player_id=entry.player_id,
                        name=entry.name or "Player", title=stored.game.title,
                        link=f"{self.settings.public_url}/#/game/{game_id}")
        return self.deliver(notice, ("turn", game_id, seat, turn_since),
                            self.targets(notice.player_id, stored.meta.webhook))

    def notify_started(self, game_id: str, player_id: str) -> int:
        """Tell a seated player, once, that their game started (a table matchmaking or a
        tournament formed, or a friend took the last seat); a Web Push only: the player's own
        webhook hears it on their stream. 0 when they no longer sit there or it is over."""
        stored = self.games.find(game_id)
        seat = stored.seated().get(player_id) if stored is not None else None
        if seat is None or stored.status() != ACTIVE:
            return 0
        notice = StartNotice(game_id=game_id, seat=seat, player_id=player_id,
                             name=stored.seats[seat].name or "Player", title=stored.game.title,
                             link=f"{self.settings.public_url}/#/game/{game_id}")
        return self.deliver(notice, ("started", game_id, player_id),
                            self.targets(player_id, None))

    def targets(self, player_id: str, webhook: str | None) -> list[tuple[str, object]]:
        """The player's subscribed devices, and the webhook if there is one."""
        targets = [(f"push:{sub_id}", sub)
                   for sub_id, sub in self.store.subscriptions(player_id).items()]
        if webhook:
            targets.append(("webhook", webhook))
        return targets

    def deliver(self, notice: Notice, mark: tuple, targets: list[tuple[str, object]]) -> int:
        """Send the notice named `mark` (see `PushStore`) to each target not served yet, once.
        Returns the number sent by this run; 0 when it was sent already."""
        lease = secrets.token_hex(8)
        if not self.store.take_notice_lease(mark, lease, LEASE_SECONDS):
            return 0  # notified already, or another run is sending right now
        done = self.store.notices_sent(mark)
        try:
            sent, transient = self._send_all(notice, targets, done, mark)
        except BaseException:
            # A bug or a bad setting: let the retry try again.
            self.store.release_notice_lease(mark, lease)
            raise
        if transient:
            self.store.release_notice_lease(mark, lease)
            raise NotifyRetry(f"{len(transient)} notice(s) for game {notice.game_id} seat "
                              f"{notice.seat} not delivered yet: {', '.join(transient)}")
        self.store.notice_done(mark, NOTIFIED_TTL)
        return sent

    def _send_all(self, notice: Notice, targets: list[tuple[str, object]], done: set[str],
                  mark: tuple) -> tuple[int, list[str]]:
        """Try every target not served yet; returns (notices sent, targets to retry)."""
        sent, transient = 0, []
        for target, detail in targets:
            if target in done:
                continue
            try:
                if target == "webhook":
                    delivered = self._post_webhook(detail, notice)
                else:
                    delivered = self.send_push(notice, target.removeprefix("push:"), detail)
            except _Transient as error:
                log.warning("notice %s for game %s seat %s failed, will retry: %s",
                            target, notice.game_id, notice.seat, error)
                transient.append(target)
                continue
            sent += delivered
            self.store.notice_sent(mark, target, NOTIFIED_TTL)
        return sent, transient

    def send_push(self, notice: Notice, sub_id: str, subscription: dict) -> int:
        """1 when the push service accepted the notice, 0 when it is dropped for good."""
        endpoint = subscription["endpoint"]
        parts = urlsplit(endpoint)
        claims = {"sub": self.settings.vapid_subject, "aud": f"{parts.scheme}://{parts.netloc}",
                  "exp": int(time.time()) + VAPID_EXPIRY}
        policy = self.settings.outbound
        try:
            # Checked before the VAPID signature is made: it goes only to a push service.
            outbound.check_url(endpoint, policy, push=True)
            webpush({"endpoint": endpoint, "keys": subscription["keys"]},
                    data=notice.push_payload(), vapid_private_key=Vapid(self.push.private_key()),
                    vapid_claims=claims, content_encoding="aes128gcm", ttl=PUSH_TTL,
                    requests_session=outbound.Session(policy),
                    headers={"Urgency": "normal", "Topic": notice.topic()})
        except outbound.Refused as error:
            log.error("push subscription %s of player %s refused: %s", sub_id,
                      notice.player_id, error)
            return 0
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)  # None: not sent at all
            if status in (404, 410):
                log.info("push subscription %s of player %s is gone (%s): deleted",
                         sub_id, notice.player_id, status)
                self.store.unsubscribe(notice.player_id, sub_id)
                return 0
            if status is not None and transient_status(status):
                raise _Transient(f"push service answered {status}") from error
            log.error("push service refused the notice for subscription %s: %s", sub_id, error)
            return 0
        except outbound.Unreachable as error:
            raise _Transient(f"push service unreachable: {error}") from error
        return 1

    def _post_webhook(self, url: str, notice: Notice) -> int:
        sent = delivery.post(url, self.settings.outbound, f"turn notice of game {notice.game_id}",
                             json=notice.webhook_body())
        if sent.outcome == delivery.RETRYING:
            raise _Transient(sent.error or "webhook unreachable")
        return int(sent.outcome == delivery.DELIVERED)
