"""Players and games: the one place that checks, changes and shows them.

Used by the HTTP views and by the worker alike, so both go through the same checks. Storage
(every key, script and channel) is `api.storage.store`; this module decides what to store. Every change
is a compare-and-set on the game's version, so concurrent requests never lose an update; one
load per action, and the change is committed in one script that also wakes long-polls.

No turn is ever lost: a commit that makes bots due or starts a deadline first records the game
in the due-set, then commits, then queues the job (one pending bot job per game, which moves
every bot seat due, one after another, each from its own view). A game whose bots due include
one of `DEEP_LEVELS` has its job on the deep queue, every other on the quick one, so long
thinking never holds up a quick reply. A worker-side sweeper
(`worker.runner`) looks at every game whose due time passed and queues again what went missing:
a job lost with a process that died between commit and enqueue, a job of a worker killed
mid-move, or a deadline that passed while no worker ran.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import signal
import threading
import time
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from redis import Redis
from rq import Retry

from api import telemetry
from api.tables import vapid
from api.settings import Settings
from api.storage.store import (BOT_QUEUE, DEEP_BOT_QUEUE, NOTICE_QUEUE, Commit, GameRecord, JobBoard,
                       Store)
from rules import GAMES, IllegalAction, InvalidOptions
from rules.base import Game
from rules.search import DEFAULT_BUDGETS, Budget

__all__ = ["BOT_QUEUE", "DEEP_BOT_QUEUE", "NOTICE_QUEUE", "Service"]

HUMAN = "human"
WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"
CAS_ATTEMPTS = 20
STANDIN_AFTER_TIMEOUTS = 3
SIGNIN_CODE_SECONDS = 600
MAX_SUBSCRIPTIONS = 20   # push subscriptions per player
PACES = {"none": None, "5m": 300, "1h": 3600, "1d": 86400, "3d": 3 * 86400}
DEFAULT_PACE = "1d"
CHAT_LENGTH = 200  # characters in one message at a table
CHAT_KEEP = 100    # messages a table keeps (the oldest go)
CHAT_RATE = (5, 30)  # at most this many messages from one player at one table, in these seconds
RETRY = Retry(max=3, interval=[1, 5, 15])
DUE_GRACE = 2.0          # seconds a queued job has before the sweeper looks after its game
BOT_MOVES_PER_JOB = 50   # then the job hands on to a fresh one, so none runs for long
DEEP_LEVELS = frozenset({"hard"})  # bot levels that think long: their games' jobs go deep
# A search bot thinks at least this share of its level's budget per move, however late its job
# began (hard: 0.05 s, where the tournaments show it still well ahead of easy and the baseline).
LEAST_SHARE = 0.05
# The bots answering a move stop thinking at this share of their turn's budget on the wall clock:
# the rest is for storing their moves and waking the player's view.
THINKING_SHARE = 0.9
# A test hook: the API process dies right after a commit, before it queues the job.
DIE_AFTER_COMMIT = "POYTA_TEST_DIE_AFTER_COMMIT"


class ServiceError(Exception):
    """A request that cannot be carried out; `status` is its HTTP code."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Unprocessable(ServiceError):
    status = 422


