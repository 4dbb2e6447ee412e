"""What N active games take, in cores and bytes, from named measured figures and named
assumptions about use: every number of the table follows from the two lists below.

    python -m bench.sizing [--games 10000 100000 1000000] [--set NAME=VALUE ...]

`MEASURED` holds each figure with the bench command that measures it and where it was recorded;
a bench that measures one again passes it in (`bench.scale` passes its own run's), and `--set`
tries another value (`--set bot_cpu.hard=0.15`). `ASSUMED` is what no bench can measure: how
people play. The cores: API processes (gevent, one core each), bot workers, one core per Redis
shard (Redis runs commands on one thread) and PostgreSQL's.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str
    source: str  # the command that measures it, and where and when it was recorded


# Re-measure one and change its value here (with its source); `bench.scale` overrides the ones
# its run measures. The write path's figures (actions_per_core, redis_commands_per_action) and
# the bots' (bot_cpu.*) are the ones issue 54's other parts change.
MEASURED: dict[str, Figure] = {
    # API processes: the write path
    "actions_per_core": Figure(
        1_270, "accepted actions a second, one process on one core",
        "`python -m bench.storage --parts throughput`: 1,395/s over 2 gevent workers on the "
        "2 cores at f1178dc (wrk on the same cores, so a lower bound), times 1.83, the action's "
        "CPU a request before and after its fast path in one run (`python -m bench.request_split "
        "--baseline`: 2,371 -> 1,299 µs, at 124cb5d, load average 12-17)"),
    "action_commit_cpu": Figure(
        0.000358, "CPU-s of a commit in a bot worker (Service.act, the view, its JSON)",
        "`python -m bench.request_cpu` at f1178dc"),
    # API processes: the connections the online players hold
    "connections_per_process": Figure(
        10_000, "idle streams one process holds, under 1 GB",
        "`python -m bench.streams`: 10,000 open, none refused, RSS 0.48-0.56 GB, at 0c153c0 "
        "(load average 10)"),
    "connection_cpu": Figure(
        20e-6, "CPU-s a held stream costs its process a second (heartbeat: slot renewal, "
        "token recheck)", "`python -m bench.streams`, idle: 19-20% of a core at 10,000, at "
        "0c153c0 and 5be3911 (29 µs at 3,000, load average 16)"),
    "wake_cpu": Figure(
        0.001, "CPU-s a woken stream costs its process (the look at the player's games)",
        "`python -m bench.streams`, loaded less idle, over the wakes carried: 0.90-0.98 ms at "
        "400 and 3,000 streams, at 5be3911"),
    # bot workers: CPU a move at the default budgets (rules.search.DEFAULT_BUDGETS)
    "bot_cpu.easy": Figure(
        0.0002, "CPU-s an easy move", "`python -m bench.scale` (/metrics), at be5b101"),
    "bot_cpu.medium": Figure(
        0.0263, "CPU-s a medium move at its default budget (a settled search stops early)",
        "`python -m bench.bot_cpu --positions 40 --agreement`: 22.9-29.6 ms over the four "
        "games, mean 26.3, at 1c39618 (load average 16-18)"),
    "bot_cpu.hard": Figure(
        0.0996, "CPU-s a hard move at its default budget (a settled search stops early)",
        "`python -m bench.bot_cpu --positions 40 --agreement`: 62.4-123.7 ms over the four "
        "games, mean 99.6, at 1c39618 (load average 16-18)"),
    # Redis
    "redis_bytes_in_play": Figure(
        28_345, "bytes a game in play (players, inboxes, ratings included)",
        "`python -m bench.archive`, halfway through 4-player games, at b8dc3c8"),
    "redis_bytes_hot": Figure(
        11_720, "bytes a finished game, archived, in the hot window", "`python -m bench.archive` at b8dc3c8"),
    "redis_bytes_after": Figure(
        1_195, "bytes a finished game after the hot window (its players' side)",
        "`python -m bench.archive` at b8dc3c8"),
    "redis_commands_per_action": Figure(
        4, "Redis commands an accepted action sends, the rate limiter's included",
        "tests/api/test_storage_commands.py and `python -m bench.storage --parts commands` at "
        "124cb5d: 3 with no bot next, 5 with one (half the actions here)"),
    "redis_commands_per_connection": Figure(
        0.69, "Redis commands a held stream sends a second (its heartbeat's two scripts)",
        "`python -m bench.streams`, idle: 0.52-0.69 at 10,000, at 0c153c0 and 5be3911"),
    "redis_commands_per_wake": Figure(
        12.4, "Redis commands a woken stream's look sends (and the line's own script)",
        "`python -m bench.streams`, loaded less idle: 10.7-12.4, at 5be3911"),
    "redis_cpu_per_command": Figure(
        6e-6, "CPU-s of Redis a command (scripts' inner calls counted as commands)",
        "`python -m bench.streams`: Redis's used_cpu over its total_commands_processed, idle "
        "at 10,000 streams: 5.8-5.9 µs, at 0c153c0 and 5be3911"),
    # PostgreSQL
    "postgres_bytes_finished": Figure(
        7_239, "bytes a finished game (tables, indexes, TOAST)", "`python -m bench.archive` at b8dc3c8"),
    "archive_seconds": Figure(
        0.0189, "seconds to archive a game, one thread (Redis, PostgreSQL and Python: an upper "
        "bound of PostgreSQL's CPU)", "`python -m bench.archive` at 39b67c6"),
}

# How people play: no bench measures these. Change one and say why.
ASSUMED: dict[str, tuple[float | dict, str]] = {
    "humans_per_game": (1.5, "bench.scale's tables: 1.5 humans and 1.5 bots a game"),
    "bots_per_game": (1.5, "as above"),
    "human_actions_per_game_hour": (12, "asynchronous play at the busiest hour"),
    "online_share": (0.2, ("humans with the app open at that hour, each holding one connection "
                           "(a stream, or the PWA's long-poll, which costs less: one 304 poll "
                           "each 25 s)")),
    "streams_woken_per_action": (0.3, ("each move wakes the connections of its game's online "
                                       "humans: 1.5 x 0.2")),
    "game_days": (3, "a game lasts 3 days: 10 finished kept a game over a 30-day retention"),
    "retention_days": (30, "POYTA_RETENTION_DAYS: a finished game's players' side in Redis"),
    "hot_days": (3, "POYTA_HOT_DAYS's default: a finished game whole in Redis, then archived"),
    "level_mix": ({"easy": 0.7, "medium": 0.25, "hard": 0.05}, "the bots' levels, by moves"),
    "utilisation": (0.5, "API processes, workers and Redis shards sized for half load"),
    "shard_bytes": (8e9, "usable memory a Redis shard (half of a 16 GB node)"),
    "postgres_cores": (2, ("a primary and a standby, a core each: the archive's writes need a "
                           "fraction of one (archive_seconds); the inbox's reads of archived "
                           "games are not measured")),
}


def figures(overrides: dict[str, float] | None = None) -> dict[str, float]:
    values = {name: figure.value for name, figure in MEASURED.items()}
    unknown = set(overrides or {}) - set(values)
    if unknown:
        raise KeyError(f"not a measured figure: {', '.join(sorted(unknown))}")
    return {**values, **(overrides or {})}


def size(games: int, m: dict[str, float]) -> dict[str, float]:
    """The cores and bytes `games` active games take, each part from the figures it needs."""
    a = {name: value for name, (value, _) in ASSUMED.items()}
    util = a["utilisation"]
    human_moves = games * a["human_actions_per_game_hour"] / 3600
    bot_moves = human_moves * a["bots_per_game"] / a["humans_per_game"]
    connections = games * a["humans_per_game"] * a["online_share"]
    wakes = (human_moves + bot_moves) * a["streams_woken_per_action"]
    api_cpu = (human_moves / m["actions_per_core"] + connections * m["connection_cpu"]
               + wakes * m["wake_cpu"])
    api = max(2, math.ceil(api_cpu / util), math.ceil(connections / m["connections_per_process"]))
    bot_move_cpu = sum(share * m[f"bot_cpu.{level}"] for level, share in a["level_mix"].items())
    workers = max(2, math.ceil(bot_moves * (bot_move_cpu + m["action_commit_cpu"]) / util))
    finished_a_day = games / a["game_days"]
    redis_bytes = games * m["redis_bytes_in_play"] + finished_a_day * (
        a["hot_days"] * m["redis_bytes_hot"]
        + (a["retention_days"] - a["hot_days"]) * m["redis_bytes_after"])
    commands = ((human_moves + bot_moves) * m["redis_commands_per_action"]
                + connections * m["redis_commands_per_connection"]
                + wakes * m["redis_commands_per_wake"])
    redis_cpu = commands * m["redis_cpu_per_command"]
    by_memory = math.ceil(redis_bytes / a["shard_bytes"])
    shards = max(1, by_memory, math.ceil(redis_cpu / util))
    archive_cpu = finished_a_day / 86400 * m["archive_seconds"]
    postgres = max(a["postgres_cores"], math.ceil(archive_cpu / util))
    return {"games": games, "connections": connections, "human_moves": human_moves,
            "bot_moves": bot_moves, "wakes": wakes, "api": api, "api_cpu": api_cpu,
            "bot_move_cpu": bot_move_cpu, "workers": workers, "redis_bytes": redis_bytes,
            "commands": commands, "redis_cpu": redis_cpu, "shards": shards,
            "shards_by": "memory" if shards == by_memory else "CPU",
            "postgres": postgres,
            "postgres_month": finished_a_day * 30 * m["postgres_bytes_finished"],
            "cores": api + workers + shards + postgres}


def bot_cpu_to_fit(games: int, m: dict[str, float], cores: int) -> float:
    """The mean bot CPU a move at which `games` take `cores` in all, the rest as measured."""
    s = size(games, m)
    room = cores - (s["cores"] - s["workers"])
    return room * ASSUMED["utilisation"][0] / s["bot_moves"] - m["action_commit_cpu"]


def table(games: list[int], m: dict[str, float]) -> list[str]:
    lines = [("| active games | connections | moves/s (human + bot) "
              "| API processes (CPU at full load) | bot workers (CPU-s a move) "
              "| Redis (shards by) | PostgreSQL (a month's growth) | **total cores** |"),
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for count in games:
        s = size(count, m)
        lines.append(
            f"| {count:,} | {s['connections']:,.0f} | {s['human_moves']:,.0f} + "
            f"{s['bot_moves']:,.0f} | {s['api']} ({s['api_cpu']:.1f}) | {s['workers']} "
            f"({s['bot_move_cpu']:.4f}) | {s['redis_bytes'] / 1e9:.1f} GB, "
            f"{s['commands']:,.0f} commands/s: {s['shards']} ({s['shards_by']}) "
            f"| {s['postgres']} ({s['postgres_month'] / 1e9:.0f} GB) | **{s['cores']}** |")
    return lines


def shown(value) -> str:
    if isinstance(value, (int, float)) and value >= 1 and value == int(value):
        return f"{int(value):,}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def inputs(m: dict[str, float]) -> list[str]:
    lines = ["| measured | value | what | from |", "| --- | --- | --- | --- |"]
    for name, figure in MEASURED.items():
        changed = "" if m[name] == figure.value else f" (recorded: {shown(figure.value)})"
        lines.append(f"| `{name}` | {shown(m[name])}{changed} | {figure.unit} | {figure.source} |")
    lines += ["", "| assumed | value | why |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {shown(value)} | {why} |" for name, (value, why) in ASSUMED.items()]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--cores", type=int, default=150, help="the budget of the largest size")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a measured figure's value for this table")
    args = parser.parse_args()
    m = figures({name: float(value) for name, value in
                 (setting.split("=", 1) for setting in args.set)})
    print("\n".join(inputs(m)))
    print()
    print("\n".join(table(args.games, m)))
    print()
    print(fit(max(args.games), m, args.cores))


def fit(games: int, m: dict[str, float], cores: int) -> str:
    s = size(games, m)
    fits = bot_cpu_to_fit(games, m, cores)
    return (f"{games:,} active games take {s['cores']} cores ({s['api']} API, {s['workers']} bot "
            f"workers, {s['shards']} Redis, {s['postgres']} PostgreSQL) against {cores}: "
            + ("within." if s["cores"] <= cores else
               f"they fit when a bot move costs at most {fits:.4f} CPU-s on average "
               f"(now {s['bot_move_cpu']:.4f}, {fits / s['bot_move_cpu']:.2f}x)."))


if __name__ == "__main__":
    main()
