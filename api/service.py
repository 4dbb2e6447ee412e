"""Players and games in Redis: the one place that stores, loads and changes them.

Used by the HTTP views and by the worker alike, so both go through the same
checks. A game lives in one hash (`meta`, `state`, `version`, and one
`seat:<player id>` field per seated player) plus lists of its actions and
events. Every change is a compare-and-set on `version` done by one Lua script,
which also bumps the inbox of every seated player and publishes the change, so
concurrent requests never lose an update and long-polls wake at once.
"""
from __future__ import annotations

import hashlib
import json
import math
import random
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from redis import Redis
from rq import Queue, Retry

from rules import GAMES, IllegalAction, InvalidOptions
from rules.base import Game
from rules.search import Budget

BOT_QUEUE = "bots"
HUMAN = "human"
WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"
CAS_ATTEMPTS = 20
STANDIN_AFTER_TIMEOUTS = 3
SIGNIN_CODE_SECONDS = 600
PACES = {"none": None, "5m": 300, "1h": 3600, "1d": 86400, "3d": 3 * 86400}
DEFAULT_PACE = "1d"
CHAT_LENGTH = 200  # characters in one message at a table
CHAT_KEEP = 100    # messages a table keeps (the oldest go)
CHAT_RATE = (5, 30)  # at most this many messages from one player at one table, in these seconds
RETRY = Retry(max=3, interval=[1, 5, 15])

# Sets the new state only if nobody changed the game since it was read.
# KEYS: game hash, action list, event list, then the inbox counter of every
# seated player. ARGV: expected version, meta, state, action (or ""), number
# of events, the events, then field/value pairs for the game hash.
_COMMIT_SCRIPT = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
local version = tonumber(ARGV[1]) + 1
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'state', ARGV[3], 'version', version)
if ARGV[4] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[4]) end
local events = tonumber(ARGV[5])
for i = 6, 5 + events do redis.call('RPUSH', KEYS[3], ARGV[i]) end
for i = 6 + events, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PUBLISH', 'changed:' .. KEYS[1], version)
for i = 4, #KEYS do
  redis.call('INCR', KEYS[i])
  redis.call('PUBLISH', 'changed:' .. KEYS[i], version)
