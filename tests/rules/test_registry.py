"""The registry of games: every `poyta.games` entry point, checked, in a stable order."""
import tomllib
from importlib import import_module
from importlib.metadata import EntryPoint, PathDistribution, distribution
from pathlib import Path

import pytest

from rules import GAMES
from rules.registry import GROUP, RegistryError, build_registry, installed_games

from tests.plugin_game.install import HIGHCARD, install_distribution

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def declared_games() -> dict[str, str]:
    with open(PYPROJECT, "rb") as project:
        return tomllib.load(project)["project"]["entry-points"][GROUP]


def project_entries() -> list[EntryPoint]:
    return list(distribution("poyta").entry_points.select(group=GROUP))


def plugin_entries(where: Path, name: str, games: dict[str, str]) -> list[EntryPoint]:
    info = install_distribution(where, name, games)
    return list(PathDistribution(info).entry_points.select(group=GROUP))


def test_the_games_pyproject_registers_come_first_in_the_order_it_lists_them():
    declared = declared_games()
    assert list(GAMES)[:len(declared)] == list(declared)
    plugins = list(GAMES)[len(declared):]  # any installed beside the project
    assert plugins == sorted(plugins)
    for name, value in declared.items():
        module, _, attribute = value.partition(":")
        assert GAMES[name] is getattr(import_module(module), attribute)


def test_plugins_installed_beside_the_project_follow_its_games_by_name(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(HIGHCARD.parent))
    (tmp_path / "poyta_acecard.py").write_text(
        "import dataclasses\nfrom poyta_highcard import GAME as HIGH\n"
        "GAME = dataclasses.replace(HIGH, name='acecard')\n")
    install_distribution(tmp_path, "poyta-highcard", {"highcard": "poyta_highcard:GAME"})
    install_distribution(tmp_path, "poyta-acecard", {"acecard": "poyta_acecard:GAME"})
    monkeypatch.syspath_prepend(str(tmp_path))
    games = installed_games()
    assert list(games) == [*declared_games(), "acecard", "highcard"]
    assert games["highcard"] is import_module("poyta_highcard").GAME
    assert games["acecard"].title == "High card"


def test_a_name_registered_twice_is_refused_naming_both(tmp_path):
    rival = plugin_entries(tmp_path, "poyta-rival", {"sixnimmt": "rules.sixnimmt:GAME"})
    with pytest.raises(RegistryError, match=r"two games are registered as 'sixnimmt': "
                       r"rules\.sixnimmt:GAME \(poyta\) and rules\.sixnimmt:GAME "
                       r"\(poyta-rival\)"):
        build_registry([*project_entries(), *rival])


def test_a_name_other_than_the_games_own_is_refused(tmp_path):
    renamed = plugin_entries(tmp_path, "poyta-renamed", {"six": "rules.sixnimmt:GAME"})
    with pytest.raises(RegistryError, match=r"registered as 'six' by rules\.sixnimmt:GAME "
                                            r"\(poyta-renamed\) calls itself 'sixnimmt'"):
        build_registry(renamed)


@pytest.mark.parametrize("value, reason", [
    ("rules.base:DEALT", r"is a str, not a rules\.base\.Game"),
    ("rules.no_such_game:GAME", r"does not load: ModuleNotFoundError"),
    ("rules.sixnimmt:NO_SUCH_GAME", r"does not load: AttributeError"),
])
def test_an_entry_that_is_no_game_is_refused_with_its_reason(value, reason):
    with pytest.raises(RegistryError, match=rf"registered as 'broken' by {value}.* {reason}"):
        build_registry([EntryPoint("broken", value, GROUP)])


def test_metadata_older_than_the_entry_points_is_refused_with_the_cure(tmp_path, monkeypatch):
    """The project's metadata as an install from before the entry points left it, found
    first on the path: it hides the current metadata, and so every game."""
    stale = install_distribution(tmp_path, "poyta", {})
    (stale / "entry_points.txt").unlink()
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match=r"no game is installed .*install the project"):
        installed_games()
    assert build_registry([]) == {}
