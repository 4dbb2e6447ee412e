"""What happened in a game: its events as the caller may know them, a page at a time, and once
it is over its record (the seed, the deals as dealt, every action) and a replay of any step
with every hand.

Access: the events follow the game's watch rule; the record and the replay wait for the end
(of a duplicate-deal tournament game, the end of its round: `api.tables.tournaments`), and of a
private game are shown only to its players.

Once Redis has let a finished game go (its hot window after archiving), all of this is read
from the archive (`api.tables.archive`), with the same answers and versions.

A finished game's log never changes: each process keeps the logs it unpacked last (up to
`LOG_CACHE_BYTES`), so reading a long game's events, record or replay again costs neither the
transfer of its packed log nor its unpacking, and a reader that holds the answer already
needs only the game's version (`finished_version`) to be told so.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from cachetools import LRUCache

from api.storage.packed_logs import FinishedLog, finished_log
from api.tables.archive import Archive
from api.tables.errors import Forbidden, NotFound, no_game
from api.tables.games import Games
from api.tables.model import FINISHED, Player, StoredGame
from api.tables.tournament_model import round_state
from api.tables.views import Watching

LOG_CACHE_BYTES = 64 * 1024 * 1024
EVENTS_PAGE = 1000          # events in an answer unless asked otherwise: a whole game at the
                            # default options (700 at most in 10-player 6 nimmt! or 8 Sticheln)
MAX_EVENTS_PAGE = 2000


def replayed(stored: StoredGame, actions: list[dict], recording: bool = False) -> dict:
    """The game's state after `actions`, replayed from its seed."""
    game, meta = stored.game, stored.meta
    state = game.new_game(meta.players, meta.options, stored.state["seed"], recording)
    for entry in actions:
        game.apply_action(state, entry["seat"], entry["action"])
    return state


@dataclass(frozen=True)
class EventsPage:
    body: dict              # {"type", "events", "last", "next"}
    finished: bool          # the game is over: the answer never changes
    version: int
    seat: int | None        # the caller's: what the page shows depends on it


def _chapters(stored: StoredGame, actions: list[dict]) -> tuple[list[dict], list[dict]]:
    """Where a replay can jump to, in one pass over the actions: the step at which each deal
    (or round) begins, and the step at which each trick (in 6 nimmt! each turn) of a deal
    begins, before its first card, as the game's `trick_number` counts them."""
    game, meta = stored.game, stored.meta
    state = game.new_game(meta.players, meta.options, stored.state["seed"])
    deal, trick = game.view(state, None)["deal"], game.trick_number(state)
    chapters = [{"deal": deal, "step": 0}]
    tricks = [] if trick is None else [{"deal": deal, "trick": trick, "step": 0}]
    for step, entry in enumerate(actions, start=1):
        game.apply_action(state, entry["seat"], entry["action"])
        now, number = game.view(state, None)["deal"], game.trick_number(state)
        if now != deal:
            chapters.append({"deal": now, "step": step})
            trick = None
        if number is not None and (number, now) != (trick, deal):
            tricks.append({"deal": now, "trick": number, "step": step})
        deal, trick = now, number if number is not None else trick
    return chapters, tricks


