"""Pairing a tournament's round, and scoring it: pure functions, no I/O.

Tables hold player ids; `BOT` marks a seat the house's bot fills when the players do not fill
every table. A round has ceil(n / size) tables whose player counts differ by at most one, the
fuller ones first, each topped up with bots to the table size: a bot's result counts for its
table (it takes a place) but the bot never ranks.

**Swiss.** Players are ordered by standing (`standing_order`). Tables are filled greedily from
the top: the best player not yet seated opens a table, which then takes, one at a time, the
first of the next `LOOK_AHEAD` unseated players (in standing order) who has met nobody at the
table in an earlier round, else the one of them with the fewest such meetings. Then a bounded
repair pass: for each pair of neighbouring tables, any swap of one player between them that
lowers the two tables' repeat meetings is made, at most `REPAIR_PASSES` times over the round.
So players meet those nearest in standing, and meet again only when the field (or the look-ahead)
leaves no other choice.

**Round robin** (groups of up to `ROUND_ROBIN_MOST`): with 2-player tables, the circle method:
every pair meets once, in n - 1 rounds (n even) or n rounds (n odd, each player meeting the bot
once in the round they would sit out). With larger tables no schedule makes every pair meet
equally often in general, so each round takes, among every way of splitting the group into that
round's tables (searched whole: at most a few thousand for 8 players), the one that keeps the
counts of meetings most even: the least sum over pairs of the square of their meetings so far.

**Scoring.** Placement points at a table of `size` seats: place p earns size - p (4 seats:
3/2/1/0); seats tied for a place share the points of the places they cover (two tied second of
four: (2 + 1) / 2 each). Standings: by points, then the sum of the points of every opponent met
(bots aside), then rating, then player id. Duplicate deals score matchpoints deal by deal, as
duplicate bridge scores its boards: in each deal, a seat earns 1 for each seat of the same number
at another table of the round (who held the same cards in that deal) whose score of the deal it
beat, and 1/2 for each it tied; a table whose game ended before a deal (or in the middle of it)
takes no part in that deal's comparisons. A seat's matchpoints of the round are the sum over its
deals.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

BOT = None           # a seat the house's bot takes
LOOK_AHEAD = 12      # unseated players a Swiss table looks through for one it has not met
REPAIR_PASSES = 8
WANDER_STEPS = 3000
ROUND_ROBIN_MOST = 8

Table = list  # player ids, BOT for the house's bot


def table_sizes(players: int, size: int) -> list[int]:
    """The players at each table of a round: ceil(players / size) tables, as even as may be,
    the fuller first."""
    if players <= 0:
        return []
    tables = -(-players // size)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def filled(players: Sequence[str], size: int) -> Table:
    return list(players) + [BOT] * (size - len(players))


@dataclass
class Record:
    """A player's results so far."""
    points: float = 0.0
    matchpoints: float = 0.0
    met: dict[str, int] = field(default_factory=dict)   # opponent -> times met
    rating: float = 0.0


def standing_key(player: str, records: Mapping[str, Record], by: str = "points"
                 ) -> tuple:
    """Sorts the better standing first: points (or matchpoints), the sum of opponents' points,
    rating, then the id."""
    own = records[player]
    score = own.matchpoints if by == "matchpoints" else own.points
    opponents = sum(getattr(records[other], "matchpoints" if by == "matchpoints" else "points")
                    * times for other, times in own.met.items() if other in records)
    return (-score, -opponents, -own.rating, player)


def standing_order(records: Mapping[str, Record], by: str = "points",
                   among: Iterable[str] | None = None) -> list[str]:
    players = list(records if among is None else among)
    return sorted(players, key=lambda player: standing_key(player, records, by))


def _repeats(table: Sequence[str], met: Mapping[str, Mapping[str, int]]) -> int:
    return sum(1 for a, b in itertools.combinations(table, 2) if met.get(a, {}).get(b))


def swiss_round(order: Sequence[str], size: int,
                met: Mapping[str, Mapping[str, int]]) -> list[Table]:
    """The tables of a Swiss round for players in standing order (see the module's note)."""
    waiting = list(order)
    tables: list[list[str]] = []
    for count in table_sizes(len(order), size):
        table = [waiting.pop(0)]
        while len(table) < count:
            window = waiting[:LOOK_AHEAD]
            costs = [sum(1 for seated in table if met.get(candidate, {}).get(seated))
                     for candidate in window]
            table.append(waiting.pop(costs.index(min(costs))))
        tables.append(table)
    _repair(tables, met)
    return [filled(table, size) for table in tables]


def _repair(tables: list[list[str]], met: Mapping[str, Mapping[str, int]]) -> None:
    """Swaps of one player between a table with repeat meetings and another (the nearest in
    standing first) that lower the two tables' repeats."""
    for _ in range(REPAIR_PASSES):
        improved = False
        for here, table in enumerate(tables):
            if not _repeats(table, met):
                continue
            others = sorted((there for there in range(len(tables)) if there != here),
                            key=lambda there: abs(there - here))
            for there in others:
                if _swap_better(table, tables[there], met):
                    improved = True
                    if not _repeats(table, met):
                        break
        if not improved:
            break
    _wander(tables, met)


