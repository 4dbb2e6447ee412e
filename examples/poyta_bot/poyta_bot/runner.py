"""The runner: everything a bot does on Pöytä except deciding its moves.

It follows the player's event stream (`GET /api/v1/stream`, NDJSON, one connection for all
the player's games), resumes it after a drop or a restart with `Last-Event-ID`, and at each
`your_turn` reads the game's view, asks `decide(view)` for an action and sends it with the
view's `version` and an `Idempotency-Key` kept across its retries. A 409 (the game moved on)
means looking again; a 429 or 503 means waiting as `Retry-After` says; a dropped connection
means trying again with backoff. Challenges (a seat kept for the player) are found in the
inbox and taken or declined by `accept(summary)`. Every step is logged (`logging`, logger
`poyta_bot`).

The stream may repeat an event after a reconnect, never miss one: turns are told once per
`game` and `since`, finishes once per `game`. With `state=` a file, the runner keeps there
where its stream resumes and the games it saw end, so a bot killed and started again picks up
where it was.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx

log = logging.getLogger("poyta_bot")

View = dict[str, Any]
Action = dict[str, Any]
HEARTBEAT = 20.0      # seconds between the stream's heartbeats: a read waits for three
MAX_BACKOFF = 30.0    # seconds between tries when the server cannot be reached


def register(server: str, name: str) -> str:
    """A new player registered as a bot; its token (keep it: it is the bot's identity)."""
    answer = httpx.post(f"{server.rstrip('/')}/api/v1/players",
                        json={"name": name, "bot": True}, timeout=30)
    answer.raise_for_status()
    return answer.json()["token"]


def accept_all(summary: dict) -> bool:
    return True


def decline_all(summary: dict) -> bool:
    return False


class Runner:
    """One bot: `decide(view)` picks an action from the view's `legal_actions`; `accept(summary)`
    says whether to take a seat kept for the bot (the inbox's summary of that game)."""

    def __init__(self, server: str, token: str, decide: Callable[[View], Action], *,
                 accept: Callable[[dict], bool] = decline_all, state: str | Path | None = None,
                 inbox_every: float = 30.0):
        self.api = f"{server.rstrip('/')}/api/v1"
        self.http = httpx.Client(headers={"Authorization": f"Bearer {token}"},
                                 timeout=httpx.Timeout(30, read=3 * HEARTBEAT))
        self.decide, self.accept = decide, accept
        self.state = Path(state) if state else None
        self.inbox_every = inbox_every
        self.last_event_id: str | None = None
        self.finished: dict[str, dict] = {}        # game: its `game_finished` event
        self.turns: set[tuple[str, int]] = set()   # (game, since) played
        self._load()

    # --- calls ---------------------------------------------------------------------------------
    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        """One call, sent until it is answered: a POST keeps its Idempotency-Key across its
        retries, so the server applies it once however often it is sent."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if method == "POST" else {}
        backoff = 1.0
        while True:
            try:
                answer = self.http.request(method, self.api + path, json=body, headers=headers)
            except httpx.TransportError as error:
                log.warning("%s %s: %s; again in %.0f s", method, path, error, backoff)
                time.sleep(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF)
                continue
            if answer.status_code in (429, 503):
                wait = float(answer.headers.get("Retry-After") or backoff)
                log.info("%s %s: %s, waiting %.0f s (Retry-After)", method, path,
                         answer.status_code, wait)
                time.sleep(wait)
                continue
            return answer

    def create_game(self, body: dict) -> View:
        """A new game (`createGame`); the bot takes seat 0."""
        answer = self.call("POST", "/games", body)
        answer.raise_for_status()
        view = answer.json()
        log.info("created %s game %s", view["type"], view["id"])
        return view

    # --- running ---------------------------------------------------------------------------------
    def run(self, until: Callable[["Runner"], bool] = lambda runner: False) -> None:
        """Play every game of the bot's as its events come, until `until(self)` holds (looked
        at after each event; a heartbeat comes every 20 s)."""
        self.look_at_inbox()
        inbox_at = time.monotonic() + self.inbox_every
        if until(self):
            return
        events = self.events()
        try:
            for event in events:
                self.handle(event)
                if time.monotonic() >= inbox_at:
                    self.look_at_inbox()
                    inbox_at = time.monotonic() + self.inbox_every
                if until(self):
                    return
        finally:
            events.close()  # the stream's connection with it: its slot is free at once

    def handle(self, event: dict) -> None:
        kind, game = event["type"], event.get("game")
        if kind == "your_turn" and (game, event["since"]) not in self.turns:
            self.turns.add((game, event["since"]))
            self.play(game)
        elif kind == "game_started":
            log.info("game %s (%s) goes on, seat %s", game, event["game_type"], event["seat"])
        elif kind == "game_finished" and game not in self.finished:
            self.finished[game] = event
            log.info("game %s finished: place %s, scores %s", game, event["your_place"],
                     event["outcome"]["scores"])
            self._save()

    def play(self, game_id: str) -> None:
        """Act for as long as the seat is to act: decide on the view, send it with the view's
        version; a 409 means the game moved on, so look again."""
        answer = self.call("GET", f"/games/{game_id}")
        while answer.status_code == 200:
            view = answer.json()
            if view["status"] != "active" or view["your_seat"] not in view["to_act"]:
                return
            action = self.decide(view)
            answer = self.call("POST", f"/games/{game_id}/actions",
                               {"action": action, "version": view["version"]})
            if answer.status_code == 409:
                log.info("game %s moved on before %s: looking again", game_id, action)
                answer = self.call("GET", f"/games/{game_id}")
            elif answer.status_code == 200:
                log.info("game %s: played %s", game_id, action)
        if answer.status_code != 200:
            log.error("game %s: %s %s", game_id, answer.status_code, answer.text[:300])

    def look_at_inbox(self) -> None:
        """Take or decline each seat kept for the bot (a challenge), as `accept` says."""
        answer = self.call("GET", "/players/me/games")
        if answer.status_code != 200:
            log.error("inbox: %s %s", answer.status_code, answer.text[:300])
            return
        for summary in answer.json():
            if summary.get("invitation") is None:
                continue
            game, sender = summary["id"], summary["invitation"].get("from")
            if self.accept(summary):
                taken = self.call("POST", f"/games/{game}/join", {})
                log.info("accepted %s's challenge to %s game %s: %s", sender, summary["type"],
                         game, taken.status_code)
            else:
                declined = self.call("POST", f"/games/{game}/decline")
                log.info("declined %s's challenge to game %s: %s", sender, game,
                         declined.status_code)

    # --- the stream --------------------------------------------------------------------------
    def events(self) -> Iterator[dict]:
        """The player's events, without end: after a drop the stream is opened again with the
        last event's id as `Last-Event-ID` (kept in `state` once the event is handled)."""
        backoff = 1.0
        while True:
            headers = {"Accept": "application/x-ndjson"}
            if self.last_event_id:
                headers["Last-Event-ID"] = self.last_event_id
            try:
                with self.http.stream("GET", f"{self.api}/stream", headers=headers) as stream:
                    if stream.status_code in (429, 503):
                        wait = float(stream.headers.get("Retry-After") or backoff)
                        log.info("stream: %s, waiting %.0f s (Retry-After)", stream.status_code,
                                 wait)
                        time.sleep(wait)
                        continue
                    if stream.status_code != 200:
                        stream.read()
                        raise RuntimeError(f"the stream answered {stream.status_code}: "
                                           f"{stream.text[:300]}")
                    log.info("following the event stream%s", f" from {self.last_event_id}"
                             if self.last_event_id else "")
                    backoff = 1.0
                    for line in stream.iter_lines():
                        if not line:
                            continue
                        event = json.loads(line)
                        yield event
                        if event.get("id"):
                            self.last_event_id = event["id"]
                            self._save()
            except httpx.TransportError as error:
                log.warning("the stream dropped (%s): resuming in %.0f s", error, backoff)
                time.sleep(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF)

    # --- the state kept across restarts ------------------------------------------------------------
    def _load(self) -> None:
        if self.state is None or not self.state.exists():
            return
        kept = json.loads(self.state.read_text())
        self.last_event_id = kept.get("last_event_id")
        self.finished = kept.get("finished", {})
        log.info("resuming from %s: %d games seen finished", self.state, len(self.finished))

    def _save(self) -> None:
        if self.state is None:
            return
        written = self.state.with_suffix(".tmp")
        written.write_text(json.dumps({"last_event_id": self.last_event_id,
                                       "finished": self.finished}))
        written.replace(self.state)
