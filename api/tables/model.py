"""What the domain works with: players, seats, games as stored. JSON only at the storage boundary
(`to_json` / `from_json`); inside, typed dataclasses."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone

from api.storage.games import GameRecord
from rules import GAMES
from rules.base import Game, winners_of

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
    seen: int | None = None           # the version of the last change this seat could see
    deadline: float | None = None     # when a bot plays the turn
    reserved_for: str | None = None   # a rematch keeps the seat for this player
    invite: str | None = None         # the link to take the open seat
    automated: bool = False           # taken by a player registered as a bot
    # The turn clock (`api.tables.turns`): what the seat's turn began with, the table's time
    # bank, and the player's own clock as it applies at this table (their time zone, waking
    # window as [start, end] minutes of the day, vacation, forced moves played for them).
    allowance: float | None = None    # counted seconds the running turn began with
    bank: float | None = None         # counted seconds of the table's time bank left
    zone: str | None = None
    window: list[int] | None = None
    vacation_until: float | None = None
    forced: bool = False

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
    vacation: bool = True          # players' vacations pause their clocks (false: tournament)
    time_bank: dict | None = None  # {"initial", "per_move", "most"} seconds, instead of a pace
    rated: bool = True             # its result changes its players' ratings
    ended: str | None = None       # why the game ended before its rules ended it ("log_full")
    # A tournament's game: {"id", "round", "table", "deadline"} (when the round ends: no turn
    # runs past it, `api.tables.turns`).
    tournament: dict | None = None


_META_FIELDS = tuple(f.name for f in fields(Meta))


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
    # Cards chosen ahead by seats not yet to act, by seat: kept beside the game, never in its
    # version or a view (`api.tables.preselection`).
    preselected: dict[int, dict] = field(default_factory=dict)
    # Each seat's place and rating change, once recorded after the game finished
    # (`api.tables.ratings`).
    results: dict | None = None

    @classmethod
    def from_record(cls, game_id: str, record: GameRecord) -> "StoredGame":
        meta = Meta(**json.loads(record.meta))
        seats = [Seat.from_json(seat) for seat in json.loads(record.seats)]
        for seat in seats:
            if seat.player_id in (record.names or {}):
                seat.name = record.names[seat.player_id]
        preselected = {int(seat): action for seat, action in
                       json.loads(record.preselected or "{}").items()}
        return cls(game_id, GAMES[meta.type], meta, seats, json.loads(record.state),
                   record.version, record.updated, record, preselected=preselected,
                   results=json.loads(record.results) if record.results else None)

    def texts(self) -> dict[str, str]:
        """The JSON a commit stores: meta, seats and state."""
        # Each field as it is (not `asdict`'s deep copies, which took a tenth of an action's
        # CPU): they are made JSON at once.
        meta = {name: getattr(self.meta, name) for name in _META_FIELDS}
        for name in ("ended", "tournament"):  # stored only when set: a game reads as before
            if meta[name] is None:               # the field came
                del meta[name]
        return {"meta": json.dumps(meta),
                "seats": json.dumps([{name: getattr(seat, name) for name in _SEAT_FIELDS}
                                     for seat in self.seats]),
                "state": json.dumps(self.state)}

    def status(self) -> str:
        if any(seat.open for seat in self.seats):
            return WAITING
        return FINISHED if self.outcome() is not None else ACTIVE

    def resigned_seat(self) -> int | None:
        """The seat whose resignation ended a two-player game: the other player won. (With
        more players a bot plays a resigned seat on, and the game goes on.)"""
        if self.meta.players != 2:
            return None
        return next((index for index, seat in enumerate(self.seats) if seat.resigned), None)

    def outcome(self) -> dict | None:
        """The result: the rules' when they played to the end; else the other player's win over
        a resigned seat, with the scores as they stood; of a game ended before its rules end it
        (its log full), the scores as they stand, won by the game's rule (lowest or highest)."""
        ruled = self.game.outcome(self.state)
        if ruled is not None:
            return ruled
        resigned = self.resigned_seat()
        if resigned is not None:
            return {"scores": self.game.view(self.state, None)["scores"],
                    "winners": [1 - resigned], "resigned": resigned}
        if self.meta.ended:
            scores = self.game.view(self.state, None)["scores"]
            return {"scores": scores, "winners": winners_of(scores, self.game.lower_score_wins)}
        return None

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

    def nobody_waits(self) -> bool:
        """Bots play every seat: every human resigned or left the seat to a stand-in."""
        return all(self.played_by_bot(seat) for seat in range(len(self.seats)))

    def bots_to_act(self) -> list[int]:
        return [seat for seat in self.to_act() if self.played_by_bot(seat)]

    def automatic_action(self, seat: int) -> dict | None:
        """The move a human seat to act makes by itself: its card chosen ahead if still legal,
        else its only legal action when its player has forced moves played for them."""
        chosen = self.preselected.get(seat)
        if (chosen is None and not self.seats[seat].forced) or self.played_by_bot(seat) or (
                seat not in self.to_act()):
            return None
        legal = self.game.legal_actions(self.state, seat)
        if chosen is not None and chosen in legal:
            return chosen
        return legal[0] if self.seats[seat].forced and len(legal) == 1 else None

    def drop_unplayable_choices(self) -> None:
        """Drop the cards chosen ahead that can no longer be played: every one once the game is
        not in progress, a seat's once a bot plays it, one not legal when its seat must play a
        card (a turn of another kind, such as taking a row, keeps it for the next)."""
        active = self.status() == ACTIVE
        to_act = self.to_act()
        for seat, action in list(self.preselected.items()):
            if not active or self.played_by_bot(seat):
                del self.preselected[seat]
            elif seat in to_act:
                legal = self.game.legal_actions(self.state, seat)
                if action not in legal and any(a["type"] == action["type"] for a in legal):
                    del self.preselected[seat]

    def preselected_text(self) -> str | None:
        if not self.preselected:
            return None
        return json.dumps({str(seat): action for seat, action in sorted(self.preselected.items())})

    def moves_due(self) -> list[int]:
        """Seats a worker moves now: the bots', and the humans' that play themselves."""
        return [seat for seat in self.to_act()
                if self.played_by_bot(seat) or self.automatic_action(seat) is not None]

    def bot_level(self, seat: int) -> str:
        return self.seats[seat].bot or self.game.bot_levels[0].name

    def humans(self) -> list[str]:
        return [seat.player_id for seat in self.seats if seat.player_id]

    def payer(self) -> str:
        """Whose share of the bots' thinking time the game's bot moves use: its creator's."""
        return self.seats[0].player_id or next(iter(self.humans()), "nobody")

    def seat_kept_for(self, player_id: str) -> bool:
        """A seat of this waiting game is reserved for the player (a rematch)."""
        return self.status() == WAITING and any(
            seat.reserved_for == player_id and seat.player_id is None for seat in self.seats)


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")
