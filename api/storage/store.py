"""The game store: one client of the game's Redis (or Redis Cluster), shared by the stores of
each keyspace; and the record's PostgreSQL (`finished` games, `finished_tournaments` and
`archived_analyses`, None when no DATABASE_URL is given: then nothing is archived;
`player_record`, what players own, kept there and cached here)."""
from __future__ import annotations

from redis import Redis

from api.storage import keys
from api.storage.accounts import AccountStore
from api.storage.addresses import AddressGames
from api.storage.analyses import AnalysisStore
from api.storage.archive_outbox import ArchiveOutbox
from api.storage.archived_analyses import ArchivedAnalyses
from api.storage.chat import ChatStore
from api.storage.digests import Digests
from api.storage.directory import DirectoryStore
from api.storage.finished_games import FinishedGames
from api.storage.finished_tournaments import FinishedTournaments
from api.storage.friends import FriendStore
from api.storage.games import MAX_LOG_ACTIONS, GameStore
from api.storage.lobby import LobbyStore
from api.storage.passkeys import PasskeyStore
from api.storage.player_record import PlayerRecord
from api.storage.players import PlayerStore
from api.storage.push import PushStore
from api.storage.ratings import RatingStore
from api.storage.schedule import Schedule
from api.storage.seeks import SeekStore
from api.storage.tournaments import TournamentStore
from api.storage.webhooks import WebhookStore


class Storage:
    def __init__(self, redis: Redis, retention_seconds: int = 30 * 86400,
                 max_log_actions: int = MAX_LOG_ACTIONS, database_url: str | None = None,
                 game_types: tuple[str, ...] = (), keep_everyone: bool = False):
        self.redis = redis
        self.finished = FinishedGames(database_url) if database_url else None
        self.player_record = PlayerRecord(redis, database_url, retention_seconds, game_types,
                                          keep_everyone)
        self.finished_tournaments = (FinishedTournaments(database_url) if database_url
                                     else None)
        self.archived_analyses = ArchivedAnalyses(database_url) if database_url else None
        self.archive_outbox = ArchiveOutbox(redis)
        self.games = GameStore(redis, retention_seconds, max_log_actions)
        self.players = PlayerStore(redis, retention_seconds, self.player_record)
        self.passkeys = PasskeyStore(redis, retention_seconds, self.player_record)
        self.lobby = LobbyStore(redis, retention_seconds)
        self.addresses = AddressGames(redis, retention_seconds)
        self.schedule = Schedule(redis)
        self.push = PushStore(redis, retention_seconds)
        self.chat = ChatStore(redis, retention_seconds)
        self.digests = Digests(redis)
        self.ratings = RatingStore(redis, retention_seconds, self.player_record)
        self.friends = FriendStore(redis, retention_seconds, self.player_record)
        self.webhooks = WebhookStore(redis, retention_seconds)
        self.analyses = AnalysisStore(redis, retention_seconds)
        self.tournaments = TournamentStore(redis, retention_seconds)
        self.seeks = SeekStore(redis, retention_seconds)
        self.directory = DirectoryStore(redis)
        self.accounts = AccountStore(redis, database_url, game_types)

    def game_heads(self, game_ids: list[str]) -> list[tuple[tuple[int, int] | None, int]]:
        """Each game's version and renames (None when it is gone) and the number of the last
        line said at its table, from two keyspaces of the game's slot in one round trip per
        node."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(keys.game(game_id), "version", "renamed")
            pipe.get(keys.chat_count(game_id))
        read = pipe.execute()
        return [(None if version is None else (int(version), int(renamed or 0)), int(said or 0))
                for (version, renamed), said in zip(read[::2], read[1::2])]
