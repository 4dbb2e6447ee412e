"""The player's clock: time zone, waking hours, vacations, moves that play themselves, the
daily digest (the card chosen ahead at a table is `games.preselection`'s)."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.players.clock.schemas import ClockChangeSchema, ClockSchema, VacationSchema
from api.tables.waking import minutes

blp = tags.clock
CHANGES = {"time_zone": "zone", "forced_moves": "forced", "preselect": "preselect",
           "digest_hour": "digest_hour"}


@blp.route("/players/me/clock")
class Clock(MethodView):
    @blp.doc(operationId="getClock")
    @authenticated
    @blp.response(200, ClockSchema)
    def get(self):
        """Your time zone, waking hours, vacation days and automatic moves"""
        return tables().clocks.describe(current_player())

    @blp.doc(operationId="setClock")
    @authenticated
    @blp.arguments(ClockChangeSchema(), required=False)  # no body: nothing changes
    @blp.response(200, ClockSchema)
    def patch(self, body):
        """Change any of them; your running turns keep the waking time they had left"""
        changes = {CHANGES[name]: value for name, value in body.items() if name in CHANGES}
        if "waking" in body:
            waking = body["waking"]
            changes["window"] = None if waking is None else (minutes(waking["from"]),
                                                             minutes(waking["to"]))
        return tables().clocks.change(current_player(), changes)


@blp.route("/players/me/vacation")
class Vacation(MethodView):
    @blp.doc(operationId="startVacation")
    @authenticated
    @blp.arguments(VacationSchema())
    @blp.response(200, ClockSchema)
    def post(self, body):
        """Go on vacation now for whole days: your deadlines stand still, the tables see it"""
        return tables().clocks.start_vacation(current_player(), body["days"])

    @blp.doc(operationId="endVacation")
    @authenticated
    @blp.response(200, ClockSchema)
    def delete(self):
        """End your vacation now: the whole days not begun go back to your allowance"""
        return tables().clocks.end_vacation(current_player())
