"""A tournament as kept (one JSON document), the checks of a new one's settings, and what a
caller is shown of it: `api.tables.tournaments` says how a tournament lives and moves on."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from api.storage.finished_tournaments import ArchivedTournament
from api.tables.errors import Unprocessable
from api.tables.model import Player, iso
from api.tables.tournament_pairing import (BOT, ROUND_ROBIN_MOST, Record, standing_key,
                                           standing_order)
from rules import GAMES, InvalidOptions

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
MAX_ENTRANTS = 256
FORMATS = ("swiss", "round_robin")
RANKINGS = ("points", "matchpoints")
LISTS = ("open", "mine", "finished")
MOST_ROUNDS = 20
ROUND_SECONDS = (3600, 60 * 86400)
NOT_OWN_MOVES = ("timeout", "stand_in")   # notes of moves a player did not make


@dataclass
class Tournament:
    id: str
    name: str
    type: str
    table_size: int
    options: dict
    format: str
    rounds: int
    cap: int
    pace: str
    round_seconds: int
    bot_level: str
    creator: str
    created: float
    starts_at: float | None = None     # None: when full
    public: bool = True
    invite: str | None = None          # the code a private tournament is joined with
    rated: bool = True
    duplicate: bool = False
    rank_by: str = "points"
    status: str = OPEN
    entrants: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    automated: list[str] = field(default_factory=list)   # entrants registered as bots
    ratings: dict[str, float] = field(default_factory=dict)   # at the start, for tie-breaks
    withdrawn: list[str] = field(default_factory=list)
    records: dict[str, dict] = field(default_factory=dict)    # player -> Record's fields
    schedule: list | None = None       # a round robin's every round, drawn at the start
    played: list[dict] = field(default_factory=list)          # the rounds so far
    finished: float | None = None      # when its last round was scored
    version: int = 0

    def to_json(self) -> str:
        doc = asdict(self)
        del doc["version"]
        return json.dumps(doc, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, version: int) -> "Tournament":
        return cls(**json.loads(text), version=version)

    def standing_records(self) -> dict[str, Record]:
        return {player: Record(points=self.records.get(player, {}).get("points", 0.0),
                               matchpoints=self.records.get(player, {}).get("matchpoints", 0.0),
                               met=self.records.get(player, {}).get("met", {}),
                               rating=self.ratings.get(player, 0.0))
                for player in self.entrants}

    def current(self) -> dict | None:
        return self.played[-1] if self.played else None

    def active(self) -> list[str]:
        return [player for player in self.entrants if player not in self.withdrawn]


def round_state(storage, game_tournament: dict) -> tuple[bool, int | None]:
    """Of a tournament game's round (`game_tournament`: its meta's): whether the round is over,
    and its duplicate seed (None without duplicate deals), from Redis or, once it let the
    tournament go, the record. A tournament kept nowhere is over."""
    found = storage.tournaments.load(game_tournament["id"])
    if found is None and storage.finished_tournaments is not None:
        found = storage.finished_tournaments.find(game_tournament["id"])
    if found is None:
        return True, None
    played, number = json.loads(found[1])["played"], game_tournament["round"]
    if number > len(played):
        return False, None
    return played[number - 1]["over"], played[number - 1].get("seed")


def deal_scores(stored, log) -> list[list[float] | None]:
    """Each deal's scores of a finished game (None for a deal it ended in the middle of), as
    its record gives them: the game replayed from its seed and log, keeping its deals."""
    game, meta = stored.game, stored.meta
    state = game.new_game(meta.players, meta.options, stored.state["seed"], True)
    for entry in log.actions:
        game.apply_action(state, entry["seat"], entry["action"])
    return [deal.get("scores") for deal in game.record(state)["deals"]]


def timed_out_throughout(log, seat: int) -> bool:
    """Every move of the seat was made for its player (a time-out's or a stand-in's), and there
    was at least one: a game that ended before the seat's first turn times nobody out."""
    made = sum(1 for entry in log.actions if entry["seat"] == seat)
    for_them = sum(1 for event in log.events
                   if event.get("type") in NOT_OWN_MOVES and event.get("seat") == seat)
    return made > 0 and made == for_them



