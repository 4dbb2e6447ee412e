"""A player's webhook: their event stream (`api.tables.streams`), POSTed to one URL of theirs as
it happens, signed per Standard Webhooks. A bot can live on it instead of holding a stream open.

* One webhook per player (`PUT /players/me/webhook`): a new PUT replaces it, with a new secret
  (`whsec_...`, shown once, in that answer) and a fresh start: the games going on are told
  again, as at a stream's first connect.
* What it carries is what the player's stream tells, derived the same way (`Streams.start`,
  then `Streams.changes` on the `Told` kept with the webhook): `game_started`, `your_turn`,
  `game_finished`, `chat`, `challenge`, `challenge_declined`, `challenge_withdrawn`. One POST per event, in order: `{"type", "timestamp", "data"}`,
  `data` being the stream's event as it is; the headers `webhook-id` (the same for the same
  event on every attempt: a turn is one `game` and `since`, a chat line one `game` and
  `number`), `webhook-timestamp` (the attempt's) and `webhook-signature` (`v1,<HMAC-SHA256>` of
  `id.timestamp.body` under the secret: `standardwebhooks.Webhook(secret).verify(body,
  headers)`).
* Every commit and every line said marks the players it concerns who have a webhook, then
  queues their delivery (`api.storage.jobs.JobBoard.deliver_webhook`, one waiting job per
  player: a burst coalesces), never inside the request: a move never waits for a receiver. A
  mark left by a process that died before queueing is found by `sweep`, run by the worker's
  sweeper every second, within `api.tables.consequences.DUE_GRACE`.
* One delivery run per player at a time (a lease); a run that finds it held asks the holder to
  look once more. The events a look finds go to the webhook's outbox with the new cursor state
  in one write; each leaves the outbox when the receiver answered 2xx. At most `MAX_OUTBOX`
  wait (the oldest go), and none longer than `MAX_EVENT_AGE`.
* What an answer means is the webhook pipeline's (`api.tables.delivery`). A transient failure
  stops the run there (the order is kept) and RQ's retry (`api.storage.jobs.RETRY`: 1, 5, 15 s) runs it again; after those the
  sweeper tries again later and later (`retry_after`: up to hourly). Other answers (3xx, other
  4xx) and destinations `api.outbound` refuses drop that event, recorded as the last delivery.
* Every request goes through `api.outbound`: never to an internal address, no redirect, short
  time-outs; at most `SENDS_PER_RUN` POSTs a run, so a run ends well within its lease.
* To try a receiver: `ping` sends a signed `ping` at once and says what it answered; an event
  the receiver refused is kept (`undelivered`, at most `MAX_OUTBOX`) until `redeliver` puts it
  back in the outbox, ahead of those waiting, and starts a run at once, whatever the backoff.
"""
from __future__ import annotations

import base64
import json
import logging
import secrets
import time
from datetime import datetime, timezone

from standardwebhooks import Webhook

from api import outbound
from api.settings import Settings
from api.storage.webhooks import member, player_of
from api.tables import delivery
from api.tables.delivery import DELIVERED, DROPPED, RETRYING
from api.tables.errors import Conflict, NotFound, Unprocessable
from api.tables.model import Player, iso
from api.tables.streams import Streams, Told

log = logging.getLogger(__name__)

SECRET_BYTES = 32          # Standard Webhooks: 24 to 64 random bytes, base64 after `whsec_`
LEASE_SECONDS = 120        # how long one run may hold a player's webhook
SENDS_PER_RUN = 10         # POSTs (8 s each at most) a run makes; then another run goes on
LOOKS_PER_RUN = 10         # looks a run takes when other runs keep asking for one more
MAX_OUTBOX = 100           # events waiting for a receiver that does not take them
MAX_EVENT_AGE = 86400      # seconds an event waits at most
SWEEP_LIMIT = 200          # marks one sweep looks at
USER_AGENT = "Poyta-Webhooks/1"
LOCAL_NOTE = ("This server listens on this machine only, so it sends to this machine over plain "
              "http, for trying a receiver; a server reachable from elsewhere never does: use an "
              "https URL at a public address there")


class WebhookRetry(Exception):
    """The receiver could not take an event for now; RQ runs the job again."""


class _Later(Exception):
    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds


def retry_after(failures: int) -> float:
    """When the sweeper tries again after `failures` transient failures in a row, unless RQ's
    retry comes first: 1, 2, 4 ... minutes, at most an hour."""
    return min(60.0 * 2 ** max(failures - 1, 0), 3600.0)


