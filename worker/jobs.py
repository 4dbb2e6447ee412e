"""Jobs take ids, never objects, and are idempotent: a job with nothing left to do does nothing.

The settings (budgets of the search bots, the store's address) come from `api.settings`;
without REDIS_URL the store is the Redis the job came from.
"""
from __future__ import annotations

from rq import get_current_job

from api.settings import Settings
from api.storage import connections
from api.tables import Tables

_tables: dict[str, Tables] = {}


def tables_for(queue_redis: connections.Client) -> Tables:
    """One Tables per worker process and store (its connection pools and scripts are reused),
    made again only if the settings changed (a test's jobs run in the test's own process)."""
    settings = Settings.from_env()
    url = settings.connections["REDIS_URL"] if settings.store_given else connections.url_of(
        queue_redis)
    if url not in _tables or _tables[url].settings != settings:
        store = (connections.store_client(settings.connections) if settings.store_given
                 else queue_redis)
        _tables[url] = Tables(store, queue_redis=queue_redis, settings=settings)
    return _tables[url]


def _tables_of_job() -> Tables:
    return tables_for(get_current_job().connection)


def play_bots(game_id: str) -> int:
    """Move every bot seat of the game that must act now; the moves made."""
    return _tables_of_job().bots.play_due(game_id, get_current_job().origin)


def deadline_passed(game_id: str, seat: int, turn_since: int) -> bool:
    """Play for a human whose turn, begun at `turn_since`, ran out of time."""
    return _tables_of_job().bots.deadline_passed(game_id, seat, turn_since)


def notify_turn(game_id: str, seat: int, turn_since: int) -> int:
    """Tell a human, once, that the turn begun at `turn_since` is theirs."""
    return _tables_of_job().notices.notify_turn(game_id, seat, turn_since)


def notify_started(game_id: str, player_id: str) -> int:
    """Tell a seated player, once, that every seat of their game is taken."""
    return _tables_of_job().notices.notify_started(game_id, player_id)


def remind(game_id: str, seat: int, turn_since: int, kind: str) -> int:
    """Remind a human, once, that the turn begun at `turn_since` runs out (`kind`)."""
    return _tables_of_job().reminders.remind(game_id, seat, turn_since, kind)


def send_digest(player_id: str, day: str) -> int:
    """A player's daily digest of the games waiting for them, once a day."""
    return _tables_of_job().reminders.send_digest(player_id, day)


def notify_challenge(game_id: str, seat: int) -> int:
    """Tell a player, once, of the seat a challenge keeps for them, if it still does."""
    return _tables_of_job().challenges.notify(game_id, seat)


def record_results(game_id: str) -> bool:
    """A finished game's places and rating changes, counted once for each of its players; then
    its archiving, which waits for them."""
    tables = _tables_of_job()
    recorded = tables.ratings.record(game_id)
    tables.archive.queue(game_id)
    return recorded


def archive_game(game_id: str) -> bool:
    """A finished game into the archive, once (`api.tables.archive`)."""
    return _tables_of_job().archive.archive(game_id)


def deliver_webhook(player_id: str, token: str) -> int:
    """Tell the player's webhook what their stream has not told it yet (`token`: this run's)."""
    return _tables_of_job().webhooks.deliver(player_id, token)


def analyse(game_id: str) -> bool:
    """Review a finished game, once (`api.tables.analysis`)."""
    return _tables_of_job().analysis.run(game_id)


def move_tournament_on(tournament_id: str) -> str:
    """Start the tournament, pair and open its next round, or end it, whichever is due; its
    status after."""
    return _tables_of_job().tournaments.move_on(tournament_id)


def pair_seeks(pool: str) -> int:
    """One pairing round of a matchmaking pool: the tables it seated."""
    return _tables_of_job().seeks.pair(pool)