def checked(paces: dict, type: str, table_size: int, rounds: int | None, format: str,
            cap: int, options: dict | None, pace: str, round_hours: float,
            bot_level: str | None, duplicate: bool, rank_by: str) -> dict:
    """A new tournament's settings as kept, or Unprocessable naming what is wrong."""
    game = GAMES.get(type)
    if game is None:
        raise Unprocessable(f"unknown game type {type!r}; known: {', '.join(GAMES)}")
    if not game.min_players <= table_size <= game.max_players:
        raise Unprocessable(f"{game.title} is for tables of {game.min_players} to "
                            f"{game.max_players}, not {table_size}", "impossible_table_size")
    if any(len(team) > 1 for team in game.teams(table_size)):
        raise Unprocessable(f"{game.title} at {table_size} is played in partnerships, "
                            f"which a tournament does not pair", "impossible_table_size")
    try:
        options = game.normalise_options(table_size, options)
    except InvalidOptions as error:
        raise Unprocessable(str(error)) from None
    if format not in FORMATS:
        raise Unprocessable(f"format must be one of {', '.join(FORMATS)}")
    if not 2 <= cap <= MAX_ENTRANTS:
        raise Unprocessable(f"a tournament takes 2 to {MAX_ENTRANTS} entrants, not {cap}",
                            "too_many_entrants")
    if format == "round_robin" and cap > ROUND_ROBIN_MOST:
        raise Unprocessable(f"a round robin is for groups of up to {ROUND_ROBIN_MOST}",
                            "too_many_entrants")
    if format == "swiss" and rounds is None:
        raise Unprocessable("a Swiss tournament needs its number of rounds")
    if rounds is not None and not 1 <= rounds <= MOST_ROUNDS:
        raise Unprocessable(f"rounds must be from 1 to {MOST_ROUNDS}")
    if pace not in paces:
        raise Unprocessable(f"pace must be one of {', '.join(paces)}")
    seconds = round(round_hours * 3600)
    if not ROUND_SECONDS[0] <= seconds <= ROUND_SECONDS[1]:
        raise Unprocessable("round_hours must be from 1 to 1440")
    level = bot_level or game.bot_levels[0].name
    if not game.has_bot_level(level):
        raise Unprocessable(f"{game.title} has no bot level {level!r}")
    if rank_by not in RANKINGS or (rank_by == "matchpoints" and not duplicate):
        raise Unprocessable("rank_by is 'points', or 'matchpoints' with duplicate deals")
    return {"options": options, "round_seconds": seconds, "bot_level": level}


def archived(tournament: Tournament) -> ArchivedTournament:
    """A finished tournament as the record keeps it: its document, and the entrants and game
    ids copied out of it for the record's queries."""
    return ArchivedTournament(
        tournament_id=tournament.id, finished_at=tournament.finished or tournament.created,
        name=tournament.name, game_type=tournament.type, public=tournament.public,
        version=tournament.version, entrants=list(tournament.entrants),
        game_ids=[table["game_id"] for played in tournament.played
                  for table in played["tables"]],
        document=tournament.to_json())


def summary(tournament: Tournament, player: Player | None) -> dict:
    return {"id": tournament.id, "name": tournament.name, "type": tournament.type,
            "format": tournament.format, "table_size": tournament.table_size,
            "status": tournament.status, "entrants": len(tournament.entrants),
            "cap": tournament.cap, "round_count": tournament.rounds,
            "current_round": len(tournament.played), "public": tournament.public,
            "duplicate": tournament.duplicate,
            "starts_at": None if tournament.starts_at is None else iso(tournament.starts_at),
            "entered": player is not None and player.id in tournament.entrants}

def describe(tournament: Tournament, player: Player | None) -> dict:
    records = tournament.standing_records()
    order = standing_order(records, tournament.rank_by)
    standings = []
    for rank, entrant in enumerate(order, start=1):
        record = records[entrant]
        standings.append({
            "rank": rank, "player_id": entrant, "name": tournament.names.get(entrant),
            "points": record.points, "matchpoints": record.matchpoints,
            "opponents_points": -standing_key(entrant, records, tournament.rank_by)[1],
            "rating": record.rating, "withdrawn": entrant in tournament.withdrawn})
    rounds = []
    for played in tournament.played:
        over = played["over"]
        results = {result["game_id"]: result for result in played["results"] or []}
        rounds.append({
            "number": played["number"], "over": over, "started": iso(played["started"]),
            "deadline": iso(played["deadline"]),
            "seed": played["seed"] if over else None,
            "tables": [{"game_id": table["game_id"], "players": table["players"],
                        "bots": sum(seat is BOT for seat in table["seats"]),
                        **({"points": _by_player(table, results[table["game_id"]]["points"]),
                            "matchpoints": _by_player(
                                table, results[table["game_id"]]["matchpoints"])}
                           if table["game_id"] in results else {})}
                       for table in played["tables"]]})
    entered = player is not None and player.id in tournament.entrants
    return {**summary(tournament, player),
            "options": tournament.options, "pace": tournament.pace,
            "round_hours": tournament.round_seconds / 3600, "bot_level": tournament.bot_level,
            "rated": tournament.rated, "rank_by": tournament.rank_by,
            "creator": tournament.creator,
            "invite": tournament.invite if player and player.id == tournament.creator
            else None,
            "entrants_list": [{"player_id": entrant, "name": tournament.names.get(entrant)}
                              for entrant in tournament.entrants],
            "withdrawn": entered and player.id in tournament.withdrawn,
            "rounds": rounds, "standings": standings}


def _by_player(table: dict, values: list | None) -> dict | None:
    if values is None:
        return None
    return {player: values[seat] for seat, player in enumerate(table["seats"])
            if player is not BOT}
