"""Serves the PWA at the site root: the shell from pwa/ (the PWA_DIR setting), each registered
game's folder at /games/<type>/, and the service worker, whose precache list and cache version
are made from those files."""
import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request, send_from_directory
from werkzeug.routing import PathConverter

from rules import GAMES
from rules.registry import built_in, package_dir

PWA_DIR = Path(__file__).resolve().parents[4] / "pwa"
WORKER = "sw.js"
blp = Blueprint("pwa", __name__)


class ShellPath(PathConverter):
    """A path outside the API, so that an API path's 405 lists only the API's methods."""

    regex = r"(?!api/)[^/].*?"


blp.record_once(lambda state: state.app.url_map.converters.setdefault("shell", ShellPath))


@blp.route("/")
def index():
    return send_from_directory(_shell_dir(), "index.html")


@blp.route(f"/{WORKER}")
def service_worker():
    script, version = _site()["worker"]
    response = Response(script, mimetype="text/javascript")
    response.set_etag(version)
    # The service worker must be re-checked on every load so new versions install.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response.make_conditional(request)


@blp.route("/games/<name>/<path:path>")
def game_file(name, path):
    folder = _site()["games"].get(name)
    if folder is None:
        abort(404)
    return send_from_directory(folder, path)


@blp.route("/<shell:path>")
def shell_file(path):
    return send_from_directory(_shell_dir(), path)


def game_folders(shell_dir: Path) -> dict[str, Path]:
    """The PWA folder of each registered game that has one: pwa/games/<type>/ for the games of
    this project's rules package, the pwa/ folder in its own package for a plug-in's game."""
    folders = {}
    for name, game in GAMES.items():
        folder = shell_dir / "games" / name if built_in(game) else package_dir(game) / "pwa"
        if folder.is_dir():
            folders[name] = folder
    return folders


def precached_files(shell_dir: Path, games: dict[str, Path]) -> list[tuple[str, Path]]:
    """(URL, file) of everything the app needs offline: the shell (all of the PWA's folder but
    the worker and the games) and every file of each game's folder."""
    files = [("/", shell_dir / "index.html")]
    files += [(f"/{path.relative_to(shell_dir).as_posix()}", path) for path in _files_in(shell_dir)
              if path.relative_to(shell_dir).parts[0] not in (WORKER, "games")]
    for name, folder in sorted(games.items()):
        files += [(f"/games/{name}/{path.relative_to(folder).as_posix()}", path) for path in _files_in(folder)]
    return files


def worker_script(shell_dir: Path, games: dict[str, Path]) -> tuple[str, str]:
    """The service worker with its precache list in front, and its cache version: a digest of
    every listed URL and file and of the worker itself, so any change installs a new shell."""
    files = precached_files(shell_dir, games)
    worker = (shell_dir / WORKER).read_bytes()
    digest = hashlib.sha256()
    for url, content in [(url, path.read_bytes()) for url, path in files] + [(f"/{WORKER}", worker)]:
        digest.update(f"{url}\0{len(content)}\0".encode())
        digest.update(content)
    version = f"poyta-shell-{digest.hexdigest()[:20]}"
    head = (f"const CACHE_VERSION = {json.dumps(version)};\n"
            f"const SHELL = {json.dumps([url for url, _ in files], indent=2)};\n")
    return head + worker.decode(), version


def _files_in(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


def _shell_dir() -> Path:
    return Path(current_app.config.get("PWA_DIR", PWA_DIR))


def _site() -> dict:
    """The game folders and the worker, found once per app: reading and hashing every file of the
    app on each request would cost more than answering it."""
    site = current_app.extensions.get("pwa")
    if site is None:
        shell_dir = _shell_dir()
        games = game_folders(shell_dir)
        site = current_app.extensions["pwa"] = {"games": games, "worker": worker_script(shell_dir, games)}
    return site
