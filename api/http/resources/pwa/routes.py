"""Serves the PWA at the site root."""
from pathlib import Path

from flask import Blueprint, send_from_directory
from werkzeug.routing import PathConverter

PWA_DIR = Path(__file__).resolve().parents[4] / "pwa"
blp = Blueprint("pwa", __name__)


class ShellPath(PathConverter):
    """A path outside the API, so that an API path's 405 lists only the API's methods."""

    regex = r"(?!api/)[^/].*?"


blp.record_once(lambda state: state.app.url_map.converters.setdefault("shell", ShellPath))


@blp.route("/")
def index():
    return _send("index.html")


@blp.route("/<shell:path>")
def shell_file(path):
    return _send(path)


def _send(path: str):
    response = send_from_directory(PWA_DIR, path)
    if path == "sw.js":
        # The service worker must be re-checked on every load so new versions install.
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Service-Worker-Allowed"] = "/"
    return response

