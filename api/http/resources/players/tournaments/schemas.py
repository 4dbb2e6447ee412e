from marshmallow import Schema, fields


class NextTournamentGameSchema(Schema):
    tournament_id = fields.String(metadata={"description": "Opens getTournament"})
    name = fields.String()
    type = fields.String()
    round_count = fields.Integer(metadata={"description": "Rounds the tournament plays"})
    status = fields.String(metadata={
        "enum": ["playing", "waiting", "starting"],
        "description": "playing: your table of the round is in play (`game_id`); waiting: "
                       "your game of the round is over and the next round starts when the "
                       "round's other tables finish, at the latest at `starts_at`; starting: "
                       "the tournament has not started (at `starts_at`, or when full if null)"})
    round = fields.Integer(metadata={"description": "The round played, or waited for"})
    game_id = fields.String(allow_none=True, metadata={
        "description": "Your table's game while `playing` (opens getGame); null otherwise"})
    deadline = fields.String(allow_none=True, metadata={
        "description": "While `playing`: the round's deadline, when stand-in bots finish its "
                       "games"})
    starts_at = fields.String(allow_none=True, metadata={
        "description": "When the round waited for starts at the latest"})
