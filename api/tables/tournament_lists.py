"""What a player reads of many tournaments at once: the lists (open, theirs, finished; from
Redis and, once Redis let a finished one go, the record) and their next game in each they play
in, for the top of their inbox."""
from __future__ import annotations

from api.storage.finished_tournaments import FinishedTournaments
from api.storage.games import GameStore
from api.storage.tournaments import TournamentStore
from api.tables.clock import Clock
from api.tables.errors import Unprocessable
from api.tables.model import FINISHED as GAME_FINISHED, Player, iso
from api.tables.tournament_model import FINISHED, LISTS, OPEN, RUNNING, Tournament, summary

LISTED = 50
FAR_FUTURE = "9999"    # sorts a wait without a known end after every one with an end


def iso_or_none(instant: float | None) -> str | None:
    return None if instant is None else iso(instant)


class TournamentLists:
    def __init__(self, store: TournamentStore, record: FinishedTournaments | None,
                 games: GameStore, clock: Clock):
        self.store = store
        self.record = record
        self.games = games
        self.clock = clock

    def listed(self, which: str, player: Player | None) -> list[dict]:
        if which not in LISTS:
            raise Unprocessable(f"list one of {', '.join(LISTS)}")
        if which == "mine":
            if player is None:
                raise Unprocessable("sign in to list your tournaments")
            ids = self.store.of_player(player.id, LISTED)
            kept = self.record.of_player(player.id, LISTED) if self.record else []
        else:
            ids = self.store.newest(LISTED * 4)
            kept = (self.record.newest_public(LISTED)
                    if self.record and which == "finished" else [])
        documents = {tournament_id: (version, doc) for tournament_id, version, doc in kept}
        for tournament_id in ids:
            if tournament_id not in documents:
                loaded = self.store.load(tournament_id)
                if loaded is not None:
                    documents[tournament_id] = loaded
        found = []
        for version, doc in documents.values():
            tournament = Tournament.from_json(doc, version)
            if which == "open" and (tournament.status != OPEN or not tournament.public):
                continue
            if which == "finished" and (tournament.status != FINISHED or not tournament.public):
                continue
            found.append(tournament)
        found.sort(key=lambda tournament: tournament.created, reverse=True)
        return [summary(tournament, player) for tournament in found[:LISTED]]

    def next_games(self, player: Player) -> list[dict]:
        """The player's next game in each tournament they play in: the table of the round
        running (`playing`), or the round they wait for (`waiting`: the current round's
        other tables are still playing, so it starts when they finish, at the latest at
        `starts_at`, the round's deadline; `starting`: the tournament's first, at its start
        or when full). Tables to play first, then by when the wait ends."""
        lines = []
        for tournament_id in self.store.of_player(player.id, LISTED):
            loaded = self.store.load(tournament_id)
            if loaded is None:
                continue
            tournament = Tournament.from_json(loaded[1], loaded[0])
            line = self._next_game(tournament, player.id)
            if line is not None:
                lines.append({"tournament_id": tournament.id, "name": tournament.name,
                              "type": tournament.type, "round_count": tournament.rounds,
                              **line})
        order = {"playing": 0, "waiting": 1, "starting": 2}
        return sorted(lines, key=lambda line: (order[line["status"]],
                                               line["starts_at"] or FAR_FUTURE))

    def _next_game(self, tournament: Tournament, player_id: str) -> dict | None:
        if tournament.status == OPEN and player_id in tournament.entrants:
            return {"status": "starting", "round": 1, "game_id": None, "deadline": None,
                    "starts_at": iso_or_none(tournament.starts_at)}
        if tournament.status != RUNNING or player_id in tournament.withdrawn:
            return None
        current = tournament.current()
        table = next((table for table in current["tables"] if player_id in table["seats"]),
                     None)
        if not current["over"] and table is not None:
            head = self.games.head(table["game_id"], player_id)
            if head is not None and head.status != GAME_FINISHED:
                return {"status": "playing", "round": current["number"],
                        "game_id": table["game_id"], "starts_at": None,
                        "deadline": iso_or_none(current["deadline"])}
        if current["number"] >= tournament.rounds:
            return None   # their last game is over: the standings are final with the round
        return {"status": "waiting", "round": current["number"] + 1, "game_id": None,
                "deadline": None, "starts_at": iso_or_none(self.clock.now() if current["over"]
                                         else current["deadline"])}
