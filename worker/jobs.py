"""Jobs take ids, never objects, and are idempotent: a job whose game moved on does nothing."""
from rq import get_current_job

from api.service import Service


def play_bot_turn(game_id: str, seat: int, version: int) -> bool:
    """Make the move of the bot in `seat` if the game is still at `version`."""
    return Service(get_current_job().connection).play_bot(game_id, seat, version)
