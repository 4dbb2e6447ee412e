"""What a player's event stream tells: derived from the player's games as they stand, never kept.

A commit runs in its game's hash slot and a player's keys sit in the player's, so on a cluster
the commit cannot write a per-player log; writing one afterwards would lose the events of a
process that died in between. So nothing is written: every commit (and every chat line)
already publishes on each seated player's inbox channel, and a stream, woken there, reads the
versions of the player's games (one round trip per node), loads only the games that changed and
tells what changed since it last looked. The stream's cursor is the newest change it told (the
game's `updated`, a chat line's time), in milliseconds: each event's `id` (and SSE `id:`). A reconnect with
`Last-Event-ID` starts, like a first connect, with the games going on (`game_started`, then
`your_turn` where it is the player's turn), and adds what happened from the cursor on, less
`RESUME_OVERLAP` for clocks that differ between API processes: games finished since, chat said
since. An event may so repeat (never a gap); `your_turn` is one per turn (`game`, `since`),
`chat` one per line (`game`, `number`).

Challenges: a seat kept for the player in a waiting game of their inbox is a `challenge` (`game`,
`from`, `seat`), told once; the game gone before they sat down (its creator left it) is a
`challenge_withdrawn`. The creator is told `challenge_declined` (`game`, `seat`, `player`) when a
seat they kept opens again without its player. Neither creating nor dropping a game commits at
the challenged player's inbox, so `api.tables.seating` wakes their stream and webhook itself.

A player's webhook (`api.tables.webhooks`) is the same stream, its `Told` kept in the store
between deliveries (`to_json`, `from_json`): what it remembers of a game goes with the game
from the player's inbox, so it is bounded like the inbox.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import datetime

from api.tables.games import Games
from api.tables.model import ACTIVE, FINISHED, Player, StoredGame, iso
from api.tables.views import invitation, place

RESUME_OVERLAP = 30.0  # seconds before the cursor a resumed stream looks again
CHALLENGED, WITHDRAWN = "challenged", "withdrawn"  # a game's status as a challenged player knows it


@dataclass
class Told:
    """What one stream has told its client."""
    cursor: float = 0.0                                     # seconds: the newest change told
    looked: dict[str, tuple] = field(default_factory=dict)  # game: its version, renames, chat
    statuses: dict[str, str] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)     # game: the turn told (`since`)
    chat: dict[str, int] = field(default_factory=dict)      # game: the last line told
    kept: dict[str, dict[str, str]] = field(default_factory=dict)  # game: seat: who it is kept for
    # game: its seats' players, where the player sits (not kept by `to_json`: a look that
    # lacks them reads the game)
    seated: dict[str, list[str | None]] = field(default_factory=dict)

    @property
    def event_id(self) -> str:
        return str(int(self.cursor * 1000))

    def keep_only(self, game_ids: list[str]) -> None:
        """Forget the games no longer in the player's inbox."""
        kept = set(game_ids)
        for remembered in (self.looked, self.statuses, self.turns, self.chat, self.kept,
                           self.seated):
            for game_id in [game_id for game_id in remembered if game_id not in kept]:
                del remembered[game_id]

    def to_json(self) -> str:
        return json.dumps({"cursor": self.cursor, "looked": self.looked,
                           "statuses": self.statuses, "turns": self.turns, "chat": self.chat,
                           "kept": self.kept})

    @classmethod
    def from_json(cls, text: str) -> "Told":
        kept = json.loads(text)
        return cls(kept["cursor"], {game: tuple(seen) for game, seen in kept["looked"].items()},
                   kept["statuses"], kept["turns"], kept["chat"], kept.get("kept", {}))


def cursor_of(last_event_id: str | None) -> float | None:
    """The cursor a `Last-Event-ID` names, or None (not one of ours: start afresh)."""
    if last_event_id and last_event_id.isdigit() and len(last_event_id) <= 16:
        return int(last_event_id) / 1000
    return None