end
return version
"""


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


def game_key(game_id: str) -> str:
    return f"game:{game_id}"


def inbox_key(player_id: str) -> str:
    return f"player:{player_id}:inbox"


@dataclass
class StoredGame:
    id: str
    game: Game
    meta: dict
    state: dict
    version: int

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

    def bot_level(self, seat: int) -> str:
        return self.seats[seat]["bot"] or self.game.bot_levels[0].name

    def humans(self) -> list[str]:
        return [seat["player_id"] for seat in self.seats if seat["player_id"]]


class Service:
    def __init__(self, redis: Redis, paces: dict[str, int | None] | None = None,
                 budgets: dict[str, Budget] | None = None):
        self.redis = redis
        self.paces = {**PACES, **(paces or {})}
        self.budgets = budgets or {}
        self.queue = Queue(BOT_QUEUE, connection=redis)
        self._commit = redis.register_script(_COMMIT_SCRIPT)

    # --- players -----------------------------------------------------------------
    def create_player(self, name: str, bot: bool = False) -> dict:
        player_id = secrets.token_hex(8)
        self.redis.hset(f"player:{player_id}",
                        mapping={"name": name, "bot": int(bot), "created": time.time()})
        return {"id": player_id, "name": name, "bot": bot,
                "token": self._new_token(player_id, "first device")}

    def _new_token(self, player_id: str, label: str) -> str:
        token = secrets.token_urlsafe(32)
        token_hash = _hash(token)
        pipe = self.redis.pipeline()
        pipe.set(f"token:{token_hash}", player_id)
        pipe.hset(f"player:{player_id}:devices", token_hash[:16],
                  json.dumps({"token_hash": token_hash, "label": label, "created": time.time()}))
        pipe.execute()
        return token

    def player_for_token(self, token: str) -> dict | None:
        player_id = self.redis.get(f"token:{_hash(token)}")
        if player_id is None:
            return None
        player_id = player_id.decode()
        name, bot = self.redis.hmget(f"player:{player_id}", "name", "bot")
        if name is None:
            return None
        return {"id": player_id, "name": name.decode(), "bot": bot == b"1",
                "device": _hash(token)[:16]}

    def rename(self, player: dict, name: str) -> dict:
        self.redis.hset(f"player:{player['id']}", "name", name)
        for game_id in self._game_ids(player["id"]):
            self._update_meta(game_id, lambda stored: self._rename_seat(stored, player["id"], name))
        return {"id": player["id"], "name": name, "bot": player["bot"]}

    @staticmethod
    def _rename_seat(stored: StoredGame, player_id: str, name: str) -> None:
        stored.seats[stored.seat_of(player_id)]["name"] = name

    def signin_code(self, player: dict) -> dict:
        """A one-use code that signs another device in as this player."""
        code = secrets.token_urlsafe(24)
        self.redis.set(f"signin:{_hash(code)}", player["id"], ex=SIGNIN_CODE_SECONDS)
        return {"code": code, "expires_in": SIGNIN_CODE_SECONDS}

    def sign_in(self, code: str, label: str) -> dict:
        player_id = self.redis.getdel(f"signin:{_hash(code)}")
        if player_id is None:
            raise Unprocessable("this sign-in code is unknown, used or expired; make a new one")
        player_id = player_id.decode()
        name, bot = self.redis.hmget(f"player:{player_id}", "name", "bot")
        return {"id": player_id, "name": name.decode(), "bot": bot == b"1",
                "token": self._new_token(player_id, label)}

    def devices(self, player: dict) -> list[dict]:
        entries = self.redis.hgetall(f"player:{player['id']}:devices")
        devices = []
        for device_id, raw in entries.items():
            entry = json.loads(raw)
            devices.append({"id": device_id.decode(), "label": entry["label"],
                            "created": _iso(entry["created"]),
                            "current": device_id.decode() == player["device"]})
        return sorted(devices, key=lambda device: device["created"])

    def revoke(self, player: dict, device_id: str) -> None:
        raw = self.redis.hget(f"player:{player['id']}:devices", device_id)
        if raw is None:
            raise NotFound(f"no device {device_id!r}")
        pipe = self.redis.pipeline()
        pipe.delete(f"token:{json.loads(raw)['token_hash']}")
        pipe.hdel(f"player:{player['id']}:devices", device_id)
        pipe.execute()

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
        pipe = self.redis.pipeline()
        pipe.hset(game_key(game_id), mapping={"version": 0, "meta": "{}", "state": "{}"})
        for seat in meta["seats"]:
            if seat["invite"]:
                pipe.set(f"invite:{seat['invite']}", game_id)
        if meta["public"]:
            pipe.zadd("lobby", {game_id: meta["created"]})
        pipe.execute()
        self._track_turns(stored, before=[])
        self._commit_or_fail(stored, None, [], {f"seat:{creator_id}": creator_seat})
        self.redis.zadd(f"player:{creator_id}:games", {game_id: time.time()})
        self._after_commit(stored, before=[])
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
            elif isinstance(spec, dict) and set(spec) == {"bot"} and spec["bot"] in levels:
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
        game_id = self.redis.get(f"invite:{code}")
        if game_id is None:
            raise NotFound("this invite link is unknown or was already used")

        def take(stored: StoredGame) -> dict:
            for index, seat in enumerate(stored.seats):
                if seat["invite"] == code and seat["player_id"] is None:
                    return {"seat": index}
            raise Conflict("this invite's seat is already taken")
        return self._seat_player(game_id.decode(), player, take)

    def _seat_player(self, game_id: str, player: dict, choose) -> StoredGame:
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            if stored.seat_of(player["id"]) is not None:
                raise Conflict("you already have a seat in this game")
            seat = choose(stored)["seat"]
            invite = stored.seats[seat]["invite"]
            before = stored.to_act()
            stored.seats[seat].update(player_id=player["id"], name=player["name"], invite=None,
                                      reserved_for=None, automated=player["bot"])
            self._track_turns(stored, before)
            if self._try_commit(stored, None, [], {f"seat:{player['id']}": seat}):
                pipe = self.redis.pipeline()
                pipe.zadd(f"player:{player['id']}:games", {game_id: time.time()})
                if invite:
                    pipe.delete(f"invite:{invite}")
                if stored.status() != WAITING:
                    pipe.zrem("lobby", game_id)
                pipe.execute()
                self._after_commit(stored, before)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def lobby(self) -> list[dict]:
        games = []
        for game_id in self.redis.zrevrange("lobby", 0, 49):
            stored = self.load(game_id.decode())
            if stored.status() == WAITING:
                games.append(self.summary(stored, None))
        return games

    # --- loading and viewing -----------------------------------------------------
    def load(self, game_id: str) -> StoredGame:
        meta, state, version = self.redis.hmget(game_key(game_id), "meta", "state", "version")
        if meta is None or version == b"0":
            raise NotFound(f"no game with id {game_id!r}")
        meta = json.loads(meta)
        return StoredGame(game_id, GAMES[meta["type"]], meta, json.loads(state), int(version))

    def version_and_seat(self, game_id: str, player: dict | None) -> tuple[int, int | None]:
        """What the ETag is made of, read without loading the game state."""
        field = f"seat:{player['id']}" if player else "-"
        version, seat = self.redis.hmget(game_key(game_id), "version", field)
        if version is None or version == b"0":
            raise NotFound(f"no game with id {game_id!r}")
        return int(version), None if seat is None else int(seat)

    def viewable(self, stored: StoredGame, seat: int | None) -> StoredGame:
        if seat is None and not stored.meta["public"] and stored.status() != WAITING:
            raise Forbidden("this game is private: only its players may watch it")
        return stored

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
        lines = [self.summary(self.load(game_id), player["id"]) for game_id in self._game_ids(player["id"])]
        far = "9999"
        return sorted(lines, key=lambda line: (not line["your_turn"], line["status"] == FINISHED,
                                               line["deadline"] or far,
                                               _descending(line["updated"])))

    def inbox_version(self, player: dict) -> int:
        return int(self.redis.get(inbox_key(player["id"])) or 0)

    def _game_ids(self, player_id: str) -> list[str]:
        return [game_id.decode() for game_id in self.redis.zrevrange(f"player:{player_id}:games", 0, 199)]

    # --- acting ---------------------------------------------------------------------
    def act(self, game_id: str, player: dict, action: Any, version: int | None) -> StoredGame:
        stored = self.load(game_id)
        seat = stored.seat_of(player["id"])
        if seat is None:
            raise Forbidden("you have no seat in this game")
        if stored.seats[seat]["standin"]:
            raise Unprocessable("a bot plays this seat after repeated time-outs; take it back first")
        return self.apply(game_id, seat, action, version, by_player=True)

    def apply(self, game_id: str, seat: int, action: Any, version: int | None,
              by_player: bool = False, note: dict | None = None,
              seat_changes: dict | None = None) -> StoredGame:
        """Apply `action` for `seat`; with `version`, only to exactly that version.

        `note` is an event told before the action's own (a stand-in's move);
        `seat_changes` update the seat's entry in the same commit.
        """
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            if version is not None and version != stored.version:
                raise Conflict(f"the game is at version {stored.version}, not {version}; reload it")
            status = stored.status()
            if status == WAITING:
                raise Unprocessable("the game has not started: it is waiting for players to join")
            if status == FINISHED:
                raise Unprocessable("the game is over")
            before = stored.to_act()
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
            self._track_turns(stored, before)
            entry = {"seat": seat, "action": action, "version": stored.version}
            if self._try_commit(stored, entry, events, {}):
                self._after_commit(stored, before)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def _update_meta(self, game_id: str, change) -> StoredGame:
        """Change the game's meta (not its rules state) with the same compare-and-set."""
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            before = stored.to_act()
            events = change(stored) or []
            self._track_turns(stored, before)
            if self._try_commit(stored, None, events, {}):
                self._after_commit(stored, before)
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
        rate = f"{game_key(game_id)}:chat-rate:{player['id']}"
        pipe = self.redis.pipeline()
        pipe.incr(rate)
        pipe.expire(rate, seconds, nx=True)
        pipe.ttl(rate)
        count, _, ttl = pipe.execute()
        if count > limit:
            raise TooManyRequests(f"at most {limit} messages in {seconds} seconds at a table", max(int(ttl), 1))
        message = {"number": self.redis.incr(f"{game_key(game_id)}:chat-count"), "seat": seat,
                   "name": stored.seats[seat]["name"], "text": text, "at": _iso(time.time())}
        pipe = self.redis.pipeline()
        pipe.rpush(f"{game_key(game_id)}:chat", json.dumps(message))
        pipe.ltrim(f"{game_key(game_id)}:chat", -CHAT_KEEP, -1)
        pipe.execute()
        return message

    def chat(self, game_id: str, player: dict | None, after: int) -> dict:
        stored = self.load(game_id)
        seat = stored.seat_of(player and player["id"])
        if seat is None and not stored.meta["public"]:
            raise Forbidden("only the game's players read its table talk")
        kept = [json.loads(entry) for entry in self.redis.lrange(f"{game_key(game_id)}:chat", 0, -1)]
        return {"messages": [message for message in kept if message["number"] > after],
                "last": int(self.redis.get(f"{game_key(game_id)}:chat-count") or 0)}

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

    def _try_commit(self, stored: StoredGame, action_entry: dict | None, events: list[dict],
                    extra: dict) -> bool:
        numbered = [json.dumps({**event, "version": stored.version + 1}) for event in events]
        args = [stored.version, json.dumps(stored.meta), json.dumps(stored.state),
                json.dumps(action_entry) if action_entry else "", len(numbered), *numbered]
        for field, value in extra.items():
            args += [field, value]
        keys = [game_key(stored.id), f"{game_key(stored.id)}:actions", f"{game_key(stored.id)}:events"]
        keys += [inbox_key(player_id) for player_id in stored.humans()]
        new_version = self._commit(keys=keys, args=args)
        if not new_version:
            return False
        stored.version = int(new_version)
        return True

    def _commit_or_fail(self, stored: StoredGame, *args) -> None:
        if not self._try_commit(stored, *args):
            raise Conflict("the game changed while it was being created")

    def _after_commit(self, stored: StoredGame, before: list[int]) -> None:
        """Queue what the new position asks for: bot moves, deadlines, turn notices."""
        for seat in stored.to_act():
            if stored.played_by_bot(seat):
                self.queue.enqueue("worker.jobs.play_bot_turn", stored.id, seat, stored.version,
                                   job_id=f"bot-{stored.id}-{seat}-{stored.version}", retry=RETRY)
            elif stored.seats[seat]["turn_since"] == stored.version:
                deadline = stored.seats[seat]["deadline"]
                if deadline is not None:
                    # RQ schedules in whole seconds: round up, never run before the deadline.
                    self.queue.enqueue_at(datetime.fromtimestamp(math.ceil(deadline), timezone.utc),
                                          "worker.jobs.deadline_passed", stored.id, seat,
                                          stored.version, retry=RETRY,
                                          job_id=f"deadline-{stored.id}-{seat}-{stored.version}")
                self.queue.enqueue("worker.jobs.notify_turn", stored.id, seat, stored.version,
                                   job_id=f"notify-{stored.id}-{seat}-{stored.version}", retry=RETRY)

    # --- bots and deadlines (run by the worker) --------------------------------------
    def play_bot(self, game_id: str, seat: int, version: int) -> bool:
        """Make the bot move of `seat` at exactly `version`; False when it is no longer due."""
        stored = self.load(game_id)
        if stored.version != version or not stored.played_by_bot(seat) or seat not in stored.to_act():
            return False
        note = {"type": "stand_in", "seat": seat} if stored.seats[seat]["standin"] else None
        return self._bot_move(stored, seat, note, {})

    def deadline_passed(self, game_id: str, seat: int, turn_since: int) -> bool:
        """Play for a human whose time ran out; after repeated time-outs a bot keeps the seat."""
        stored = self.load(game_id)
        entry = stored.seats[seat]
        if (entry["turn_since"] != turn_since or entry["deadline"] is None
                or time.time() < entry["deadline"] or seat not in stored.to_act()):
            return False
        timeouts = entry["timeouts"] + 1
        standin = timeouts >= STANDIN_AFTER_TIMEOUTS
        note = {"type": "timeout", "seat": seat, "standin": standin}
        return self._bot_move(stored, seat, note, {"timeouts": timeouts, "standin": standin})

    def _bot_move(self, stored: StoredGame, seat: int, note: dict | None, seat_changes: dict) -> bool:
        game, state = stored.game, stored.state
        rng = random.Random(f"bot:{state['seed']}:{stored.version}:{seat}")
        level = stored.bot_level(seat)
        action = game.bot_action(game.view(state, seat), game.legal_actions(state, seat),
                                 level, rng, self.budgets.get(level))
        try:
            self.apply(stored.id, seat, action, stored.version, note=note, seat_changes=seat_changes)
        except Conflict:
            return False  # someone else moved first; the job for the new version decides
        return True

    # --- after the game ------------------------------------------------------------------
    def record(self, game_id: str) -> dict:
        stored = self.load(game_id)
        if stored.status() != FINISHED:
            raise Forbidden("the record is published when the game is over")
        actions = [json.loads(entry) for entry in
                   self.redis.lrange(f"{game_key(game_id)}:actions", 0, -1)]
        return {
            "id": game_id,
            "type": stored.game.name,
            "players": stored.meta["players"],
            "options": stored.meta["options"],
            "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]} for i, s in enumerate(stored.seats)],
            **stored.game.record(stored.state),
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in actions],
            "outcome": stored.game.outcome(stored.state),
        }

    def events(self, stored: StoredGame, seat: int | None, after: int) -> list[dict]:
        raw = self.redis.lrange(f"{game_key(stored.id)}:events", max(after, 0), -1)
        visible = []
        for number, entry in enumerate(raw, start=max(after, 0) + 1):
            event = json.loads(entry)
            audience = event.pop("to", None)
            if audience is None or seat in audience:
                visible.append({"number": number, **event})
        return visible

    def replay(self, game_id: str, step: int) -> dict:
        """A finished game after its first `step` actions, every hand shown."""
        stored = self.load(game_id)
        if stored.status() != FINISHED:
            raise Forbidden("a game can be replayed when it is over")
        actions = [json.loads(entry) for entry in
                   self.redis.lrange(f"{game_key(game_id)}:actions", 0, -1)]
        if not 0 <= step <= len(actions):
            raise NotFound(f"this game has steps 0 to {len(actions)}")
        game, meta = stored.game, stored.meta
        state = game.new_game(meta["players"], meta["options"], stored.state["seed"])
        for entry in actions[:step]:
            game.apply_action(state, entry["seat"], entry["action"])
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

    def event_count(self, game_id: str) -> int:
        return self.redis.llen(f"{game_key(game_id)}:events")

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
        claim = f"{game_key(game_id)}:rematch"
        if not self.redis.set(claim, "pending", nx=True, ex=30):
            raise Conflict("a rematch is being created; reload in a moment")
        new = self._store_new_game(stored.game, meta, player["id"], seat)
        self._update_meta(game_id, lambda old: old.meta.update(rematch=new.id))
        return new


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")


def _descending(iso: str) -> str:
    """A sort key that orders ISO timestamps newest first."""
    return "".join(chr(0x10FFFF - ord(ch)) for ch in iso)
