"""Players: registering, the bearer tokens of their devices, renaming, moving to another device
with a one-use sign-in code (or a passkey, `api.tables.passkeys`), and signing a device out.

A token names its player (`<player id>.<secret>`), so one call on the player's keys checks it;
only its hash is stored. A process trusts a token it looked up for `token_cache_seconds`.
"""
from __future__ import annotations

import hashlib
import secrets
import threading
import time

from api.settings import Settings
from api.storage.store import Storage
from api.tables.clock import Clock
from api.tables.errors import NotFound, Unprocessable
from api.tables.model import NewPlayer, Player, iso

SIGNIN_CODE_SECONDS = 600
TOKEN_CACHE_SIZE = 10000


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_token(player_id: str, label: str, now: float) -> tuple[str, str, str, dict]:
    """(token, its hash, the device's id, the device's entry)."""
    token = f"{player_id}.{secrets.token_urlsafe(32)}"
    token_hash = secret_hash(token)
    return token, token_hash, token_hash[:16], {"token_hash": token_hash, "label": label,
                                                 "created": now}


class Players:
    def __init__(self, storage: Storage, settings: Settings, clock: Clock):
        self.store = storage.players
        self.record = storage.player_record
        self.directory = storage.directory
        self.settings = settings
        self.clock = clock
        self._tokens: dict[str, tuple[float, Player]] = {}
        self._tokens_lock = threading.Lock()

    def create(self, name: str, bot: bool = False) -> NewPlayer:
        player_id = secrets.token_hex(8)
        now = self.clock.now()  # the anniversary of joining refills the vacation days
        token, token_hash, device_id, device = _new_token(player_id, "first device", now)
        self.store.create(player_id, {"name": name, "bot": int(bot), "created": now},
                          token_hash, device_id, device)
        self.directory.add(player_id, name)
        return NewPlayer(player_id, name, bot, device_id, token)

    def for_token(self, token: str) -> Player | None:
        """The token's player; trusted for `token_cache_seconds` in this process."""
        token_hash = secret_hash(token)
        now = time.monotonic()
        cached = self._tokens.get(token_hash)
        if cached is not None and cached[0] > now:
            return cached[1]
        player_id, dot, _ = token.partition(".")
        found = self.store.identity(player_id, token_hash) if dot else None
        if found is None:
            return None
        player = Player(player_id, found[0], found[1], token_hash[:16])
        with self._tokens_lock:
            if len(self._tokens) > TOKEN_CACHE_SIZE:
                self._tokens = {key: entry for key, entry in self._tokens.items()
                                if entry[0] > now}
            self._tokens[token_hash] = (now + self.settings.token_cache_seconds, player)
        return player

    def rename(self, player: Player, name: str) -> Player:
        """The new name, and at the tables of the player's unfinished games too, without a
        commit: each game keeps the names changed since its players sat down beside its state,
        and counts the changes in its ETag, so watching phones see it at once. A finished game
        keeps the name its player had when it ended, as its record does."""
        self.store.rename(player.id, name, self.store.game_ids(player.id))
        self.directory.add(player.id, name, player.name)
        self.forget_tokens(player.id)
        return Player(player.id, name, player.bot)

    def forget_tokens(self, player_id: str) -> None:
        """This process trusts none of the player's tokens it looked up before."""
        with self._tokens_lock:
            self._tokens = {key: entry for key, entry in self._tokens.items()
                            if entry[1].id != player_id}

    def signin_code(self, player: Player) -> dict:
        """A one-use code that signs another device in as this player; the player's earlier
        code stops working."""
        code = secrets.token_urlsafe(24)
        self.store.save_signin_code(secret_hash(code), player.id, SIGNIN_CODE_SECONDS)
        return {"code": code, "expires_in": SIGNIN_CODE_SECONDS}

    def sign_in(self, code: str, label: str) -> NewPlayer:
        player_id = self.store.take_signin_code(secret_hash(code))
        found = self.store.get(player_id) if player_id else None
        if found is None:
            raise Unprocessable("this sign-in code is unknown, used or expired; make a new one")
        return self.new_device(player_id, found, label)

    def new_device(self, player_id: str, found: tuple[str, bool], label: str) -> NewPlayer:
        """A new token of the player (`found`: their name and bot flag), as a device of its own."""
        token, token_hash, device_id, device = _new_token(player_id, label, self.clock.now())
        self.store.add_device(player_id, token_hash, device_id, device)
        return NewPlayer(player_id, found[0], found[1], device_id, token)

    def devices(self, player: Player) -> list[dict]:
        devices = [{"id": device_id, "label": entry["label"], "created": iso(entry["created"]),
                    "current": device_id == player.device}
                   for device_id, entry in self.store.devices(player.id).items()]
        return sorted(devices, key=lambda device: device["created"])

    def sweep_owed(self) -> int:
        """Save to PostgreSQL the players whose changes are owed there (a process died between
        the change and the save, or the database was away); the players saved."""
        return self.record.sweep(self.clock.now())

    def revoke(self, player: Player, device_id: str) -> None:
        token_hash = self.store.revoke(player.id, device_id)
        if token_hash is None:
            raise NotFound(f"no device {device_id!r}")
        with self._tokens_lock:
            self._tokens.pop(token_hash, None)