class Streams:
    def __init__(self, games: Games):
        self.games = games
        self.storage = games.storage

    def start(self, player: Player, resume_from: float | None) -> tuple[Told, list[dict]]:
        """The games going on and, resuming, what happened from the cursor on."""
        told = Told(cursor=resume_from or 0.0)
        since = None if resume_from is None else resume_from - RESUME_OVERLAP
        return told, self._look(player, told, first=True, since=since)

    def changes(self, player: Player, told: Told) -> list[dict]:
        """What changed in the player's games since the stream last looked."""
        return self._look(player, told, first=False, since=None)

    def _look(self, player: Player, told: Told, first: bool, since: float | None) -> list[dict]:
        game_ids = self.storage.players.game_ids(player.id)
        told.keep_only(game_ids)
        if not game_ids:
            return []
        events: list[dict] = []
        talk = Talk(self.storage, player.id)
        for game_id, (version, chat_count) in zip(game_ids, self.storage.game_heads(game_ids)):
            looked = told.looked.get(game_id)
            if looked == (version, chat_count):
                continue
            if looked is not None and looked[0] == version and game_id in told.seated:
                # Only talk since the last look: the game, its seats and turns are as told.
                told.looked[game_id] = (version, chat_count)
                events += self._chat(game_id, told, chat_count, first, since, talk)
                continue
            stored = None if version is None else self.games.find(game_id)
            if stored is None:
                told.seated.pop(game_id, None)
                events += self._withdrawn(game_id, told)
                continue
            told.looked[game_id] = (version, chat_count)
            seat = stored.seat_of(player.id)
            if seat is None:
                told.seated.pop(game_id, None)
                events += self._challenge(stored, player.id, told)
                continue  # or left: the inbox forgets it
            told.seated[game_id] = [entry.player_id for entry in stored.seats]
            # Said before the move
            events += self._chat(game_id, told, chat_count, first, since, talk)
            events += self._declined(stored, told, first)
            events += self._game(stored, seat, told, first, since)
        return events

    def _challenge(self, stored: StoredGame, player_id: str, told: Told) -> list[dict]:
        invited = invitation(stored, player_id)
        if invited is None:
            return self._withdrawn(stored.id, told, stored.updated)
        if told.statuses.get(stored.id) == CHALLENGED:
            return []
        told.statuses[stored.id] = CHALLENGED
        return [self._tell(told, stored.updated, {
            "type": "challenge", "game": stored.id, "game_type": stored.game.name,
            "version": stored.version, "from": invited["from"], "seat": invited["seat"]})]

    def _withdrawn(self, game_id: str, told: Told, happened: float | None = None) -> list[dict]:
        if told.statuses.get(game_id) != CHALLENGED:
            return []
        told.statuses[game_id] = WITHDRAWN
        return [self._tell(told, happened or time.time(), {"type": "challenge_withdrawn",
                                                           "game": game_id})]

    def _declined(self, stored: StoredGame, told: Told, first: bool) -> list[dict]:
        """The seats kept for others that opened again without them since the last look."""
        kept = {str(index): seat.reserved_for for index, seat in enumerate(stored.seats)
                if seat.reserved_for and seat.open}
        before = told.kept.get(stored.id, {})
        told.kept[stored.id] = kept
        if first:
            return []
        return [self._tell(told, stored.updated, {
            "type": "challenge_declined", "game": stored.id, "seat": int(seat),
            "player": player_id})
            for seat, player_id in before.items()
            if kept.get(seat) != player_id and stored.seats[int(seat)].open]

    def _game(self, stored: StoredGame, seat: int, told: Told, first: bool,
              since: float | None) -> list[dict]:
        events = []
        status, before = stored.status(), told.statuses.get(stored.id)
        told.statuses[stored.id] = status
        game = {"game": stored.id, "game_type": stored.game.name, "version": stored.version}
        if status == ACTIVE and before != ACTIVE:
            events.append(self._tell(told, stored.updated, {"type": "game_started", **game,
                                                             "seat": seat}))
        if status == FINISHED and before != FINISHED and (
                not first or (since is not None and stored.updated >= since)):
            outcome = stored.outcome()
            events.append(self._tell(told, stored.updated, {
                "type": "game_finished", **game, "outcome": outcome,
                "your_place": place(outcome, seat, stored.game.lower_score_wins)}))
        entry = stored.seats[seat]
        if (seat in stored.to_act() and not entry.standin and entry.turn_since is not None
                and told.turns.get(stored.id) != entry.turn_since):
            told.turns[stored.id] = entry.turn_since
            events.append(self._tell(told, stored.updated, {
                "type": "your_turn", **game, "seat": seat, "since": entry.turn_since,
                "deadline": iso(entry.deadline) if entry.deadline else None}))
        return events

    def _chat(self, game_id: str, told: Told, chat_count: int, first: bool,
              since: float | None, talk: "Talk") -> list[dict]:
        """The lines said since the last look, but those of players the player blocks (as the
        table's talk reads to them)."""
        last_told = told.chat.get(game_id)
        told.chat[game_id] = chat_count
        if chat_count == 0 or chat_count == last_told or (first and since is None):
            return []
        if first:
            kept, _ = self.storage.chat.messages(game_id)
        else:  # the lines said since the last look are the newest kept, numbered in order
            kept = self.storage.chat.newest(game_id, chat_count - (last_told or 0))
        events = []
        muted = talk.muted_seats(told.seated[game_id]) if kept else set()
        for message in kept:
            said = datetime.fromisoformat(message["at"]).timestamp()
            if message["seat"] in muted:
                continue
            if (message["number"] > (last_told or 0)) if not first else said >= since:
                events.append(self._tell(told, said, {"type": "chat", "game": game_id,
                                                      **message}))
        return events

    @staticmethod
    def _tell(told: Told, happened: float, event: dict) -> dict:
        """The event with its `id`: the cursor once it is told (an NDJSON reader sends it back
        as `Last-Event-ID` too)."""
        told.cursor = max(told.cursor, happened)
        return {**event, "id": told.event_id}


class Talk:
    """Whom the player blocks, read once a look and only when some table has new lines."""

    def __init__(self, storage, player_id: str):
        self.storage, self.player_id = storage, player_id
        self.blocked: set[str] | None = None

    def muted_seats(self, seated: list[str | None]) -> set[int]:
        if self.blocked is None:
            self.blocked = self.storage.friends.blocked_ids(self.player_id)
        return {seat for seat, player_id in enumerate(seated) if player_id in self.blocked}


def heartbeat() -> dict:
    return {"type": "heartbeat", "at": iso(time.time())}
