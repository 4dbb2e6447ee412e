"""Jobs take ids, never objects, and are idempotent: a job whose game moved on does nothing."""
from rq import get_current_job

from api.service import Service
from worker import notify


def _service() -> Service:
    return Service(get_current_job().connection)


def play_bot_turn(game_id: str, seat: int, version: int) -> bool:
    """Make the move of the bot in `seat` if the game is still at `version`."""
    return _service().play_bot(game_id, seat, version)


def deadline_passed(game_id: str, seat: int, turn_since: int) -> bool:
    """Play for a human whose turn, begun at `turn_since`, ran out of time."""
    return _service().deadline_passed(game_id, seat, turn_since)


def notify_turn(game_id: str, seat: int, turn_since: int) -> int:
    """Tell a human, once, that the turn begun at `turn_since` is theirs."""
    return notify.notify_turn(_service(), game_id, seat, turn_since)
