"""The games this installation plays: every entry point of the group `poyta.games`.

A game joins by registering its `rules.base.Game` in its distribution's metadata, as this
project's pyproject.toml does for its own games:

    [project.entry-points."poyta.games"]
    sixnimmt = "rules.sixnimmt:GAME"

Everything else (the API's contract and domain, the workers, the benches, the tests) reads
`rules.GAMES`, built from them once per process.
"""
from __future__ import annotations

import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Iterable

from rules.base import Game

GROUP = "poyta.games"
# The order games are listed in. Installed metadata keeps entry points sorted by name, so it
# cannot carry the order the first four games have always had; every other game follows
# them by name.
LISTED_FIRST = ("sixnimmt", "sixtysix", "sticheln", "hattrick")


RULES_DIR = Path(__file__).resolve().parent


def package_dir(game: Game) -> Path:
    """The folder of the module that defines the game's class: where a plug-in keeps its rules
    page and its app folder (`pwa/`)."""
    return Path(sys.modules[type(game).__module__].__file__).resolve().parent


def built_in(game: Game) -> bool:
    """One of this project's own games, whose pages live in seeds/ and pwa/games/."""
    return package_dir(game).is_relative_to(RULES_DIR)


class RegistryError(RuntimeError):
    """The registered games cannot be played together; the message says which and why."""


def installed_games() -> dict[str, Game]:
    games = build_registry(entry_points(group=GROUP))
    if not games:  # the project's metadata predates its entry points
        raise RegistryError(f"no game is installed (no entry point in {GROUP!r}): install "
                            "the project again, e.g. pip install -e .")
    return games


def build_registry(found: Iterable[EntryPoint]) -> dict[str, Game]:
    """The games of these entry points, by name, in listing order."""
    entries: dict[str, EntryPoint] = {}
    for entry in found:
        if entry.name in entries:
            raise RegistryError(f"two games are registered as {entry.name!r}: "
                                f"{_origin(entries[entry.name])} and {_origin(entry)}")
        entries[entry.name] = entry
    return {name: _load(entries[name]) for name in sorted(entries, key=_listing_place)}


def _listing_place(name: str) -> tuple[int, str]:
    return (LISTED_FIRST.index(name) if name in LISTED_FIRST else len(LISTED_FIRST), name)


def _load(entry: EntryPoint) -> Game:
    try:
        game = entry.load()
    except Exception as error:  # any import failure: name the game that brought it
        raise RegistryError(f"the game registered as {entry.name!r} by {_origin(entry)} "
                            f"does not load: {error!r}") from error
    if not isinstance(game, Game):
        raise RegistryError(f"the game registered as {entry.name!r} by {_origin(entry)} is "
                            f"a {type(game).__name__}, not a rules.base.Game")
    if game.name != entry.name:
        raise RegistryError(f"the game registered as {entry.name!r} by {_origin(entry)} "
                            f"calls itself {game.name!r}: the two names must be the same")
    return game


def _origin(entry: EntryPoint) -> str:
    """Where an entry point comes from, for messages: its value and its distribution."""
    return f"{entry.value} ({entry.dist.name})" if entry.dist else entry.value
