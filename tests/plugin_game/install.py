"""Installs game plug-ins the way pip leaves them: a package beside a `<name>-<version>.dist-info`
folder whose entry points register the games."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from rules.registry import GROUP

HIGHCARD = Path(__file__).resolve().parent / "poyta_highcard"


def install_distribution(where: Path, name: str, games: dict[str, str],
                         packages: tuple[Path, ...] = ()) -> Path:
    """A distribution `name` in the folder `where` (to put on the path), registering `games`
    (name -> "module:attribute"), with copies of `packages`; returns its dist-info folder."""
    # As a wheel spells it: importlib.metadata reads the name up to the first hyphen.
    info = where / f"{re.sub(r'[-_.]+', '_', name)}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{GROUP}]\n" + "".join(f"{game} = {value}\n" for game, value in games.items()))
    for package in packages:
        shutil.copytree(package, where / package.name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return info