class TooManyRequests(ServiceError):
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class StoredGame:
    id: str
    game: Game
    meta: dict
    state: dict
    version: int
    record: GameRecord | None = None  # as loaded: a commit sends only the JSON that changed
    new_bots_job: str | None = None   # the job a commit made due, queued right after it

    @property
    def seats(self) -> list[dict]:
        return self.meta["seats"]

    def status(self) -> str:
        if any(seat["bot"] is None and seat["player_id"] is None for seat in self.seats):
            return WAITING
        return FINISHED if self.game.outcome(self.state) is not None else ACTIVE

    def seat_of(self, player_id: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if player_id is not None and seat["player_id"] == player_id:
                return index
        return None

    def to_act(self) -> list[int]:
        return self.game.to_act(self.state) if self.status() == ACTIVE else []

    def played_by_bot(self, seat: int) -> bool:
        return self.seats[seat]["bot"] is not None or self.seats[seat]["standin"]

    def bots_to_act(self) -> list[int]:
        return [seat for seat in self.to_act() if self.played_by_bot(seat)]

    def bot_level(self, seat: int) -> str:
        return self.seats[seat]["bot"] or self.game.bot_levels[0].name

    def humans(self) -> list[str]:
        return [seat["player_id"] for seat in self.seats if seat["player_id"]]

    def seat_kept_for(self, player_id: str) -> bool:
        """A seat of this waiting game is reserved for the player (a rematch)."""
        return self.status() == WAITING and any(
            seat["reserved_for"] == player_id and seat["player_id"] is None for seat in self.seats)


_BOTS_NOW = -1.0  # the due time of a game whose bots must move now


def _due_time(stored: StoredGame) -> float | None:
    """When a worker must act in the game: now for its bots, else its first deadline."""
    if stored.bots_to_act():
        return _BOTS_NOW
    deadlines = [stored.seats[seat]["deadline"] for seat in stored.to_act()
                 if stored.seats[seat]["deadline"] is not None]
    return min(deadlines, default=None)


class _Turns:
    """What was due before a change: tells which jobs and due times the change adds."""

    def __init__(self, stored: StoredGame | None):
        """`None`: a new game, before which nothing was due."""
        self.to_act = stored.to_act() if stored else []
        self.bots = [seat for seat in self.to_act if stored.played_by_bot(seat)]
        self.due = _due_time(stored) if stored else None


class _TurnClock:
    """The thinking time of the bots that answer one move, kept on the player's clock.

    From the commit that made them due, the bots answering it think at most THINKING_SHARE of
    the budget of the slowest search level seated, in all and on the wall clock: the time left
    is shared evenly among the game's search bots that have not moved yet (bots that choose at
    once, and bots that play one after another in a trick alike). Each also keeps its level's
    CPU budget per move, and thinks at least LEAST_SHARE of it, however late its job began.
    """

    def __init__(self, stored: StoredGame, budgets: dict[str, Budget]):
        self.budgets = budgets
        searching = [budget.seconds for seat in range(len(stored.seats))
                     if stored.played_by_bot(seat)
                     and (budget := self.level_budget(stored.bot_level(seat))) and budget.seconds]
        self.left = len(searching)
        since = min(stored.meta["updated"], time.time())  # another host's clock may run ahead
        thinking = THINKING_SHARE * max(searching, default=0.0)
        self.deadline = time.monotonic() + since + thinking - time.time()

    def level_budget(self, level: str) -> Budget | None:
        return self.budgets.get(level) or DEFAULT_BUDGETS.get(level)

    def budget(self, level: str) -> Budget | None:
        """The next decision's budget: its level's, stopped by its share of the time left."""
        budget = self.level_budget(level)
        if budget is None or not budget.seconds:
            return budget
        now = time.monotonic()
        share = max((self.deadline - now) / max(self.left, 1), LEAST_SHARE * budget.seconds)
        self.left -= 1
        return replace(budget, deadline=now + share)


class Service:
    def __init__(self, redis: Redis, paces: dict[str, int | None] | None = None,
                 budgets: dict[str, Budget] | None = None, queue_redis: Redis | None = None,
                 settings: Settings | None = None):
        self.settings = settings or Settings()
        self.store = Store(redis, self.settings.retention_seconds)
        self.jobs = JobBoard(queue_redis or redis)
        self.paces = {**PACES, **(paces or {})}
        self.budgets = budgets if budgets is not None else self.settings.budgets
        self._tokens: dict[str, tuple[float, dict]] = {}
        self._tokens_lock = threading.Lock()

    # --- players -----------------------------------------------------------------
    def create_player(self, name: str, bot: bool = False) -> dict:
        player_id = secrets.token_hex(8)
        token, token_hash, device_id, device = self._new_token(player_id, "first device")
        self.store.create_player(player_id, {"name": name, "bot": int(bot), "created": time.time()},
                                 token_hash, device_id, device)
        return {"id": player_id, "name": name, "bot": bot, "token": token}

    @staticmethod
    def _new_token(player_id: str, label: str) -> tuple[str, str, str, dict]:
        """A token names its player, so one call on the player's keys checks it."""
        token = f"{player_id}.{secrets.token_urlsafe(32)}"
        token_hash = _hash(token)
        device_id = token_hash[:16]
        return token, token_hash, device_id, {"token_hash": token_hash, "label": label,
                                              "created": time.time()}

    def player_for_token(self, token: str) -> dict | None:
        """The token's player; trusted for `token_cache_seconds` in this process."""
        token_hash = _hash(token)
        now = time.monotonic()
        cached = self._tokens.get(token_hash)
        if cached is not None and cached[0] > now:
            return cached[1]
        player_id, dot, _ = token.partition(".")
        found = self.store.identity(player_id, token_hash) if dot else None
        if found is None:
            return None
        player = {"id": player_id, "name": found[0], "bot": found[1], "device": token_hash[:16]}
        with self._tokens_lock:
            if len(self._tokens) > 10000:
                self._tokens = {key: entry for key, entry in self._tokens.items() if entry[0] > now}
            self._tokens[token_hash] = (now + self.settings.token_cache_seconds, player)
        return player

    def _forget_token(self, token_hash: str) -> None:
        with self._tokens_lock:
            self._tokens.pop(token_hash, None)

    def rename(self, player: dict, name: str) -> dict:
        """The new name, and at the tables of the player's unfinished games too, without a
        commit: each game keeps the names changed since its players sat down beside its state,
        and counts the changes in its ETag, so watching phones see it at once. A finished game
        keeps the name its player had when it ended, as its record does."""
        self.store.rename_player(player["id"], name, self.store.game_ids(player["id"]))
        with self._tokens_lock:
            self._tokens = {key: entry for key, entry in self._tokens.items()
                            if entry[1]["id"] != player["id"]}
        return {"id": player["id"], "name": name, "bot": player["bot"]}

    def signin_code(self, player: dict) -> dict:
        """A one-use code that signs another device in as this player."""
        code = secrets.token_urlsafe(24)
        self.store.save_signin_code(_hash(code), player["id"], SIGNIN_CODE_SECONDS)
        return {"code": code, "expires_in": SIGNIN_CODE_SECONDS}

    def sign_in(self, code: str, label: str) -> dict:
        player_id = self.store.take_signin_code(_hash(code))
        found = self.store.player(player_id) if player_id else None
        if found is None:
            raise Unprocessable("this sign-in code is unknown, used or expired; make a new one")
        token, token_hash, device_id, device = self._new_token(player_id, label)
        self.store.add_device(player_id, token_hash, device_id, device)
        return {"id": player_id, "name": found[0], "bot": found[1], "token": token}

    def devices(self, player: dict) -> list[dict]:
        devices = [{"id": device_id, "label": entry["label"], "created": _iso(entry["created"]),
                    "current": device_id == player["device"]}
                   for device_id, entry in self.store.devices(player["id"]).items()]
        return sorted(devices, key=lambda device: device["created"])

    def revoke(self, player: dict, device_id: str) -> None:
        token_hash = self.store.revoke(player["id"], device_id)
        if token_hash is None:
            raise NotFound(f"no device {device_id!r}")
        self._forget_token(token_hash)

    # --- Web Push ------------------------------------------------------------------------
    def push_key(self) -> str:
        return vapid.public_key(self.store)

    def subscribe_push(self, player: dict, subscription: dict) -> str:
        """Store (or renew) a browser's subscription for a player; returns its id.

        An endpoint belongs to one player at a time: when another player signs in on the same
        browser and subscribes, the previous player stops getting notices on it.
        """
        sub_id = hashlib.sha256(subscription["endpoint"].encode()).hexdigest()
        entry = {"endpoint": subscription["endpoint"],
                 "keys": {"p256dh": subscription["keys"]["p256dh"],
                          "auth": subscription["keys"]["auth"]},
                 "created": time.time()}
        if not self.store.subscribe_push(player["id"], sub_id, entry, MAX_SUBSCRIPTIONS):
            raise Unprocessable(f"at most {MAX_SUBSCRIPTIONS} push subscriptions per player; "
                                "delete one first")
        return sub_id

    def unsubscribe_push(self, player: dict, sub_id: str) -> None:
        if not self.store.unsubscribe_push(player["id"], sub_id):
            raise NotFound(f"no push subscription {sub_id!r}")

    # --- game types -------------------------------------------------------------
    def game_types(self) -> list[dict]:
        return [game.describe() for game in GAMES.values()]

    def game_type(self, type_name: str) -> Game:
        try:
            return GAMES[type_name]
        except KeyError:
            raise NotFound(f"unknown game type {type_name!r}; known: {', '.join(GAMES)}") from None

    # --- creating and joining ----------------------------------------------------
    def create_game(self, player: dict, type: str, players: int, options: dict,
                    seats: list[Any], pace: str = DEFAULT_PACE, public: bool = False,
                    webhook: str | None = None) -> StoredGame:
        if type not in GAMES:
            raise Unprocessable(f"unknown game type {type!r}; known: {', '.join(GAMES)}")
        game = GAMES[type]
        try:
            options = game.normalise_options(players, options)
        except InvalidOptions as error:
            raise Unprocessable(str(error)) from None
        seat_list = self._parse_seats(game, players, seats)
        self._check_pace(pace, seat_list)
        seat_list[0].update(player_id=player["id"], name=player["name"], invite=None,
                            automated=player["bot"])
        meta = {"type": game.name, "players": players, "options": options, "seats": seat_list,
                "pace": pace, "pace_seconds": self.paces[pace], "public": public, "webhook": webhook, "created": time.time(),
                "updated": time.time(), "rematch_of": None, "rematch": None}
        return self._store_new_game(game, meta, player["id"])

    def _store_new_game(self, game: Game, meta: dict, creator_id: str, creator_seat: int = 0
                        ) -> StoredGame:
        state = game.new_game(meta["players"], meta["options"], secrets.randbits(63))
        game_id = secrets.token_urlsafe(12)
        stored = StoredGame(game_id, game, meta, state, 0)
        self.store.create_game(game_id, [seat["invite"] for seat in meta["seats"] if seat["invite"]],
                               meta["created"] if meta["public"] else None)
        turns = _Turns(None)
        self._track_turns(stored, turns.to_act)
        if not self._try_commit(stored, turns, None, [], {f"seat:{creator_id}": creator_seat}):
            raise Conflict("the game changed while it was being created")
        self.store.seated(creator_id, game_id, None, stored.status() != WAITING)
        self._after_commit(stored)
        return stored

    @staticmethod
    def _parse_seats(game: Game, players: int, seats: list[Any]) -> list[dict]:
        if len(seats) != players:
            raise Unprocessable(f"seats must list exactly {players} entries, one per player")
        levels = {level.name for level in game.bot_levels}
        parsed = []
        for index, spec in enumerate(seats):
            seat = {"name": None, "bot": None, "player_id": None, "standin": False,
                    "timeouts": 0, "turn_since": None, "deadline": None, "reserved_for": None,
                    "invite": None, "automated": False}
            if spec == HUMAN:
                seat["invite"] = secrets.token_urlsafe(12)
            elif (isinstance(spec, dict) and set(spec) == {"bot"} and isinstance(spec["bot"], str)
                  and spec["bot"] in levels):
                seat.update(name=f"Bot {index + 1} ({spec['bot']})", bot=spec["bot"])
            else:
                raise Unprocessable(
                    f"seat {index} must be \"human\" or {{\"bot\": level}} with level one of "
                    f"{', '.join(sorted(levels))}")
            parsed.append(seat)
        if parsed[0]["bot"] is not None:
            raise Unprocessable("seat 0 is the creator's and must be \"human\"")
        return parsed

    def _check_pace(self, pace: str, seats: list[dict]) -> None:
        if pace not in self.paces:
            raise Unprocessable(f"pace must be one of {', '.join(self.paces)}")
        if self.paces[pace] is None and sum(seat["bot"] is None for seat in seats) > 1:
            raise Unprocessable("pace 'none' is only for games whose opponents are all bots")

    def join(self, game_id: str, player: dict, seat: int | None) -> StoredGame:
        def take(stored: StoredGame) -> dict:
            open_seats = [index for index, s in enumerate(stored.seats)
                          if s["bot"] is None and s["player_id"] is None
                          and s["reserved_for"] in (None, player["id"])]
            chosen = seat
            if chosen is None:
                reserved = [i for i in open_seats if stored.seats[i]["reserved_for"] == player["id"]]
                chosen = (reserved or open_seats or [None])[0]
            if chosen is None:
                raise Conflict("this game has no open seat")
            if chosen not in open_seats:
                raise Conflict(f"seat {chosen} is not open to you; open seats: {open_seats}")
            return {"seat": chosen}
        return self._seat_player(game_id, player, take)

    def accept_invite(self, code: str, player: dict) -> StoredGame:
        game_id = self.store.invite(code)
        if game_id is None:
            raise NotFound("this invite link is unknown or was already used")

        def take(stored: StoredGame) -> dict:
            for index, seat in enumerate(stored.seats):
                if seat["invite"] == code and seat["player_id"] is None:
                    return {"seat": index}
            raise Conflict("this invite's seat is already taken")
        return self._seat_player(game_id, player, take)

    def _seat_player(self, game_id: str, player: dict, choose) -> StoredGame:
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            if stored.seat_of(player["id"]) is not None:
                raise Conflict("you already have a seat in this game")
            seat = choose(stored)["seat"]
            invite = stored.seats[seat]["invite"]
            turns = _Turns(stored)
            stored.seats[seat].update(player_id=player["id"], name=player["name"], invite=None,
                                      reserved_for=None, automated=player["bot"])
            self._track_turns(stored, turns.to_act)
            if self._try_commit(stored, turns, None, [], {f"seat:{player['id']}": seat}):
                self.store.seated(player["id"], game_id, invite, stored.status() != WAITING)
                self._after_commit(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def lobby(self) -> list[dict]:
        games, gone = [], []
        for game_id in self.store.lobby():
            stored = self._load_or_none(game_id)
            if stored is not None and stored.status() == WAITING:
                games.append(self.summary(stored, None))
            else:
                gone.append(game_id)
        self.store.leave_lobby(gone)
        return games

    # --- loading and viewing -----------------------------------------------------
    def load(self, game_id: str) -> StoredGame:
        stored = self._load_or_none(game_id)
        if stored is None:
            raise NotFound(f"no game with id {game_id!r}")
        return stored

    def _load_or_none(self, game_id: str, player: dict | None = None) -> StoredGame | None:
        record = self.store.load(game_id, player and player["id"])
        if record is None:
            return None
        meta = json.loads(record.meta)
        seats = json.loads(record.seats)
        for seat in seats:
            if seat["player_id"] in (record.names or {}):
                seat["name"] = record.names[seat["player_id"]]
        meta.update(seats=seats, updated=record.updated)
        return StoredGame(game_id, GAMES[meta["type"]], meta, json.loads(record.state),
                          record.version, record)

    def etag_parts(self, game_id: str, player: dict | None) -> dict:
        """What the ETag is made of, read without the game's JSON: the version, the caller's
        seat and the number of renames at the table; refuses private spectators."""
        head = self.store.head(game_id, player and player["id"])
        if head is None:
            raise NotFound(f"no game with id {game_id!r}")
        version, seat, _, public, renamed = head
        self._may_watch(game_id, player, seat, public)
        return {"version": version, "seat": seat, "renamed": renamed}

    def watch(self, game_id: str, player: dict | None) -> tuple[dict, StoredGame]:
        """The ETag's parts and the game, in one read; refuses private spectators."""
        stored = self._load_or_none(game_id, player)
        if stored is None:
            raise NotFound(f"no game with id {game_id!r}")
        record = stored.record
        self._may_watch(game_id, player, record.seat, record.public, stored)
        return {"version": record.version, "seat": record.seat, "renamed": record.renamed}, stored

    def _may_watch(self, game_id: str, player: dict | None, seat: int | None,
                   public: bool, stored: StoredGame | None = None) -> None:
        """A private game, even while it waits for players, only to its players and to a player
        a seat is kept for (a rematch); anybody else takes a seat through an invite link."""
        if seat is not None or public:
            return
        stored = stored or (self._load_or_none(game_id) if player else None)
        if stored is None or player is None or not stored.seat_kept_for(player["id"]):
            raise Forbidden("this game is private: only its players may watch it")

    def view(self, stored: StoredGame, seat: int | None) -> dict:
        game = stored.game
        status = stored.status()
        seen = game.view(stored.state, seat)
        to_act = stored.to_act()
        may_act = status == ACTIVE and seat is not None and not stored.seats[seat]["standin"]
        return {
            "id": stored.id,
            "type": game.name,
            "title": game.title,
            "options": stored.meta["options"],
            "pace": stored.meta["pace"],
            "public": stored.meta["public"],
            "version": stored.version,
            "status": status,
            "phase": seen["phase"],
            "deal": seen["deal"],
            "seats": [self._seat_view(s, index, seen["scores"][index], index in to_act)
                      for index, s in enumerate(stored.seats)],
            "your_seat": seat,
            "to_act": to_act,
            "hand": seen["hand"],
            "legal_actions": game.legal_actions(stored.state, seat) if may_act else [],
            "table": seen["table"],
            "outcome": game.outcome(stored.state) if status == FINISHED else None,
            "invites": [{"seat": index, "code": s["invite"]} for index, s in enumerate(stored.seats)
                        if s["invite"] and s["player_id"] is None] if seat is not None else [],
            "rematch_of": stored.meta["rematch_of"],
            "rematch": stored.meta["rematch"],
        }

    @staticmethod
    def _seat_view(seat: dict, index: int, score: Any, to_act: bool) -> dict:
        return {"seat": index, "name": seat["name"], "bot": seat["bot"],
                "joined": seat["bot"] is not None or seat["player_id"] is not None,
                "automated": seat["automated"],
                "score": score, "to_act": to_act, "standin": seat["standin"],
                "resigned": bool(seat.get("resigned")),
                "timeouts": seat["timeouts"],
                "deadline": _iso(seat["deadline"]) if seat["deadline"] else None}

    def summary(self, stored: StoredGame, player_id: str | None) -> dict:
        """One line of an inbox or of the lobby."""
        seat = stored.seat_of(player_id)
        to_act = stored.to_act()
        scores = stored.game.view(stored.state, None)["scores"]
        deadline = stored.seats[seat]["deadline"] if seat is not None else None
        return {
            "id": stored.id, "type": stored.game.name, "title": stored.game.title,
            "status": stored.status(), "your_seat": seat,
            "your_turn": seat is not None and seat in to_act and not stored.seats[seat]["standin"],
            "deadline": _iso(deadline) if deadline else None,
            "updated": _iso(stored.meta["updated"]),
            "players": [{"seat": i, "name": s["name"], "bot": s["bot"], "score": scores[i]}
                        for i, s in enumerate(stored.seats)],
            "open_seats": sum(1 for s in stored.seats if s["bot"] is None and s["player_id"] is None),
        }

    def inbox(self, player: dict) -> list[dict]:
        lines, gone = [], []
        for game_id in self.store.game_ids(player["id"]):
            stored = self._load_or_none(game_id)
            if stored is None or (stored.seat_of(player["id"]) is None
                                  and not stored.seat_kept_for(player["id"])):
                gone.append(game_id)  # expired after its retention, or left
            else:
                lines.append(self.summary(stored, player["id"]))
        self.store.forget_games(player["id"], gone)
        far = "9999"
        return sorted(lines, key=lambda line: (not line["your_turn"], line["status"] == FINISHED,
                                               line["deadline"] or far,
                                               _descending(line["updated"])))

    def inbox_version(self, player: dict) -> str:
        """Changes whenever any of the player's games does: a digest of their versions.

        Commits publish to each seated player's inbox channel but write no key of theirs, so a
        move costs the same however many humans play and needs no other hash slot.
        """
        game_ids = self.store.game_ids(player["id"])
        versions = self.store.versions(game_ids) if game_ids else []
        return hashlib.sha256(json.dumps([game_ids, versions]).encode()).hexdigest()[:20]

    # --- acting ---------------------------------------------------------------------
    def act(self, game_id: str, player: dict, action: Any, version: int | None) -> StoredGame:
        stored = self.load(game_id)
        seat = stored.seat_of(player["id"])
        if seat is None:
            raise Forbidden("you have no seat in this game")
        if stored.seats[seat]["standin"]:
            raise Unprocessable("a bot plays this seat after repeated time-outs; take it back first")
        return self.apply(game_id, seat, action, version, by_player=True, loaded=stored)

    def apply(self, game_id: str, seat: int, action: Any, version: int | None,
              by_player: bool = False, note: dict | None = None,
              seat_changes: dict | None = None, loaded: StoredGame | None = None) -> StoredGame:
        """Apply `action` for `seat`; with `version`, only to exactly that version.

        `note` is an event told before the action's own (a stand-in's move);
        `seat_changes` update the seat's entry in the same commit; `loaded` is the game as just
        loaded, used for the first attempt.
        """
        for _ in range(CAS_ATTEMPTS):
            stored, loaded = loaded or self.load(game_id), None
            if version is not None and version != stored.version:
                raise Conflict(f"the game is at version {stored.version}, not {version}; reload it")
            status = stored.status()
            if status == WAITING:
                raise Unprocessable("the game has not started: it is waiting for players to join")
            if status == FINISHED:
                raise Unprocessable("the game is over")
            turns = _Turns(stored)
            try:
                events = stored.game.apply_action(stored.state, seat, action)
            except IllegalAction as error:
                raise Unprocessable(str(error)) from None
            if by_player:
                stored.seats[seat]["timeouts"] = 0
            # Acting ends the seat's turn; if it must act again, a new turn (and clock) starts.
            stored.seats[seat]["turn_since"] = None
            stored.seats[seat].update(seat_changes or {})
            if note is not None:
                events = [note, *events]
            self._track_turns(stored, turns.to_act)
            entry = {"seat": seat, "action": action, "version": stored.version}
            # A seat that was not to act changed its secret choice: the log keeps one entry.
            if self._try_commit(stored, turns, entry, events, {}, seat=seat,
                                replace=seat not in turns.to_act):
                self._after_commit(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def _update_meta(self, game_id: str, change) -> StoredGame:
        """Change the game's seats or meta (not its rules state) with the same compare-and-set."""
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            turns = _Turns(stored)
            events = change(stored) or []
            self._track_turns(stored, turns.to_act)
            if self._try_commit(stored, turns, None, events, {}):
                self._after_commit(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def take_back(self, game_id: str, player: dict) -> StoredGame:
        def give_back(stored: StoredGame) -> None:
            seat = stored.seat_of(player["id"])
            if seat is None:
                raise Forbidden("you have no seat in this game")
            if stored.seats[seat].get("resigned"):
                raise Conflict("you resigned this game: a bot plays your seat to the end")
            if not stored.seats[seat]["standin"]:
                raise Conflict("you already play your seat yourself")
            stored.seats[seat].update(standin=False, timeouts=0, turn_since=None, deadline=None)
        return self._update_meta(game_id, give_back)

    def resign(self, game_id: str, player: dict) -> StoredGame:
        """The player gives up their seat for good: a bot plays it to the end."""
        def give_up(stored: StoredGame) -> list[dict]:
            seat = stored.seat_of(player["id"])
            if seat is None:
                raise Forbidden("you have no seat in this game")
            if stored.status() != ACTIVE:
                raise Conflict("only a game in progress can be resigned")
            if stored.seats[seat].get("resigned"):
                raise Conflict("you have resigned this game already")
            stored.seats[seat].update(standin=True, resigned=True, turn_since=None, deadline=None)
            return [{"type": "resigned", "seat": seat}]
        return self._update_meta(game_id, give_up)

    def leave(self, game_id: str, player: dict) -> StoredGame | None:
        """The player leaves a game that has not started: their seat opens again with a new
        invite link. The last player to leave deletes the game (None is returned then)."""
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            seat = stored.seat_of(player["id"])
            if seat is None:
                raise Forbidden("you have no seat in this game")
            status = stored.status()
            if status == ACTIVE:
                raise Conflict("the game has started, so it cannot be left: resign instead "
                               f"(POST /api/v1/games/{game_id}/resign) and a bot plays your seat")
            if status == FINISHED:
                raise Conflict("the game is over")
            if stored.humans() == [player["id"]]:
                if self.store.drop_game(game_id, stored.version, [player["id"]]):
                    self.store.forget_game(game_id, [s["invite"] for s in stored.seats if s["invite"]])
                    self.store.forget_games(player["id"], [game_id])
                    self._unlink_rematch(stored)
                    return None
                continue
            # The old link was spent when the seat was taken: the open seat gets a new one,
            # stored first so the commit never names a link that does not work.
            invite = secrets.token_urlsafe(12)
            self.store.add_invite(game_id, invite)
            turns = _Turns(stored)
            stored.seats[seat].update(player_id=None, name=None, invite=invite, automated=False)
            self._track_turns(stored, turns.to_act)
            if self._try_commit(stored, turns, None, [], {}, forget=(f"seat:{player['id']}",),
                                leaving=player["id"]):
                self.store.forget_games(player["id"], [game_id])
                self._after_commit(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def _unlink_rematch(self, dropped: StoredGame) -> None:
        """A dropped rematch no longer follows its game, so the players may ask for another."""
        original = dropped.meta["rematch_of"]
        if original is None:
            return

        def unlink(old: StoredGame) -> None:
            if old.meta["rematch"] == dropped.id:
                old.meta["rematch"] = None
        try:
            self._update_meta(original, unlink)
        except NotFound:
            return  # the finished game has expired meanwhile
        self.store.release_rematch(original)

    # --- talk at the table: a short capped list per game ----------------------------------
    def say(self, game_id: str, player: dict, text: str) -> dict:
        stored = self.load(game_id)
        seat = stored.seat_of(player["id"])
        if seat is None:
            raise Forbidden("only the game's players talk at its table")
        text = text.strip()
        if not text:
            raise Unprocessable("the message is empty")
        if len(text) > CHAT_LENGTH:
            raise Unprocessable(f"a message has at most {CHAT_LENGTH} characters")
        if any(unicodedata.category(char) == "Cc" for char in text):
            raise Unprocessable("a message is one line of plain text")
        limit, seconds = CHAT_RATE
        message = {"seat": seat, "name": stored.seats[seat]["name"], "text": text, "at": _iso(time.time())}
        number, wait = self.store.say(game_id, player["id"], message, limit, seconds, CHAT_KEEP)
        if number is None:
            raise TooManyRequests(f"at most {limit} messages in {seconds} seconds at a table", max(wait, 1))
        return {"number": number, **message}

    def chat(self, game_id: str, player: dict | None, after: int) -> dict:
        stored = self.load(game_id)
        seat = stored.seat_of(player and player["id"])
        if seat is None and not stored.meta["public"]:
            raise Forbidden("only the game's players read its table talk")
        kept, last = self.store.chat(game_id)
        return {"messages": [message for message in kept if message["number"] > after], "last": last}

    def _track_turns(self, stored: StoredGame, before: list[int]) -> None:
        """Start the clock of each human seat that has just become to act; stop the others."""
        now = time.time()
        stored.meta["updated"] = now
        pace = stored.meta["pace_seconds"]
        to_act = stored.to_act()
        for index, seat in enumerate(stored.seats):
            if index not in to_act or stored.played_by_bot(index):
                seat.update(turn_since=None, deadline=None)
            elif index not in before or seat["turn_since"] is None:
                seat.update(turn_since=stored.version + 1,
                            deadline=now + pace if pace is not None else None)

    def _try_commit(self, stored: StoredGame, turns: _Turns, action_entry: dict | None,
                    events: list[dict], extra: dict, seat: int | None = None,
                    replace: bool = False, forget: tuple[str, ...] = (),
                    leaving: str | None = None) -> bool:
        """`forget`: hash fields to delete; `leaving`: a player no longer seated whose inbox
        must hear of the change all the same, and whose changed name the game forgets."""
        new_version = stored.version + 1
        meta = {key: value for key, value in stored.meta.items() if key not in ("seats", "updated")}
        texts = {"meta": json.dumps(meta), "seats": json.dumps(stored.seats),
                 "state": json.dumps(stored.state)}
        loaded = stored.record
        fields = {name: text for name, text in texts.items()
                  if loaded is None or getattr(loaded, name) != text}
        status = stored.status()
        fields.update(updated=repr(stored.meta["updated"]), status=status,
                      public="1" if meta["public"] else "0", **extra)
        bots_job = loaded.bots_job if loaded else None
        stored.new_bots_job = None
        if stored.bots_to_act() and not turns.bots:
            bots_job = stored.new_bots_job = f"bots-{stored.id}-{new_version}"
            fields["bots_job"] = bots_job
        due = _due_time(stored)
        # Before the commit, so a process dying right after it leaves the game for the sweeper.
        if due is not None and due != turns.due:
            self.store.mark_due(stored.id, time.time() + DUE_GRACE if due == _BOTS_NOW else due)
        version = self.store.commit(Commit(
            game_id=stored.id, version=stored.version, fields=fields,
            action=json.dumps(action_entry) if action_entry else None, seat=seat, replace=replace,
            events=[json.dumps({**event, "version": new_version}) for event in events],
            players=stored.humans() + ([leaving] if leaving else []), forget=forget,
            unname=leaving,
            finishes=status == FINISHED and (loaded is None or loaded.status != FINISHED)))
        if version is None:
            return False
        stored.version = version
        stored.record = GameRecord(version, texts["meta"], texts["seats"], texts["state"],
                                   stored.meta["updated"], bots_job, None, status)
        return True

    def _after_commit(self, stored: StoredGame) -> None:
        """Queue what the new position asks for: the bots' job, turn notices."""
        if os.environ.get(DIE_AFTER_COMMIT):
            os.kill(os.getpid(), signal.SIGKILL)
        if stored.new_bots_job:
            self._queue_bots(stored, stored.new_bots_job)
        for seat in stored.to_act():
            if not stored.played_by_bot(seat) and stored.seats[seat]["turn_since"] == stored.version:
                self.jobs.enqueue("worker.jobs.notify_turn", stored.id, seat, stored.version,
                                  job_id=f"notify-{stored.id}-{seat}-{stored.version}", retry=RETRY,
                                  queue=NOTICE_QUEUE)

    # --- bots and deadlines (run by the worker) --------------------------------------
    def play_bots(self, game_id: str, queue: str | None = None) -> int:
        """Move every bot seat that must act, one after another, each from its own view, until a
        human must act; the number of moves made. The bots answering one move share one
        thinking time (`_TurnClock`). A job on the quick `queue` hands the game on to the deep
        queue when a bot of `DEEP_LEVELS` becomes due. Idempotent: with no bot due it does
        nothing."""
        stored = self._load_or_none(game_id)
        turn = _TurnClock(stored, self.budgets) if stored is not None else None
        moves = 0
        while stored is not None and stored.bots_to_act():
            if moves == BOT_MOVES_PER_JOB or (
                    moves and queue == BOT_QUEUE and self._bots_queue(stored) != BOT_QUEUE):
                self._hand_on_bots(stored)
                break
            seat = stored.bots_to_act()[0]
            note = {"type": "stand_in", "seat": seat} if stored.seats[seat]["standin"] else None
            try:
                stored = self.apply(game_id, seat, self._bot_decision(stored, seat, turn),
                                    stored.version, note=note, loaded=stored)
                moves += 1
            except Conflict:
                stored = self._load_or_none(game_id)  # a human moved meanwhile: look again
        return moves

    def _hand_on_bots(self, stored: StoredGame) -> None:
        job_id = f"bots-{stored.id}-{stored.version}"
        self.store.set_bots_job(stored.id, job_id)
        self._queue_bots(stored, job_id)

    def _queue_bots(self, stored: StoredGame, job_id: str) -> None:
        self.jobs.enqueue("worker.jobs.play_bots", stored.id, job_id=job_id, retry=RETRY,
                          queue=self._bots_queue(stored))

    @staticmethod
    def _bots_queue(stored: StoredGame) -> str:
        """The queue of the slowest level due: deep when a bot due thinks long."""
        deep = any(stored.bot_level(seat) in DEEP_LEVELS for seat in stored.bots_to_act())
        return DEEP_BOT_QUEUE if deep else BOT_QUEUE

    def deadline_passed(self, game_id: str, seat: int, turn_since: int) -> bool:
        """Play for a human whose time ran out; after repeated time-outs a bot keeps the seat."""
        stored = self._load_or_none(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return False
        entry = stored.seats[seat]
        if (entry["turn_since"] != turn_since or entry["deadline"] is None
                or time.time() < entry["deadline"] or seat not in stored.to_act()):
            return False
        timeouts = entry["timeouts"] + 1
        standin = timeouts >= STANDIN_AFTER_TIMEOUTS
        note = {"type": "timeout", "seat": seat, "standin": standin}
        try:
            self.apply(game_id, seat, self._bot_decision(stored, seat), stored.version, note=note,
                       seat_changes={"timeouts": timeouts, "standin": standin}, loaded=stored)
        except Conflict:
            return False  # the player moved just in time
        return True

    def _bot_decision(self, stored: StoredGame, seat: int, turn: _TurnClock | None = None) -> Any:
        game, state = stored.game, stored.state
        rng = random.Random(f"bot:{state['seed']}:{stored.version}:{seat}")
        level = stored.bot_level(seat)
        budget = turn.budget(level) if turn else self.budgets.get(level)
        with telemetry.bot_decision(game.name, level):
            return game.bot_action(game.view(state, seat), game.legal_actions(state, seat),
                                   level, rng, budget)

    def sweep(self, limit: int = 200) -> int:
        """Look after every game whose due time passed: queue again a job that went missing,
        play passed deadlines, and move the game's due time on. The games looked at."""
        now = time.time()
        due = self.store.due_games(now, limit)
        for game_id, seen in due:
            stored = self._load_or_none(game_id)
            self.store.reschedule_due(game_id, seen,
                                      None if stored is None else self._see_to(stored, now))
        return len(due)

    def _see_to(self, stored: StoredGame, now: float) -> float | None:
        """Make sure a job is on its way for what is due; when to look at the game next."""
        if stored.bots_to_act():
            if not self.jobs.in_hand(stored.record.bots_job):
                job_id = f"bots-{stored.id}-{stored.version}"
                if job_id != stored.record.bots_job:
                    self.store.set_bots_job(stored.id, job_id)
                self._queue_bots(stored, job_id)
            return now + DUE_GRACE
        later = []
        for seat in stored.to_act():
            entry = stored.seats[seat]
            if entry["deadline"] is None:
                continue
            if entry["deadline"] > now:
                later.append(entry["deadline"])
                continue
            job_id = f"deadline-{stored.id}-{seat}-{entry['turn_since']}"
            if not self.jobs.in_hand(job_id):
                self.jobs.enqueue("worker.jobs.deadline_passed", stored.id, seat,
                                  entry["turn_since"], job_id=job_id, retry=RETRY)
            later.append(now + DUE_GRACE)
        return min(later, default=None)

    # --- after the game ------------------------------------------------------------------
    def record(self, game_id: str) -> dict:
        stored = self.load(game_id)
        if stored.status() != FINISHED:
            raise Forbidden("the record is published when the game is over")
        actions = self.store.actions(game_id)
        return {
            "id": game_id,
            "type": stored.game.name,
            "players": stored.meta["players"],
            "options": stored.meta["options"],
            "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]} for i, s in enumerate(stored.seats)],
            **stored.game.record(self._replayed(stored, actions, recording=True)),
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in actions],
            "outcome": stored.game.outcome(stored.state),
        }

    @staticmethod
    def _replayed(stored: StoredGame, actions: list[dict], recording: bool = False) -> dict:
        """The game's state after `actions`, replayed from its seed."""
        game, meta = stored.game, stored.meta
        state = game.new_game(meta["players"], meta["options"], stored.state["seed"], recording)
        for entry in actions:
            game.apply_action(state, entry["seat"], entry["action"])
        return state

    def events(self, game_id: str, player: dict | None, after: int) -> dict:
        """The events after number `after` that the caller may see, and the number of the last,
        read at one instant so a reader that goes on from `last` never skips one."""
        found = self.store.events(game_id, player and player["id"], after)
        if found is None:
            raise NotFound(f"no game with id {game_id!r}")
        seat, _, public, raw, count, game_type = found
        self._may_watch(game_id, player, seat, public)
        visible = []
        for number, event in enumerate(raw, start=max(after, 0) + 1):
            audience = event.pop("to", None)
            if audience is None or seat in audience:
                visible.append({"number": number, **event})
        return {"type": game_type, "events": visible, "last": count}

    def replay(self, game_id: str, step: int) -> dict:
        """A finished game after its first `step` actions, every hand shown."""
        stored = self.load(game_id)
        if stored.status() != FINISHED:
            raise Forbidden("a game can be replayed when it is over")
        actions = self.store.actions(game_id)
        if not 0 <= step <= len(actions):
            raise NotFound(f"this game has steps 0 to {len(actions)}")
        game, meta = stored.game, stored.meta
        state = self._replayed(stored, actions[:step])
        seen = game.view(state, None)
        last = actions[step - 1] if step else None
        return {
            "step": step, "steps": len(actions),
            "seat": last and last["seat"], "action": last and last["action"],
            "hands": [game.view(state, seat)["hand"] for seat in range(meta["players"])],
            "view": {"type": game.name, "title": game.title, "phase": seen["phase"],
                     "deal": seen["deal"], "scores": seen["scores"], "table": seen["table"],
                     "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]}
                               for i, s in enumerate(stored.seats)]},
        }

    def rematch(self, game_id: str, player: dict) -> StoredGame:
        stored = self.load(game_id)
        seat = stored.seat_of(player["id"])
        if seat is None:
            raise Forbidden("only the game's players may ask for a rematch")
        if stored.status() != FINISHED:
            raise Conflict("a rematch can follow only a finished game")
        if stored.meta["rematch"]:
            return self.load(stored.meta["rematch"])
        seats = []
        for index, old in enumerate(stored.seats):
            seat_entry = {**old, "standin": False, "timeouts": 0, "turn_since": None, "deadline": None}
            if old["bot"] is None:
                mine = index == seat
                seat_entry.update(player_id=player["id"] if mine else None,
                                  reserved_for=None if mine else old["player_id"],
                                  name=old["name"], invite=None if mine else secrets.token_urlsafe(12))
            seats.append(seat_entry)
        meta = {**stored.meta, "seats": seats, "created": time.time(), "updated": time.time(),
                "rematch_of": game_id, "rematch": None}
        # Only one rematch per game: the first to claim the link creates it.
        if not self.store.claim_rematch(game_id):
            raise Conflict("a rematch is being created; reload in a moment")
        new = self._store_new_game(stored.game, meta, player["id"], seat)
        self._update_meta(game_id, lambda old: old.meta.update(rematch=new.id))
        return new


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")


def _descending(iso: str) -> str:
    """A sort key that orders ISO timestamps newest first."""
    return "".join(chr(0x10FFFF - ord(ch)) for ch in iso)
