"""Results and ratings of finished games (run by the worker): each seat's place, and one
OpenSkill rating per player and game type (`openskill`'s Plackett-Luce model at its defaults).

Places come from the game's outcome (the rules', or the scores as they stood when a
resignation or a full log ended it): fewest points first where the lower score wins (6 nimmt!'s
bullheads), most first elsewhere; equal results share a place; partners (4-player Sixty-six)
are rated as one team. A seat that resigned, or that a stand-in bot played to the end after
repeated time-outs, places last, tied with any other such seat (with its partner, in a team).
Each bot level is a rated player of its own ("Hard bot", one rating per game type), so a player
who plays bots alone gets a meaningful rating; a level in several seats of one game counts the
game once, its new rating the mean of its seats' updates.

A game's results are recorded once, whatever process dies on the way: the ratings before the
game are kept with it on the first reading, so every run computes the same updates; each
player's update is one script on their own keys that applies only if the game is not yet
among their results, and only to the standing it was computed from (a player who finished
another game meanwhile is updated from their newer rating), and is saved to PostgreSQL with the
rest of what the player owns; the game's `results` are committed last, which ends the job's
work.
A game created with `"rated": false` counts in its players' results but not their ratings.

What people are shown is the display rating, `display_rating`: 1500 + 40 × ordinal (the
ordinal is mu − 3 sigma, 0 for a new player), rounded and never below 0. A new player starts at
1500; the rating rises as the model grows sure of a good result (sigma shrinks) and moves with
each game. It is provisional (shown "1620?") until the player has PROVISIONAL_GAMES rated games
of the type: until then it may still move a lot, and the leaderboard lists the player apart.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from openskill.models import PlackettLuce

from api import faults
from api.storage.ratings import STALE
from api.tables.games import CAS_ATTEMPTS, Games
from api.tables.model import FINISHED, StoredGame

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10   # a rating with fewer rated games is provisional, and listed apart
HISTORY_LENGTH = 50      # rating changes kept per player and game type
RECENT_GAMES = 50        # finished games kept per player
BOT_PREFIX = "bot-"      # a bot level's player id: never a registered player's (hex digits)


def bot_player_id(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def bot_level(player_id: str) -> str | None:
    """The bot level a player id stands for; None for a registered player."""
    return player_id[len(BOT_PREFIX):] if player_id.startswith(BOT_PREFIX) else None


def bot_name(level: str) -> str:
    return f"{level.capitalize()} bot"


@dataclass
class Standing:
    """A player's rating and results at one game type."""
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    rated: int = 0        # rated games
    finished: int = 0     # finished games, rated or not
    firsts: int = 0
    places: float = 0     # the sum of the player's places, for their average
    score: float = 0      # the sum of their scores

    @classmethod
    def from_json(cls, text: str) -> Standing:
        return cls(**json.loads(text)) if text else cls()

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.rated < PROVISIONAL_GAMES


DISPLAY_START = 1500     # the display rating of a new player (ordinal 0)
DISPLAY_SCALE = 40       # display points per point of ordinal


def display_rating(ordinal_value: float) -> int:
    """The rating people are shown: on a familiar scale from 1500, never negative."""
    return max(0, round(DISPLAY_START + DISPLAY_SCALE * ordinal_value))


def ordinal(mu: float, sigma: float) -> float:
    """What lists sort and show: mu - 3 sigma."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def places(stored: StoredGame) -> list[int]:
    """Each seat's place, from 1: a team's seats share theirs."""
    scores = stored.outcome()["scores"]
    teams = stored.game.teams(len(stored.seats))
    lower_wins = stored.game.lower_score_wins
    # None for a team with a seat that quit; else a key that sorts the better result first.
    keys = [None if any(stored.seats[seat].resigned or stored.seats[seat].standin
                        for seat in team)
            else (scores[team[0]] if lower_wins else -scores[team[0]]) for team in teams]
    playing = [key for key in keys if key is not None]
    result = [0] * len(stored.seats)
    for team, key in zip(teams, keys):
        place = 1 + (len(playing) if key is None else sum(other < key for other in playing))
        for seat in team:
            result[seat] = place
    return result


def rated_player(stored: StoredGame, seat: int) -> str:
    entry = stored.seats[seat]
    return entry.player_id if entry.bot is None else bot_player_id(entry.bot)


def updated_ratings(stored: StoredGame, ratings: dict[str, Standing],
                    seat_places: list[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after the game, by the model, from the players' `ratings`."""
    teams = stored.game.teams(len(stored.seats))
    rated = MODEL.rate(
        [[MODEL.rating(mu=ratings[rated_player(stored, seat)].mu,
                       sigma=ratings[rated_player(stored, seat)].sigma) for seat in team]
         for team in teams],
        ranks=[seat_places[team[0]] for team in teams])
    after = [(0.0, 0.0)] * len(stored.seats)
    for team, new in zip(teams, rated):
        for seat, rating in zip(team, new):
            after[seat] = (rating.mu, rating.sigma)
    return after


