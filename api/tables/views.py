"""What a caller sees: a game from a seat (or as a spectator), a line of an inbox or the lobby,
and what a view's ETag is made of.

Access: a private game, even while it waits for players, is watched only by its players and by
a player a seat is kept for (a rematch); anybody else takes a seat through an invite link.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from api.storage.store import Storage
from api.tables.archive import Archive
from api.tables import turns
from api.tables.errors import Forbidden, no_game
from api.tables.games import Games
from api.tables.model import ACTIVE, FINISHED, WAITING, Player, Seat, StoredGame, iso
from api.tables.ratings import bot_player_id

FAR_FUTURE = "9999"  # sorts an inbox line without a deadline after every one with a deadline


def view(stored: StoredGame, seat: int | None) -> dict:
    game = stored.game
    status = stored.status()
    seen = game.view(stored.state, seat)
    to_act = stored.to_act()
    may_act = status == ACTIVE and seat is not None and not stored.seats[seat].standin
    return {
        "id": stored.id,
        "type": game.name,
        "title": game.title,
        "options": stored.meta.options,
        "pace": stored.meta.pace,
        "public": stored.meta.public,
        "version": stored.version,
        "status": status,
        "phase": seen["phase"],
        "deal": seen["deal"],
        "seats": [_seat_view(s, index, seen["scores"][index], index in to_act, stored.updated,
                             stored.bot_level(index) if s.standin else None)
                  for index, s in enumerate(stored.seats)],
        "your_seat": seat,
        "to_act": to_act,
        "hand": seen["hand"],
        "legal_actions": game.legal_actions(stored.state, seat) if may_act else [],
        "table": seen["table"],
        "outcome": stored.outcome() if status == FINISHED else None,
        "invites": [{"seat": index, "code": s.invite} for index, s in enumerate(stored.seats)
                    if s.invite and s.player_id is None] if seat is not None else [],
        "rematch_of": stored.meta.rematch_of,
        "rematch": stored.meta.rematch,
        "your_waking": _your_waking(stored, seat) if may_act and seat in to_act else None,
        "rated": stored.meta.rated,
        "results": stored.results,
    }


def _your_waking(stored: StoredGame, seat: int) -> list[dict] | None:
    """When the seat's time runs from this version to its deadline: only its own player sees
    it (it would tell the others their waking hours)."""
    if stored.seats[seat].deadline is None:
        return None
    return [{"from": iso(start), "to": iso(end)}
            for start, end in turns.stretches(stored.seats[seat], stored.updated)]


def _seat_view(seat: Seat, index: int, score: Any, to_act: bool, updated: float,
               standin_level: str | None) -> dict:
    return {"seat": index, "name": seat.name, "bot": seat.bot, "player": _profile_of(seat),
            "joined": seat.bot is not None or seat.player_id is not None,
            "automated": seat.automated,
            "score": score, "to_act": to_act, "standin": seat.standin,
            "standin_level": standin_level, "resigned": seat.resigned,
            "timeouts": seat.timeouts,
            "deadline": iso(seat.deadline) if seat.deadline else None,
            "vacation_until": iso(seat.vacation_until)
            if seat.vacation_until and seat.vacation_until > updated else None,
            "time_left": None if seat.bank is None else round(seat.bank)}


def _profile_of(seat: Seat) -> str | None:
    """Whose profile the seat's name opens: its player's, or its bot level's."""
    return seat.player_id if seat.bot is None else bot_player_id(seat.bot)


def summary(stored: StoredGame, player_id: str | None) -> dict:
    """One line of an inbox or of the lobby."""
    seat = stored.seat_of(player_id)
    to_act = stored.to_act()
    scores = stored.game.view(stored.state, None)["scores"]
    deadline = stored.seats[seat].deadline if seat is not None else None
    status = stored.status()
    outcome = stored.outcome() if status == FINISHED else None
    return {
        "id": stored.id, "type": stored.game.name, "title": stored.game.title,
        "status": status, "your_seat": seat,
        "your_turn": seat is not None and seat in to_act and not stored.seats[seat].standin,
        "deadline": iso(deadline) if deadline else None,
        "updated": iso(stored.updated),
        "players": [{"seat": i, "name": s.name, "bot": s.bot, "score": scores[i],
                     "resigned": s.resigned} for i, s in enumerate(stored.seats)],
        "open_seats": sum(1 for s in stored.seats if s.open),
        "outcome": outcome,
        "your_place": _your_place(stored, outcome, seat),
        "invitation": invitation(stored, player_id) if seat is None else None,
        "tournament": ({"id": stored.meta.tournament["id"],
                        "round": stored.meta.tournament["round"]}
                       if stored.meta.tournament else None),
    }


