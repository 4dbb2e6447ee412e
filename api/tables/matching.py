"""Pairing seeks into tables: a pure function of the open seeks of one pool, the time, and who
blocks whom; no I/O, so it is property-tested and benchmarked alone (`bench/matchmaking.py`).

The oldest seek goes first. For each of its game types (in the order it names them) and each of
its paces, it gathers the other open seeks that would sit with it, oldest first: the same game
type and pace, options that agree ("any" agrees with every choice), player counts that still
overlap, each one's rating window holding everybody else's rating at that type, and no block
either way. A table starts when it holds the largest count all its seekers accept, or at least
the smallest once the first seeker has waited `grace` seconds; a seeker who asked for bot fill
and has waited its time starts a table with the seekers who accept bots too, bots taking the
seats up to the smallest count. Each player sits at one table a round at most.

Pairs who sat together in their recent tables are kept apart first; only when no table would
start that way does a second pass allow them ("where the pool allows").
"""
from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Mapping

# Candidates one gathering looks at: a pool full of seeks that never agree with the oldest one
# (narrow rating windows, a count nobody else accepts) costs each round a bounded time.
MAX_SCAN = 64


@dataclass(frozen=True)
class BotFill:
    level: str
    after: float          # seconds the seek waits before bots take the empty seats


@dataclass(frozen=True)
class Seek:
    id: str
    player: str
    created: float
    choices: Mapping[str, str | None]   # game type: its options as canonical JSON, None: any
    fewest: int
    most: int
    paces: tuple[str, ...]
    rated: bool = True
    ratings: Mapping[str, float] = field(default_factory=dict)  # game type: ordinal
    window: float | None = None         # the ordinals it accepts around its own
    bot_fill: BotFill | None = None

    def rating(self, game_type: str) -> float:
        return self.ratings.get(game_type, 0.0)


@dataclass(frozen=True)
class Table:
    id: str                   # derived from its seeks: creating its game twice makes one game
    seeks: tuple[str, ...]    # oldest first
    players: tuple[str, ...]  # in the same order
    game_type: str
    options: str | None       # canonical JSON, None: the game's defaults
    pace: str
    rated: bool
    bots: int = 0
    bot_level: str | None = None

    @property
    def seats(self) -> int:
        return len(self.players) + self.bots


@dataclass(frozen=True)
class Pool:
    """What pairing reads beside the seeks."""
    sizes: Mapping[str, tuple[int, int]]            # game type: fewest and most players
    grace: float                                    # seconds before the smallest count starts
    blocks: Mapping[str, frozenset[str]] = field(default_factory=dict)    # who blocks whom
    partners: Mapping[str, frozenset[str]] = field(default_factory=dict)  # recent tablemates