def message_id(hook_id: str, event: dict) -> str:
    """The same for the same event on every attempt (the receiver's key to drop a repeat)."""
    part = {"your_turn": "since", "chat": "number", "challenge_declined": "seat"}.get(
        event["type"])
    return f"msg_{hook_id}_{event['type']}_{event['game']}" + (f"_{event[part]}" if part else "")


def outbox_entry(hook_id: str, event: dict, now: float) -> dict:
    """An event in the outbox, as it is sent: its `webhook-id`, when it was told, the event."""
    return {"id": message_id(hook_id, event), "at": now, "type": event["type"], "data": event}


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


class Webhooks:
    def __init__(self, streams: Streams, settings: Settings):
        self.streams = streams
        self.games = streams.games
        self.store = streams.storage.webhooks
        self.jobs = streams.games.jobs
        self.marks = self.jobs.webhook_marks
        self.settings = settings

    # --- the player's webhook -------------------------------------------------------------------
    def set(self, player: Player, url: str) -> dict:
        """The player's webhook at `url`, replacing any other; the answer holds the secret."""
        try:
            parts = outbound.check_url(url, self.settings.outbound)
        except outbound.Refused as error:
            raise Unprocessable(f"url: {error}") from None
        created, secret, hook_id = time.time(), new_secret(), secrets.token_hex(8)
        # The first look is now, as a stream's first connect: the games going on. A change
        # from here on is a change of its look.
        told, events = self.streams.start(player, None)
        self.store.put(player.id, {
            "id": hook_id, "url": url, "secret": secret, "created": repr(created),
            "told": told.to_json(),
            "outbox": json.dumps([outbox_entry(hook_id, event, created) for event in events])})
        self.marks.add(player.id)
        # Each game of theirs learns at its next commit that they have one.
        self.store.forget_hooked(self.streams.storage.players.game_ids(player.id))
        self._deliver_now(player.id)
        answer = {"url": url, "secret": secret, "created": iso(created)}
        if outbound.on_this_machine(parts.hostname):
            answer["note"] = LOCAL_NOTE
        return answer

    def ping(self, player: Player) -> dict:
        """A signed `ping` to the player's webhook now: what the receiver answered. Not kept,
        not retried: it is for trying the receiver and its check of the signature."""
        hook = self._hook(player)
        now = time.time()
        message = {"id": f"msg_{hook['id']}_ping_{secrets.token_hex(6)}", "at": now,
                   "type": "ping", "data": {"type": "ping", "at": iso(now)}}
        outcome, status, error = self._post(hook["url"], hook["secret"], message)
        return {"at": iso(now), "event": message["id"], "type": "ping", "status": status,
                "delivered": outcome == DELIVERED, "error": error}

    def redeliver(self, player: Player) -> dict:
        """The events the receiver refused, back in the outbox ahead of those waiting, and a
        delivery run now, whatever the backoff after failures: how many wait."""
        hook = self._hook(player)
        token = secrets.token_hex(8)
        if not self.store.begin(player.id, token, LEASE_SECONDS):
            raise Conflict("a delivery to your webhook is running now: try again in a few "
                           "seconds", "busy")
        try:
            hook = self._hook(player)
            outbox = (json.loads(hook.get("undelivered", "[]"))
                      + json.loads(hook["outbox"]))[-MAX_OUTBOX:]
            self.store.save(player.id, hook["id"], {
                "outbox": json.dumps(outbox), "undelivered": "[]", "failures": "0"})
        finally:
            self.store.release(player.id, token)
        self._deliver_now(player.id)
        return {"pending": len(outbox)}

    def _deliver_now(self, player_id: str) -> None:
        follow = self.games.follow
        follow.deliver_webhooks(follow.owe_webhooks([player_id]))

    def describe(self, player: Player) -> dict:
        hook = self._hook(player)
        return {"url": hook["url"], "created": iso(float(hook["created"])),
                "pending": len(json.loads(hook.get("outbox", "[]"))),
                "undelivered": len(json.loads(hook.get("undelivered", "[]"))),
                "failures": int(hook.get("failures", 0)), "dropped": int(hook.get("dropped", 0)),
                "last_delivery": json.loads(hook["last"]) if "last" in hook else None}

    def remove(self, player: Player) -> None:
        gone = self.store.delete(player.id)
        self.marks.forget(player.id)
        if not gone:
            raise NotFound("you have no webhook")

    def _hook(self, player: Player) -> dict[str, str]:
        hook = self.store.get(player.id)
        if hook is None or "url" not in hook:
            raise NotFound("you have no webhook")
        return hook

    # --- delivery (the worker's job) ----------------------------------------------------------
    def deliver(self, player_id: str, token: str) -> int:
        """Tell the player's webhook what their stream has not told it yet; the events
        delivered by this run (0: nothing new, no webhook, or another run is at it)."""
        self.jobs.webhook_run_started(player_id)
        if not self.store.begin(player_id, token, LEASE_SECONDS):
            return 0  # another run holds the lease: it looks once more when it is done
        sent = sends = 0
        try:
            for _ in range(LOOKS_PER_RUN):
                # Should this run die, the sweeper queues another once the lease is gone.
                self.marks.mark([player_id], token, LEASE_SECONDS)
                delivered, tried, more = self._look_and_send(player_id, SENDS_PER_RUN - sends)
                sent, sends = sent + delivered, sends + tried
                if more or sends >= SENDS_PER_RUN:
                    self.store.release(player_id, token)
                    self.jobs.deliver_webhook(player_id, again=True)
                    break
                if not self.store.finish(player_id, token, LEASE_SECONDS):
                    break
            else:
                self.store.release(player_id, token)
                self.jobs.deliver_webhook(player_id, again=True)
        except _Later as later:
            self.store.release(player_id, token)
            self.marks.mark([player_id], token, later.seconds)  # after RQ's retries: the sweeper
            raise WebhookRetry(f"webhook of player {player_id}: {later}") from None
        except BaseException:
            self.store.release(player_id, token)  # the mark stays for the sweeper
            raise
        self.marks.settle([member(player_id, token)])
        return sent

    def _look_and_send(self, player_id: str, most: int) -> tuple[int, int, bool]:
        """Look for new events, then send what waits: (delivered, POSTs made, more waits)."""
        hook = self.store.get(player_id)
        if hook is None or "url" not in hook:
            self.marks.forget(player_id)
            return 0, 0, False
        told = Told.from_json(hook["told"])
        events = self.streams.changes(Player(player_id, "", False), told)
        now = time.time()
        waiting = json.loads(hook["outbox"]) + [outbox_entry(hook["id"], event, now)
                                                for event in events]
        outbox = [message for message in waiting if message["at"] >= now - MAX_EVENT_AGE
                  ][-MAX_OUTBOX:]
        dropped = int(hook.get("dropped", 0)) + len(waiting) - len(outbox)
        if not self.store.save(player_id, hook["id"], {
                "told": told.to_json(), "outbox": json.dumps(outbox), "dropped": str(dropped)}):
            return 0, 0, False  # deleted or replaced meanwhile
        delivered = tried = 0
        failures = int(hook.get("failures", 0))
        undelivered = json.loads(hook.get("undelivered", "[]"))
        while outbox and tried < most:
            message = outbox[0]
            outcome, status, error = self._post(hook["url"], hook["secret"], message)
            tried += 1
            last = {"at": iso(time.time()), "event": message["id"], "type": message["type"],
                    "status": status, "outcome": outcome, "error": error}
            if outcome == RETRYING:
                failures += 1
                self.store.save(player_id, hook["id"], {"failures": str(failures),
                                                        "last": json.dumps(last)})
                raise _Later(error, retry_after(failures))
            outbox.pop(0)
            delivered += outcome == DELIVERED
            dropped += outcome == DROPPED
            if outcome == DROPPED:
                undelivered = [*undelivered, message][-MAX_OUTBOX:]  # for `redeliver`
            failures = 0 if outcome == DELIVERED else failures
            if not self.store.save(player_id, hook["id"], {
                    "outbox": json.dumps(outbox), "last": json.dumps(last),
                    "dropped": str(dropped), "failures": str(failures),
                    "undelivered": json.dumps(undelivered)}):
                return delivered, tried, False
        return delivered, tried, bool(outbox)

    def _post(self, url: str, secret: str, message: dict) -> tuple[str, int | None, str | None]:
        """One event to the receiver: its outcome, the receiver's status and what went wrong."""
        body = json.dumps({"type": message["type"], "timestamp": iso(message["at"]),
                           "data": message["data"]}, separators=(",", ":"))
        now = int(time.time())
        signature = Webhook(secret).sign(message["id"], datetime.fromtimestamp(now, timezone.utc),
                                         body)
        headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT,
                   "webhook-id": message["id"], "webhook-timestamp": str(now),
                   "webhook-signature": signature}
        sent = delivery.post(url, self.settings.outbound, f"webhook event {message['id']}",
                             data=body.encode(), headers=headers)
        return sent.outcome, sent.status, sent.error

    # --- the sweeper -----------------------------------------------------------------------------
    def sweep(self, limit: int = SWEEP_LIMIT) -> int:
        """Queue a delivery for every mark whose time passed (a process died before queueing
        it, a run died, or a failing receiver's next try is due); the marks seen."""
        marks = self.marks.overdue(limit)
        for mark in marks:
            self.jobs.deliver_webhook(player_of(mark), again=True)
        self.marks.settle(marks)
        return len(marks)
