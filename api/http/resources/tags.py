"""The contract's tags, one flask-smorest Blueprint each, in the order the contract lists them.

A tag is what a generated client names an API class after, and the start of each endpoint's
name (`games.Actions`), which budgets, idempotency and metrics key on. Routes live where their
URLs are, so a tag may span resources: `clock` serves /players/me/clock and
/games/{id}/preselection. Every tag is registered under /api/v1 and each route writes the rest
of its path.
"""
from __future__ import annotations

from api.http.blueprint import Blueprint

players = Blueprint("players", __name__, description="Players, their devices and their inbox")
passkeys = Blueprint("passkeys", __name__,
                     description="Passkeys: keep your player when a device is lost, sign in on "
                                 "any device")
games = Blueprint("games", __name__, description="Games: create, join, watch, act")
push = Blueprint("push", __name__, description="Web Push: 'your turn' notices on a device")
table = Blueprint("table", __name__, description="Around the table: leave, resign, talk")
clock = Blueprint("clock", __name__, description="Your clock: waking hours, vacations, "
                                                 "reminders and moves that play themselves")
streams = Blueprint("streams", __name__, description="Streams: one connection for a program")
profiles = Blueprint("profiles", __name__,
                     description="Players' profiles, ratings and leaderboards")
friends = Blueprint("friends", __name__, description="Friends, friend links and blocking")
webhooks = Blueprint("webhooks", __name__,
                     description="Your webhook: your events, signed, to a URL of yours")
tournaments = Blueprint("tournaments", __name__,
                        description="Tournaments: Swiss rounds, round robins, duplicate deals")
seeks = Blueprint("seeks", __name__,
                  description="Play now: seek a table and matchmaking seats you")
analysis = Blueprint("analysis", __name__,
                     description="Reviews of finished games: each decision weighed from its "
                                 "seat's view, each deal's luck")
open_data = Blueprint("opendata", __name__,
                      description="Open data: every finished public game, a file a game type "
                                  "and month")
TAGS = (players, passkeys, games, seeks, push, table, clock, streams, profiles, friends,
        webhooks, tournaments, analysis, open_data)