def table_id(seek_ids: list[str] | tuple[str, ...]) -> str:
    digest = hashlib.sha256(",".join(sorted(seek_ids)).encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


def pair(seeks: list[Seek], now: float, pool: Pool) -> list[Table]:
    ordered = sorted(seeks, key=lambda seek: (seek.created, seek.id))
    # Each (type, pace) holds its seeks oldest first; a seated player's seeks leave every one,
    # so a gathering never walks past the seated.
    buckets: dict[tuple[str, str], dict[str, Seek]] = defaultdict(dict)
    by_player: dict[str, list[Seek]] = defaultdict(list)
    for seek in ordered:
        by_player[seek.player].append(seek)
        for game_type in seek.choices:
            for pace in seek.paces:
                buckets[(game_type, pace)][seek.id] = seek
    seated: set[str] = set()
    tables = []
    for anchor in ordered:
        if anchor.player in seated:
            continue
        table = _table_for(anchor, now, pool, buckets, seated)
        if table is not None:
            seated.update(table.players)
            tables.append(table)
            for player in table.players:
                for seek in by_player[player]:
                    for game_type in seek.choices:
                        for pace in seek.paces:
                            buckets[(game_type, pace)].pop(seek.id, None)
    return tables


def _table_for(anchor: Seek, now: float, pool: Pool, buckets: dict, seated: set[str]
               ) -> Table | None:
    waited = now - anchor.created
    for game_type in anchor.choices:
        if game_type not in pool.sizes:
            continue
        for pace in anchor.paces:
            group, kept_apart = _gather(anchor, game_type, pace, pool, buckets[(game_type, pace)],
                                        seated, apart=True)
            table = _start(group, game_type, pace, waited, pool)
            if table is None and kept_apart:
                group, _ = _gather(anchor, game_type, pace, pool, buckets[(game_type, pace)],
                                   seated, apart=False)
                table = _start(group, game_type, pace, waited, pool)
            if table is not None:
                return table
    return None


def _bounds(members: list[Seek], game_type: str, pool: Pool) -> tuple[int, int]:
    fewest, most = pool.sizes[game_type]
    return (max([fewest] + [seek.fewest for seek in members]),
            min([most] + [seek.most for seek in members]))


def _gather(anchor: Seek, game_type: str, pace: str, pool: Pool, bucket: dict[str, Seek],
            seated: set[str], apart: bool) -> tuple[list[Seek], bool]:
    """The seeks that would sit with the anchor, oldest first; and whether one was left out
    only for having sat with a member lately."""
    members = [anchor]
    fewest, most = _bounds(members, game_type, pool)
    if fewest > most:
        return [], False
    options = anchor.choices[game_type]
    players = {anchor.player}
    kept_apart = False
    looked = 0
    for candidate in bucket.values():
        if len(members) >= most or looked >= MAX_SCAN:
            break
        if candidate.player in seated or candidate.player in players:
            continue
        looked += 1
        theirs = candidate.choices[game_type]
        if candidate.rated != anchor.rated or (options and theirs and theirs != options):
            continue
        low, high = max(fewest, candidate.fewest), min(most, candidate.most)
        if low > high or not all(_agree(member, candidate, game_type, pool) for member in members):
            continue
        if apart and any(_sat_together(member, candidate, pool) for member in members):
            kept_apart = True
            continue
        members.append(candidate)
        players.add(candidate.player)
        fewest, most, options = low, high, options or theirs
    return members, kept_apart


def _agree(one: Seek, other: Seek, game_type: str, pool: Pool) -> bool:
    if one.player in pool.blocks.get(other.player, ()) or other.player in pool.blocks.get(
            one.player, ()):
        return False
    gap = abs(one.rating(game_type) - other.rating(game_type))
    return ((one.window is None or gap <= one.window)
            and (other.window is None or gap <= other.window))


def _sat_together(one: Seek, other: Seek, pool: Pool) -> bool:
    return (other.player in pool.partners.get(one.player, ())
            or one.player in pool.partners.get(other.player, ()))


def _start(members: list[Seek], game_type: str, pace: str, waited: float, pool: Pool
           ) -> Table | None:
    if not members:
        return None
    anchor = members[0]
    fewest, most = _bounds(members, game_type, pool)
    if len(members) == most or (len(members) >= fewest and waited >= pool.grace):
        return _table(members, game_type, pace, 0, None)
    if anchor.bot_fill is not None and waited >= anchor.bot_fill.after:
        fillers = [seek for seek in members if seek.bot_fill is not None]
        fewest, _ = _bounds(fillers, game_type, pool)
        return _table(fillers, game_type, pace, max(0, fewest - len(fillers)),
                      anchor.bot_fill.level)
    return None


def _table(members: list[Seek], game_type: str, pace: str, bots: int, level: str | None
           ) -> Table:
    seek_ids = tuple(seek.id for seek in members)
    options = next((seek.choices[game_type] for seek in members if seek.choices[game_type]),
                   None)
    return Table(table_id(seek_ids), seek_ids, tuple(seek.player for seek in members),
                 game_type, options, pace, members[0].rated, bots, level if bots else None)