class Ratings:
    def __init__(self, games: Games):
        self.games = games
        self.store = games.storage.ratings

    def record(self, game_id: str) -> bool:
        """Record a finished game's results once; False when there is nothing to do."""
        stored = self.games.find(game_id)
        if stored is None or stored.status() != FINISHED or stored.results is not None:
            return False
        seat_places = places(stored)
        seats_of: dict[str, list[int]] = {}
        for seat in range(len(stored.seats)):
            seats_of.setdefault(rated_player(stored, seat), []).append(seat)
        kind = stored.game.name
        before_text = self.store.snapshot(game_id) or self.store.keep_snapshot(
            game_id, json.dumps(self.store.standings(list(seats_of), kind)))
        if before_text is None:
            return False  # the game expired meanwhile
        before = json.loads(before_text)
        ratings = {player: Standing.from_json(text) for player, text in before.items()}
        after = updated_ratings(stored, ratings, seat_places)
        scores = stored.outcome()["scores"]
        for done, (player, seats) in enumerate(seats_of.items(), 1):
            self._apply(stored, player, seats, before[player], ratings, seat_places, scores)
            faults.reach(faults.AFTER_RATING_UPDATE)
        changes = [self._seat_result(stored, seat, seat_places, ratings, after)
                   for seat in range(len(stored.seats))]

        def keep(game: StoredGame) -> None:
            game.results = {"rated": stored.meta.rated, "seats": changes}
        self.games.transact(game_id, keep, stored)
        return True

    def _seat_result(self, stored: StoredGame, seat: int, seat_places: list[int],
                     ratings: dict[str, Standing], after: list[tuple[float, float]]) -> dict:
        player = rated_player(stored, seat)
        rating = None
        if stored.meta.rated:
            mu, sigma = after[seat]
            rating = {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma),
                      "change": ordinal(mu, sigma) - ratings[player].ordinal}
        return {"seat": seat, "player": player, "place": seat_places[seat], "rating": rating}

    def _apply(self, stored: StoredGame, player: str, seats: list[int], seen: str,
               ratings: dict[str, Standing], seat_places: list[int], scores: list) -> None:
        """The player's standing after the game, applied once: computed again from their newer
        standing when another game of theirs was recorded meanwhile (the leaderboards read the
        standings PostgreSQL keeps, `api.tables.profiles`)."""
        for _ in range(CAS_ATTEMPTS):
            new, history, recent = self._after_game(stored, player, seats, Standing.from_json(seen),
                                                    ratings, seat_places, scores)
            status, now = self.store.apply(player, stored.game.name, stored.id, seen,
                                           new.to_json(), history, recent, stored.updated,
                                           HISTORY_LENGTH, RECENT_GAMES)
            if status != STALE:
                break
            seen = now
        else:
            raise RuntimeError(f"the standing of {player} kept changing")

    @staticmethod
    def _after_game(stored: StoredGame, player: str, seats: list[int], current: Standing,
                    ratings: dict[str, Standing], seat_places: list[int], scores: list
                    ) -> tuple[Standing, str | None, str]:
        """The player's new standing, the rating change for their history (None: the game was
        not rated) and the game for their recent games, as JSON."""
        new = Standing(**asdict(current))
        new.finished += 1
        new.firsts += any(seat_places[seat] == 1 for seat in seats)
        new.places += sum(seat_places[seat] for seat in seats) / len(seats)
        new.score += sum(scores[seat] for seat in seats) / len(seats)
        history = change = None
        if stored.meta.rated:
            after = updated_ratings(stored, {**ratings, player: current}, seat_places)
            new.mu = sum(after[seat][0] for seat in seats) / len(seats)
            new.sigma = sum(after[seat][1] for seat in seats) / len(seats)
            new.rated += 1
            change = new.ordinal - current.ordinal
            history = json.dumps({"game": stored.id, "at": stored.updated, "mu": new.mu,
                                  "sigma": new.sigma, "ordinal": new.ordinal, "change": change})
        recent = json.dumps({
            "game": stored.id, "type": stored.game.name, "at": stored.updated,
            "public": stored.meta.public, "players": stored.humans(),
            "names": [seat.name for seat in stored.seats],
            "place": min(seat_places[seat] for seat in seats), "score": scores[seats[0]],
            "rated": stored.meta.rated, "change": change})
        return new, history, recent
