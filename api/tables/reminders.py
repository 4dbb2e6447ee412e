"""Reminders before a move's time runs out, and the daily digest: notices beside "your turn"
(`api.tables.notices` sends them, once each, on the notices queue).

A turn's reminders (`api.tables.turns.reminders`: at 80% of its time used, and an hour before
its deadline) are queued by the sweeper when their time comes and sent by push and to the
game's webhook. A reminder is dropped rather than sent late: when the turn is over or re-timed
past it, when the deadline has passed, or when its player's waking window has closed. Like
every notice it is retried a few times when a target fails for now, never more.

The digest goes at the player's chosen hour on their wall clock, listing the games where it is
their move; a day with none, or on vacation, sends nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from api import outbound
from api.tables import turns
from api.tables.games import Games
from api.tables.model import Player
from api.tables.notices import Notice, Notices
from api.tables.player_clock import PlayerClocks, next_digest
from api.tables.views import Watching
from api.tables.waking import zone_info

DIGESTS_PER_SWEEP = 200


def spoken(seconds: float) -> str:
    """'4 h' or '25 min' of waking time."""
    minutes = max(1, round(seconds / 60))
    return f"{round(minutes / 60)} h" if minutes >= 60 else f"{minutes} min"


@dataclass(frozen=True)
class Reminder(Notice):
    left: float = 0.0   # seconds of waking time left to move

    def push_payload(self) -> str:
        return json.dumps({"title": "Your move is waiting",
                           "body": f"{self.title}: {spoken(self.left)} of your time left",
                           "url": f"/#/game/{self.game_id}", "game": self.game_id})

    def webhook_body(self) -> dict:
        left = f"{spoken(self.left)} left for your move in {self.title}: {self.link}"
        return {"content": f"{outbound.discord_text(self.name)}, {left}",
                "text": f"{outbound.slack_text(self.name)}, {left}", "username": "Pöytä",
                "allowed_mentions": {"parse": []}}


@dataclass(frozen=True)
class Digest(Notice):
    waiting: tuple[str, ...] = ()   # the titles of the games waiting for the player's move

    def topic(self) -> str:
        return "digest"

    def push_payload(self) -> str:
        count = len(self.waiting)
        games = "1 game waits" if count == 1 else f"{count} games wait"
        return json.dumps({"title": "Your daily digest",
                           "body": f"{games} for your move: {', '.join(self.waiting)}",
                           "url": "/#/", "game": None})


class Reminders:
    def __init__(self, games: Games, notices: Notices, clocks: PlayerClocks, watching: Watching):
        self.games = games
        self.notices = notices
        self.clocks = clocks
        self.watching = watching

    def remind(self, game_id: str, seat: int, turn_since: int, kind: str) -> int:
        """Remind the player of `seat` that their turn begun at `turn_since` runs out; the
        notices sent (0: not due, no longer wanted, or sent already)."""
        stored = self.games.find(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return 0
        entry = stored.seats[seat]
        due = turns.reminders(entry).get(kind)
        now = self.games.clock.now()
        if (due is None or entry.turn_since != turn_since or seat not in stored.to_act()
                or stored.played_by_bot(seat) or entry.player_id is None
                or not due <= now < entry.deadline or not turns.waking(entry).is_awake(now)):
            return 0
        notice = Reminder(game_id=game_id, seat=seat, player_id=entry.player_id,
                          name=entry.name or "Player", title=stored.game.title,
                          link=f"{self.notices.settings.public_url}/#/game/{game_id}",
                          left=turns.waking(entry).awake(now, entry.deadline))
        return self.notices.deliver(notice, ("reminder", game_id, seat, turn_since, kind),
                                    self.notices.targets(entry.player_id, stored.meta.webhook))

    def sweep_digests(self, limit: int = DIGESTS_PER_SWEEP) -> int:
        """Queue the digests whose hour has come, and each player's next; the players seen."""
        now = self.games.clock.now()
        digests = self.games.storage.digests
        due = digests.due(now, limit)
        for player_id in due:
            clock = self.clocks.get_clock(player_id)
            day = datetime.fromtimestamp(now, zone_info(clock.zone)).date().isoformat()
            if clock.digest_hour is not None and not clock.on_vacation(now):
                self.games.jobs.send_digest(player_id, day)
            digests.schedule(player_id, next_digest(clock, now))
        return len(due)

    def send_digest(self, player_id: str, day: str) -> int:
        waiting = tuple(line["title"] for line in self.watching.inbox(Player(player_id, "", False))
                        if line["your_turn"])
        if not waiting:
            return 0
        notice = Digest(game_id="", seat=-1, player_id=player_id, name="", title="",
                        link=f"{self.notices.settings.public_url}/#/", waiting=waiting)
        return self.notices.deliver(notice, ("digest", player_id, day),
                                    self.notices.targets(player_id, None))
