"""The domain: players, their passkeys and their clocks, tables and seats, play, bots and
deadlines, talk, history, notices and reminders, results, ratings and profiles, friends and
blocks, tournaments, seeks and matchmaking, what a player's stream (and webhook) tells, the
archive of finished games and the open data published from it.

`Tables` puts the concerns together on one game store and one job queue; each concern is a
small module on `games.Games.transact`, enforces its own access rules and refuses with a
`errors.ServiceError`. No HTTP here: the API (`api.http`) and the worker (`worker`) both call in.
"""
from __future__ import annotations

from api.settings import Settings
from api.storage.connections import Client
from api.storage.jobs import JobBoard
from api.storage.store import Storage
from api.tables.accounts import Accounts
from api.tables.analysis import Analysis
from api.tables.archive import Archive
from api.tables.bots import Bots
from api.tables.challenges import Challenges
from api.tables.chat import Chat
from api.tables.clock import clock_for
from api.tables.directory import Directory
from api.tables.friends import Friends
from api.tables.games import Games
from api.tables.history import History
from api.tables.notices import Notices
from api.tables.open_data import OpenData
from api.tables.passkeys import Passkeys
from api.tables.play import Play
from api.tables.player_clock import PlayerClocks
from api.tables.players import Players
from api.tables.preselection import Preselection
from api.tables.profiles import Profiles
from api.tables.push import Push
from api.tables.ratings import Ratings
from api.tables.reminders import Reminders
from api.tables.seating import Seating
from api.tables.seeks import Seeks
from api.tables.streams import Streams
from api.tables.tournament_lists import TournamentLists
from api.tables.tournaments import Tournaments
from api.tables.views import Watching
from api.tables.webhooks import Webhooks
from rules import GAMES
from rules.search import Budget


class Tables:
    def __init__(self, redis: Client, paces: dict[str, int | None] | None = None,
                 budgets: dict[str, Budget] | None = None, queue_redis: Client | None = None,
                 settings: Settings | None = None):
        self.settings = settings or Settings.from_env()
        self.storage = Storage(redis, self.settings.retention_seconds,
                               self.settings.max_game_actions, self.settings.database_url,
                               tuple(GAMES), not self.settings.throwaway_players_lapse)
        self.jobs = JobBoard(queue_redis or redis)
        self.clock = clock_for(self.settings.test_clock)
        self.games = Games(self.storage, self.jobs, self.settings, self.clock)
        self.players = Players(self.storage, self.settings, self.clock)
        self.passkeys = Passkeys(self.storage, self.players, self.settings, self.clock)
        self.clocks = PlayerClocks(self.games, self.settings.vacation_days)
        self.seating = Seating(self.games, self.clocks, paces)
        self.seeks = Seeks(self.games, self.seating, self.clocks, self.settings)
        self.play = Play(self.games)
        self.archive = Archive(self.games)
        self.watching = Watching(self.games, self.archive)
        self.history = History(self.games, self.watching, self.archive)
        self.open_data = OpenData(self.games)
        self.analysis = Analysis(self.games, self.archive, self.history, self.jobs,
                                 self.settings)
        self.chat = Chat(self.games)
        self.streams = Streams(self.games)
        self.webhooks = Webhooks(self.streams, self.settings)
        self.bots = Bots(self.games, self.play,
                         budgets if budgets is not None else self.settings.budgets)
        self.push = Push(self.storage.push)
        self.notices = Notices(self.games, self.push, self.settings)
        self.challenges = Challenges(self.games, self.notices)
        self.preselection = Preselection(self.games, self.clocks)
        self.reminders = Reminders(self.games, self.notices, self.clocks, self.watching)
        self.ratings = Ratings(self.games)
        self.friends = Friends(self.storage, self.challenges)
        self.directory = Directory(self.storage)
        self.profiles = Profiles(self.storage)
        self.tournaments = Tournaments(self.games, self.clocks, self.play, self.seating.paces)
        self.accounts = Accounts(self)
        self.tournament_lists = TournamentLists(self.storage.tournaments,
                                                self.storage.finished_tournaments,
                                                self.storage.games, self.games.clock)