class History:
    def __init__(self, games: Games, watching: Watching, archive: Archive):
        self.games = games
        self.archive = archive
        self.watching = watching
        self.store = games.storage.games
        self._logs: LRUCache[str, FinishedLog] = LRUCache(LOG_CACHE_BYTES,
                                                          getsizeof=lambda log: log.size)
        self._logs_lock = threading.Lock()

    def _held(self, game_id: str) -> FinishedLog | None:
        with self._logs_lock:
            return self._logs.get(game_id)

    def _hold(self, game_id: str, log: FinishedLog) -> FinishedLog:
        with self._logs_lock:
            if log.size <= LOG_CACHE_BYTES:
                self._logs[game_id] = log
        return log

    def _finished_log(self, game_id: str, version: int) -> FinishedLog:
        held = self._held(game_id)
        if held is not None and held.version == version:
            return held
        log = self.store.log(game_id, version)
        if log is None:
            found = self.archive.find(game_id)
            if found is None or found.version != version:
                raise no_game(game_id)
            log = finished_log(version, found.log)
        return self._hold(game_id, log)

    def events(self, game_id: str, player: Player | None, after: int,
               limit: int = EVENTS_PAGE) -> EventsPage:
        """Up to `limit` events after number `after` that the caller may see, read at one
        instant: `last` is the number the answer reaches (a reader that goes on from it never
        skips one), `next` the same while newer events are already there, else None."""
        held = self._held(game_id)
        found = (self.store.events(game_id, player and player.id, after, limit,
                                   held and held.version)
                 or self.archive.events(game_id, player and player.id, held and held.version))
        if found is None:
            raise no_game(game_id)
        self.watching.may_watch(game_id, player, found.seat, found.public)
        after = max(after, 0)
        if found.finished:
            log = self._hold(game_id, found.log) if found.log else held
            page, count = log.events[after:after + limit], len(log.events)
        else:
            page, count = found.events, found.count
        visible = []
        for number, event in enumerate(page, start=after + 1):
            audience = event.get("to")
            if audience is None or found.seat in audience:
                visible.append({"number": number,
                                **{key: value for key, value in event.items() if key != "to"}})
        reached = after + len(page)
        more = reached < count
        return EventsPage({"type": found.type, "events": visible,
                           "last": reached if more else count, "next": reached if more else None},
                          found.finished, found.version, found.seat)

    def finished_version(self, game_id: str, player: Player | None, replay: bool = False
                         ) -> tuple[int, bool]:
        """The version and visibility of a finished game whose record (or replay) the caller
        may see, read without its JSON."""
        refusal = REPLAY_WAITS if replay else RECORD_WAITS
        head = (self.store.head(game_id, player and player.id)
                or self.archive.head(game_id, player and player.id))
        if head is None:
            raise no_game(game_id)
        if head.status == FINISHED and not head.public and head.seat is None:
            raise Forbidden("this game is private: only its players may see its record")
        if head.status != FINISHED:
            raise Forbidden(refusal)
        return head.version, head.public

    def _finished(self, game_id: str, player: Player | None, refusal: str) -> StoredGame:
        stored = self.games.find(game_id) or self.archive.game(game_id)
        if stored is None:
            raise no_game(game_id)
        if (stored.status() == FINISHED and not stored.meta.public
                and stored.seat_of(player.id if player else None) is None):
            raise Forbidden("this game is private: only its players may see its record")
        if stored.status() != FINISHED:
            raise Forbidden(refusal)
        if stored.meta.tournament:
            over, seed = round_state(self.games.storage, stored.meta.tournament)
            if seed is not None and not over:
                raise Forbidden(ROUND_WAITS)
        return stored

    def finished_actions(self, stored: StoredGame) -> list[dict]:
        """Every action of a finished game, {"seat", "action"} each, in order."""
        return self._finished_log(stored.id, stored.version).actions

    def _tournament(self, stored: StoredGame) -> dict:
        """A tournament's game: its tournament, round and table, and a duplicate round's seed
        once the round is over."""
        tournament = stored.meta.tournament
        if not tournament:
            return {}
        over, seed = round_state(self.games.storage, tournament)
        return {"tournament": {"id": tournament["id"], "round": tournament["round"],
                               "table": tournament["table"], "round_seed": seed if over else None}}

    def record(self, game_id: str, player: Player | None) -> dict:
        stored = self._finished(game_id, player, RECORD_WAITS)
        actions = self._finished_log(game_id, stored.version).actions
        return {
            "id": game_id,
            "type": stored.game.name,
            "players": stored.meta.players,
            "options": stored.meta.options,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot}
                      for i, s in enumerate(stored.seats)],
            **stored.game.record(replayed(stored, actions, recording=True)),
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in actions],
            **dict(zip(("chapters", "trick_chapters"), _chapters(stored, actions))),
            "outcome": stored.outcome(),
            **self._tournament(stored),
        }

    def replay(self, game_id: str, player: Player | None, step: int) -> dict:
        """A finished game after its first `step` actions, every hand shown."""
        stored = self._finished(game_id, player, REPLAY_WAITS)
        actions = self._finished_log(game_id, stored.version).actions
        if not 0 <= step <= len(actions):
            raise NotFound(f"this game has steps 0 to {len(actions)}")
        game = stored.game
        state = replayed(stored, actions[:step])
        seen = game.view(state, None)
        last = actions[step - 1] if step else None
        return {
            "step": step, "steps": len(actions),
            "seat": last and last["seat"], "action": last and last["action"],
            "hands": [game.view(state, seat)["hand"] for seat in range(stored.meta.players)],
            "view": {"type": game.name, "title": game.title, "phase": seen["phase"],
                     "deal": seen["deal"], "scores": seen["scores"], "table": seen["table"],
                     "seats": [{"seat": i, "name": s.name, "bot": s.bot}
                               for i, s in enumerate(stored.seats)]},
        }


RECORD_WAITS = "the record is published when the game is over"
# A duplicate round's games hold the same cards: none shows its hands until every one is over.
ROUND_WAITS = "the record of a duplicate-deal game is published when its round is over"
REPLAY_WAITS = "a game can be replayed when it is over"
