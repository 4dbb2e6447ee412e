"""Players and games in Redis: the one place that stores, loads and changes them.

Used by the HTTP views and by the bot worker alike, so both go through the
same checks. A game lives in one hash (`meta`, `state`, `version`, and one
`seat:<player id>` field per seated player) plus a list of its actions. Every
change is a compare-and-set on `version` done by a Lua script, so concurrent
requests can never lose an update.
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from redis import Redis
from rq import Queue, Retry

from rules import GAMES, IllegalAction, InvalidOptions
from rules.base import Game

BOT_QUEUE = "bots"
BOT_JOB = "worker.jobs.play_bot_turn"
HUMAN = "human"
WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"
CAS_ATTEMPTS = 20

# Sets the new state only if nobody changed the game since it was read.
# KEYS: game hash, action list. ARGV: expected version, meta, state, action
# (or ""), then extra field/value pairs for the hash.
_COMMIT_SCRIPT = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
local version = tonumber(ARGV[1]) + 1
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'state', ARGV[3], 'version', version)
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[4] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[4]) end
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


@dataclass
class StoredGame:
    id: str
    game: Game
    meta: dict
    state: dict
    version: int

    def status(self) -> str:
        if any(seat["bot"] is None and seat["player_id"] is None for seat in self.meta["seats"]):
            return WAITING
        return FINISHED if self.game.outcome(self.state) is not None else ACTIVE

    def seat_of(self, player_id: str | None) -> int | None:
        for index, seat in enumerate(self.meta["seats"]):
            if player_id is not None and seat["player_id"] == player_id:
                return index
        return None

    def to_act(self) -> list[int]:
        return self.game.to_act(self.state) if self.status() == ACTIVE else []


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _game_key(game_id: str) -> str:
    return f"game:{game_id}"


class Service:
    def __init__(self, redis: Redis):
        self.redis = redis
        self.queue = Queue(BOT_QUEUE, connection=redis)
        self._commit = redis.register_script(_COMMIT_SCRIPT)

    # --- players -----------------------------------------------------------------
    def create_player(self, name: str) -> dict:
        player_id = secrets.token_hex(8)
        token = secrets.token_urlsafe(32)
        pipe = self.redis.pipeline()
        pipe.hset(f"player:{player_id}", mapping={"name": name, "token_hash": _hash_token(token)})
        pipe.set(f"token:{_hash_token(token)}", player_id)
        pipe.execute()
        return {"id": player_id, "name": name, "token": token}

    def player_for_token(self, token: str) -> dict | None:
        player_id = self.redis.get(f"token:{_hash_token(token)}")
        if player_id is None:
            return None
        player_id = player_id.decode()
        name = self.redis.hget(f"player:{player_id}", "name")
        return {"id": player_id, "name": name.decode()} if name is not None else None

    # --- games ------------------------------------------------------------------
    def game_types(self) -> list[dict]:
        return [game.describe() for game in GAMES.values()]

    def game_type(self, type_name: str) -> Game:
        try:
            return GAMES[type_name]
        except KeyError:
            raise NotFound(f"unknown game type {type_name!r}; known: {', '.join(GAMES)}") from None

    def create_game(self, player: dict, type_name: str, players: int, options: dict,
                    seats: list[Any]) -> StoredGame:
        if type_name not in GAMES:
            raise Unprocessable(f"unknown game type {type_name!r}; known: {', '.join(GAMES)}")
        game = GAMES[type_name]
        try:
            options = game.normalise_options(players, options)
        except InvalidOptions as error:
            raise Unprocessable(str(error)) from None
        seat_list = self._parse_seats(game, players, seats)
        seat_list[0].update(player_id=player["id"], name=player["name"])
        seed = secrets.randbits(63)
        state = game.new_game(players, options, seed)
        game_id = secrets.token_urlsafe(12)
        meta = {"type": game.name, "players": players, "options": options,
                "seats": seat_list, "created": time.time()}
        key = _game_key(game_id)
        pipe = self.redis.pipeline()
        pipe.hset(key, mapping={"meta": json.dumps(meta), "state": json.dumps(state),
                                "version": 1, f"seat:{player['id']}": 0})
        pipe.zadd(f"player:{player['id']}:games", {game_id: time.time()})
        pipe.execute()
        stored = StoredGame(game_id, game, meta, state, 1)
        self._schedule_bots(stored)
        return stored

    @staticmethod
    def _parse_seats(game: Game, players: int, seats: list[Any]) -> list[dict]:
        if len(seats) != players:
            raise Unprocessable(f"seats must list exactly {players} entries, one per player")
        levels = {level.name for level in game.bot_levels}
        parsed = []
        for index, spec in enumerate(seats):
            if spec == HUMAN:
                parsed.append({"name": None, "bot": None, "player_id": None})
            elif isinstance(spec, dict) and set(spec) == {"bot"} and spec["bot"] in levels:
                level = spec["bot"]
                parsed.append({"name": f"Bot {index + 1} ({level})", "bot": level, "player_id": None})
            else:
                raise Unprocessable(
                    f"seat {index} must be \"human\" or {{\"bot\": level}} with level one of "
                    f"{', '.join(sorted(levels))}")
        if parsed[0]["bot"] is not None:
            raise Unprocessable("seat 0 is the creator's and must be \"human\"")
        return parsed

    def load(self, game_id: str) -> StoredGame:
        meta, state, version = self.redis.hmget(_game_key(game_id), "meta", "state", "version")
        if meta is None:
            raise NotFound(f"no game with id {game_id!r}")
        meta = json.loads(meta)
        return StoredGame(game_id, GAMES[meta["type"]], meta, json.loads(state), int(version))

    def version_and_seat(self, game_id: str, player: dict | None) -> tuple[int, int | None]:
        """What the ETag is made of, read without loading the game state."""
        field = f"seat:{player['id']}" if player else "-"
        version, seat = self.redis.hmget(_game_key(game_id), "version", field)
        if version is None:
            raise NotFound(f"no game with id {game_id!r}")
        return int(version), None if seat is None else int(seat)

    def join(self, game_id: str, player: dict, seat: int | None) -> StoredGame:
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            if stored.seat_of(player["id"]) is not None:
                raise Conflict("you already have a seat in this game")
            open_seats = [index for index, s in enumerate(stored.meta["seats"])
                          if s["bot"] is None and s["player_id"] is None]
            if not open_seats:
                raise Conflict("this game has no open seat")
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Conflict(f"seat {seat} is not open; open seats: {open_seats}")
            stored.meta["seats"][seat].update(player_id=player["id"], name=player["name"])
            if self._try_commit(stored, None, {f"seat:{player['id']}": seat}):
                self.redis.zadd(f"player:{player['id']}:games", {game_id: time.time()})
                self._schedule_bots(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def act(self, game_id: str, player: dict, action: Any, version: int | None) -> StoredGame:
        stored = self.load(game_id)
        seat = stored.seat_of(player["id"])
        if seat is None:
            raise Forbidden("you have no seat in this game")
        return self.apply(game_id, seat, action, version)

    def apply(self, game_id: str, seat: int, action: Any, version: int | None) -> StoredGame:
        """Apply `action` for `seat`; with `version`, only to exactly that version."""
        for _ in range(CAS_ATTEMPTS):
            stored = self.load(game_id)
            if version is not None and version != stored.version:
                raise Conflict(f"the game is at version {stored.version}, not {version}; reload it")
            status = stored.status()
            if status == WAITING:
                raise Unprocessable("the game has not started: it is waiting for players to join")
            if status == FINISHED:
                raise Unprocessable("the game is over")
            try:
                stored.game.apply_action(stored.state, seat, action)
            except IllegalAction as error:
                raise Unprocessable(str(error)) from None
            entry = {"seat": seat, "action": action, "version": stored.version}
            if self._try_commit(stored, entry, {}):
                self._schedule_bots(stored)
                return stored
        raise Conflict("the game is too busy right now; try again")

    def _try_commit(self, stored: StoredGame, action_entry: dict | None, extra: dict) -> bool:
        args = [stored.version, json.dumps(stored.meta), json.dumps(stored.state),
                json.dumps(action_entry) if action_entry else ""]
        for field, value in extra.items():
            args += [field, value]
        new_version = self._commit(keys=[_game_key(stored.id), f"{_game_key(stored.id)}:actions"],
                                   args=args)
        if not new_version:
            return False
        stored.version = int(new_version)
        return True

    def _schedule_bots(self, stored: StoredGame) -> None:
        for seat in stored.to_act():
            if stored.meta["seats"][seat]["bot"] is not None:
                self.queue.enqueue(BOT_JOB, stored.id, seat, stored.version,
                                   job_id=f"bot-{stored.id}-{seat}-{stored.version}",
                                   retry=Retry(max=3, interval=[1, 5, 15]))

    def play_bot(self, game_id: str, seat: int, version: int) -> bool:
        """Make the bot move of `seat` at exactly `version`; False when it is no longer due."""
        stored = self.load(game_id)
        level = stored.meta["seats"][seat]["bot"]
        if stored.version != version or level is None or seat not in stored.to_act():
            return False
        game, state = stored.game, stored.state
        rng = random.Random(f"bot:{state['seed']}:{version}:{seat}")
        action = game.bot_action(game.view(state, seat), game.legal_actions(state, seat), level, rng)
        try:
            self.apply(game_id, seat, action, version)
        except Conflict:
            return False  # someone else moved first; the job for the new version decides
        return True

    def record(self, game_id: str) -> dict:
        stored = self.load(game_id)
        if stored.status() != FINISHED:
            raise Forbidden("the record is published when the game is over")
        actions = [json.loads(entry) for entry in
                   self.redis.lrange(f"{_game_key(game_id)}:actions", 0, -1)]
        return {
            "id": game_id,
            "type": stored.game.name,
            "players": stored.meta["players"],
            "options": stored.meta["options"],
            "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]}
                      for i, s in enumerate(stored.meta["seats"])],
            **stored.game.record(stored.state),
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in actions],
            "outcome": stored.game.outcome(stored.state),
        }

    def view(self, stored: StoredGame, seat: int | None) -> dict:
        game = stored.game
        status = stored.status()
        seen = game.view(stored.state, seat)
        to_act = stored.to_act()
        return {
            "id": stored.id,
            "type": game.name,
            "title": game.title,
            "options": stored.meta["options"],
            "version": stored.version,
            "status": status,
            "phase": seen["phase"],
            "deal": seen["deal"],
            "seats": [{"seat": index, "name": s["name"], "bot": s["bot"],
                       "joined": s["bot"] is not None or s["player_id"] is not None,
                       "score": seen["scores"][index]}
                      for index, s in enumerate(stored.meta["seats"])],
            "your_seat": seat,
            "to_act": to_act,
            "hand": seen["hand"],
            "legal_actions": game.legal_actions(stored.state, seat) if seat in to_act else [],
            "table": seen["table"],
            "outcome": game.outcome(stored.state) if status == FINISHED else None,
        }
