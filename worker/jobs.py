"""Jobs take ids, never objects, and are idempotent: a job whose game moved on does nothing.

POYTA_MEDIUM_SECONDS and POYTA_HARD_SECONDS set the CPU seconds a search bot
may think per move (defaults in rules.search.DEFAULT_BUDGETS).
"""
import os

from rq import get_current_job

from api.service import Service
from rules.search import Budget
from worker import notify


def _budgets() -> dict[str, Budget]:
    budgets = {}
    for level in ("medium", "hard"):
        seconds = os.environ.get(f"POYTA_{level.upper()}_SECONDS")
        if seconds:
            budgets[level] = Budget(seconds=float(seconds))
    return budgets


def _service() -> Service:
    return Service(get_current_job().connection, budgets=_budgets())


def play_bot_turn(game_id: str, seat: int, version: int) -> bool:
    """Make the move of the bot in `seat` if the game is still at `version`."""
    return _service().play_bot(game_id, seat, version)


def deadline_passed(game_id: str, seat: int, turn_since: int) -> bool:
    """Play for a human whose turn, begun at `turn_since`, ran out of time."""
    return _service().deadline_passed(game_id, seat, turn_since)


def notify_turn(game_id: str, seat: int, turn_since: int) -> int:
    """Tell a human, once, that the turn begun at `turn_since` is theirs."""
    return notify.notify_turn(_service(), game_id, seat, turn_since)
