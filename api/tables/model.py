"""What the domain works with: players, seats, games as stored. JSON only at the storage boundary
(`to_json` / `from_json`); inside, typed dataclasses."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone

from api.storage.games import GameRecord
from rules import GAMES
from rules.base import Game

HUMAN = "human"
WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    bot: bool                  # a program: its seats show as automated
    device: str | None = None  # the device (token) the request came from


@dataclass(frozen=True)
class NewPlayer(Player):
    token: str = ""            # shown once: only its hash is stored


@dataclass
class Seat:
    name: str | None = None
    bot: str | None = None            # the bot level, None for a human's seat
    player_id: str | None = None
    standin: bool = False             # a bot plays it: after time-outs, or for good (resigned)
    resigned: bool = False
    timeouts: int = 0                 # in a row
    turn_since: int | None = None     # the version at which the seat's turn began
    deadline: float | None = None     # when a bot plays the turn
    reserved_for: str | None = None   # a rematch keeps the seat for this player
    invite: str | None = None         # the link to take the open seat
    automated: bool = False           # taken by a player registered as a bot

    @property
    def open(self) -> bool:
        return self.bot is None and self.player_id is None

    @classmethod
    def from_json(cls, data: dict) -> "Seat":
        return cls(**{name: data[name] for name in _SEAT_FIELDS if name in data})


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


@dataclass
class Meta:
    """What a game was created with; changes only by a rematch's link."""
    type: str
    players: int
    options: dict
    pace: str
    pace_seconds: int | None
    public: bool
    webhook: str | None
    created: float
    rematch_of: str | None = None
    rematch: str | None = None


@dataclass
class StoredGame:
    id: str
    game: Game
    meta: Meta
    seats: list[Seat]
    state: dict
    version: int
    updated: float
    record: GameRecord | None = None  # as loaded: a commit sends only the JSON that changed
    new_bots_job: str | None = None   # the job a commit made due, queued right after it

    @classmethod
    def from_record(cls, game_id: str, record: GameRecord) -> "StoredGame":
        meta = Meta(**json.loads(record.meta))
        seats = [Seat.from_json(seat) for seat in json.loads(record.seats)]
        for seat in seats:
            if seat.player_id in (record.names or {}):
                seat.name = record.names[seat.player_id]
        return cls(game_id, GAMES[meta.type], meta, seats, json.loads(record.state),
                   record.version, record.updated, record)

    def texts(self) -> dict[str, str]:
        """The JSON a commit stores: meta, seats and state."""
        return {"meta": json.dumps(asdict(self.meta)),
                "seats": json.dumps([asdict(seat) for seat in self.seats]),
                "state": json.dumps(self.state)}

    def status(self) -> str:
        if any(seat.open for seat in self.seats):
            return WAITING
        return FINISHED if self.game.outcome(self.state) is not None else ACTIVE

    def seat_of(self, player_id: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if player_id is not None and seat.player_id == player_id:
                return index
        return None

    def seated(self) -> dict[str, int]:
        """Each seated player's seat."""
        return {seat.player_id: index for index, seat in enumerate(self.seats) if seat.player_id}

    def to_act(self) -> list[int]:
        return self.game.to_act(self.state) if self.status() == ACTIVE else []

    def played_by_bot(self, seat: int) -> bool:
        return self.seats[seat].bot is not None or self.seats[seat].standin

    def bots_to_act(self) -> list[int]:
        return [seat for seat in self.to_act() if self.played_by_bot(seat)]

    def bot_level(self, seat: int) -> str:
        return self.seats[seat].bot or self.game.bot_levels[0].name

    def humans(self) -> list[str]:
        return [seat.player_id for seat in self.seats if seat.player_id]

    def seat_kept_for(self, player_id: str) -> bool:
        """A seat of this waiting game is reserved for the player (a rematch)."""
        return self.status() == WAITING and any(
            seat.reserved_for == player_id and seat.player_id is None for seat in self.seats)


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")