def _wander(tables: list[list[str]], met: Mapping[str, Mapping[str, int]]) -> None:
    """Where repeats are left, a walk of at most `WANDER_STEPS` random swaps between a table
    with repeats and another, each kept unless it adds repeats (sideways steps leave the local
    minimum the repair stopped in); seeded by the tables, so a round pairs the same every time."""
    rng = random.Random(repr(tables))
    for _ in range(WANDER_STEPS):
        troubled = [table for table in tables if _repeats(table, met)]
        if not troubled or len(tables) < 2:
            return
        table = rng.choice(troubled)
        other = rng.choice([each for each in tables if each is not table])
        i, j = rng.randrange(len(table)), rng.randrange(len(other))
        cost = _repeats(table, met) + _repeats(other, met)
        table[i], other[j] = other[j], table[i]
        if _repeats(table, met) + _repeats(other, met) > cost:
            table[i], other[j] = other[j], table[i]


def _swap_better(upper: list[str], lower: list[str], met: Mapping[str, Mapping[str, int]]
                 ) -> bool:
    """Make the first swap between the tables that lowers their repeats, if any."""
    cost = _repeats(upper, met) + _repeats(lower, met)
    for i, j in itertools.product(range(len(upper)), range(len(lower))):
        upper[i], lower[j] = lower[j], upper[i]
        if _repeats(upper, met) + _repeats(lower, met) < cost:
            return True
        upper[i], lower[j] = lower[j], upper[i]
    return False


def round_robin(players: Sequence[str], size: int, rounds: int | None = None
                ) -> list[list[Table]]:
    """Every round's tables of a round robin (see the module's note); `rounds` for tables of
    more than two (default: the fewest in which each player could meet every other)."""
    if len(players) > ROUND_ROBIN_MOST:
        raise ValueError(f"a round robin is for groups of up to {ROUND_ROBIN_MOST}")
    if size == 2:
        return _circle(list(players))
    if rounds is None:
        rounds = max(1, -(-(len(players) - 1) // (size - 1)))
    met: dict[frozenset, int] = {}
    schedule = []
    for _ in range(rounds):
        best = min(_splits(list(players), table_sizes(len(players), size)),
                   key=lambda split: sum((met.get(frozenset(pair), 0) + 1) ** 2
                                         for table in split
                                         for pair in itertools.combinations(table, 2)))
        for table in best:
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        schedule.append([filled(table, size) for table in best])
    return schedule


def _circle(players: list) -> list[list[Table]]:
    if len(players) % 2:
        players = players + [BOT]
    count = len(players)
    schedule = []
    for turn in range(count - 1):
        rotated = [players[0]] + players[1:][turn:] + players[1:][:turn]
        pairs = [[rotated[i], rotated[count - 1 - i]] for i in range(count // 2)]
        schedule.append([pair if pair[0] is not BOT else pair[::-1] for pair in pairs])
    return schedule


def _splits(players: list[str], sizes: list[int]) -> Iterable[list[list[str]]]:
    """Every way of seating `players` at unlabelled tables of `sizes` (in order), the first
    player always at the first table of its size."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        left = [player for player in rest if player not in others]
        for split in _splits(left, sizes[1:]):
            yield [[first, *others], *split]


def table_points(places: Sequence[int]) -> list[float]:
    """Placement points of each seat from its place (1 best; ties share a place)."""
    size = len(places)
    points = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        covered = range(place, place + tied)
        points.append(sum(size - p for p in covered) / tied)
    return points


def places_of(scores: Sequence[float], lower_wins: bool, last: Iterable[int] = ()) -> list[int]:
    """Each seat's place, from 1, by score; seats in `last` (resigned) share the last place."""
    last = set(last)
    keys = [None if seat in last else (score if lower_wins else -score)
            for seat, score in enumerate(scores)]
    playing = [key for key in keys if key is not None]
    return [1 + (len(playing) if key is None else sum(other < key for other in playing))
            for key in keys]


def matchpoints(deals_by_table: Sequence[Sequence[Sequence[float] | None]], seats: int,
                lower_wins: bool) -> list[list[float]]:
    """Each seat's matchpoints of the round, from each table's scores of each deal it played
    (`deals_by_table[table][deal][seat]`; None for a deal not played to its end): every deal
    compared with the same deal and seat at every other table (same size, same deals)."""
    result = []
    for table, deals in enumerate(deals_by_table):
        row = [0.0] * seats
        for deal, scores in enumerate(deals):
            if scores is None:
                continue
            for other, other_deals in enumerate(deals_by_table):
                if other == table or deal >= len(other_deals) or other_deals[deal] is None:
                    continue
                for seat, score in enumerate(scores):
                    theirs = other_deals[deal][seat]
                    if theirs == score:
                        row[seat] += 0.5
                    elif (score < theirs) == lower_wins:
                        row[seat] += 1.0
        result.append(row)
    return result
