"""The review's schemas as the contract publishes them, per game (`api.http.contract`)."""
from rules.base import Game


def analysis_schema(game: Game, action: dict) -> dict:
    """A finished game's review (`getAnalysis`, docs/analysis.md), `action` the schema of the
    game's actions."""
    number = {"type": "number"}
    decision = {"type": "object", "required": ["step", "chosen", "best", "values", "loss",
                                               "error", "forced"],
                "properties": {"step": {"type": "integer", "minimum": 0}, "chosen": action,
                               "best": action,
                               "values": {"type": "array", "items": {
                                   "type": "object", "required": ["action", "expected", "error"],
                                   "properties": {"action": action, "expected": number,
                                                  "error": number}}},
                               "loss": {"type": "number", "minimum": 0}, "error": number,
                               "forced": {"type": "boolean"}}}
    seat = {"type": "object", "required": ["seat", "decisions", "total_loss", "accuracy",
                                           "costliest", "luck"],
            "properties": {"seat": {"type": "integer", "minimum": 0},
                           "decisions": {"type": "array", "items": decision},
                           "total_loss": {"type": "number", "minimum": 0},
                           "accuracy": {"type": ["number", "null"], "minimum": 0},
                           "costliest": {"type": "array", "items": {"type": "integer"}},
                           "luck": {"type": "array", "items": {
                               "type": "object", "required": ["deal", "value", "error"],
                               "properties": {"deal": {"type": "integer"}, "value": number,
                                              "error": number}}}}}
    return {"type": "object", "required": ["status", "job", "type", "better", "seats"],
            "description": f"The review of a finished {game.title} game",
            "properties": {"status": {"type": "string", "const": "done"},
                           "job": {"type": "string"},
                           "type": {"type": "string", "const": game.name},
                           "better": {"type": "string",
                                      "const": "lower" if game.lower_score_wins else "higher"},
                           "seats": {"type": "array", "items": seat}}}


# A review's status while it waits: the contract's `AnalysisWaiting`.
ANALYSIS_WAITING = {"type": "object", "required": ["status", "job"],
                    "properties": {"status": {"type": "string", "enum": ["queued", "running"]},
                                   "job": {"type": "string"}}}


def analysis_union(waiting: dict, reviews: list[dict]) -> dict:
    """`getAnalysis`'s answer: `waiting` while the review waits, then one of `reviews`."""
    return {"anyOf": [waiting, *reviews], "description": "A review's status; once done, the "
                                                         "review of the game's `type` "
                                                         "(`<Game>Analysis`)"}