def invitation(stored: StoredGame, player_id: str | None) -> dict | None:
    """The seat a waiting game keeps for the player (a challenge or a rematch), and who asks."""
    kept = next((index for index, seat in enumerate(stored.seats)
                 if player_id and seat.reserved_for == player_id and seat.open), None)
    if kept is None or stored.status() != WAITING:
        return None
    return {"seat": kept, "from": next((seat.name for seat in stored.seats if seat.player_id),
                                       None)}


def _your_place(stored: StoredGame, outcome: dict | None, seat: int | None) -> int | None:
    """Once its results are recorded, the place the ratings counted (partners together, a
    seat that quit last); until then, the outcome's."""
    if outcome is None or seat is None:
        return None
    if stored.results is not None:
        return stored.results["seats"][seat]["place"]
    return place(outcome, seat, stored.game.lower_score_wins)


def place(outcome: dict, seat: int, lower_wins: bool) -> int:
    """The seat's place in a finished game: 1 for a winner, else one after every seat that
    won or scored better."""
    winners, scores = outcome["winners"], outcome["scores"]
    if seat in winners:
        return 1
    sign = -1 if lower_wins else 1
    return 1 + sum(1 for other, score in enumerate(scores)
                   if other in winners or sign * score > sign * scores[seat])


def _descending(iso_time: str) -> str:
    """A sort key that orders ISO timestamps newest first."""
    return "".join(chr(0x10FFFF - ord(ch)) for ch in iso_time)


class Watching:
    def __init__(self, games: Games, archive: Archive | None = None):
        self.games = games
        self.storage: Storage = games.storage
        self.archive = archive  # finished games Redis let go after the hot window

    def etag_parts(self, game_id: str, player: Player | None) -> dict:
        """What the ETag is made of, read without the game's JSON: the version, the caller's
        seat and the number of renames at the table; refuses private spectators."""
        head = self.storage.games.head(game_id, player and player.id)
        if head is None:
            raise no_game(game_id)
        self.may_watch(game_id, player, head.seat, head.public)
        return {"version": head.version, "seat": head.seat, "renamed": head.renamed}

    def watch(self, game_id: str, player: Player | None) -> tuple[dict, StoredGame]:
        """The ETag's parts and the game, in one read; refuses private spectators."""
        stored = self.games.find(game_id, player and player.id)
        if stored is None:
            raise no_game(game_id)
        record = stored.record
        self.may_watch(game_id, player, record.seat, record.public, stored)
        return {"version": record.version, "seat": record.seat, "renamed": record.renamed}, stored

    def may_watch(self, game_id: str, player: Player | None, seat: int | None, public: bool,
                  stored: StoredGame | None = None) -> None:
        if seat is not None or public:
            return
        stored = stored or (self.games.find(game_id) if player else None)
        if stored is None or player is None or not stored.seat_kept_for(player.id):
            raise Forbidden("this game is private: only its players may watch it")

    def inbox(self, player: Player) -> list[dict]:
        """The player's games: a tournament's game in play first (the table of its round),
        then invitations, then their turn, then by deadline, then by last activity."""
        lines, gone, let_go = [], [], []
        game_ids = self.storage.players.game_ids(player.id)
        found = {game_id: self.games.find(game_id) for game_id in game_ids}
        archived = self.archive.listed([game_id for game_id, stored in found.items()
                                       if stored is None]) if self.archive else {}
        for game_id in game_ids:
            stored = found[game_id] or (archived or {}).get(game_id)
            if stored is None:
                let_go.append(game_id)
            elif stored.seat_of(player.id) is None and not stored.seat_kept_for(player.id):
                gone.append(game_id)  # left
            else:
                lines.append(summary(stored, player.id))
        if archived is not None:
            gone += let_go  # expired unarchived after its retention (not the archive away)
        self.storage.players.forget_games(player.id, gone)
        return sorted(lines, key=lambda line: (line["tournament"] is None
                                               or line["status"] == FINISHED,
                                               line["invitation"] is None, not line["your_turn"],
                                               line["status"] == FINISHED,
                                               line["deadline"] or FAR_FUTURE,
                                               _descending(line["updated"])))

    def inbox_version(self, player: Player) -> str:
        """Changes whenever any of the player's games does: a digest of their versions.

        Commits publish to each seated player's inbox channel but write no key of theirs, so a
        move costs the same however many humans play and needs no other hash slot.
        """
        game_ids = self.storage.players.game_ids(player.id)
        versions = self.storage.games.versions(game_ids) if game_ids else []
        return hashlib.sha256(json.dumps([game_ids, versions]).encode()).hexdigest()[:20]
