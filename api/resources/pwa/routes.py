"""Serves the PWA at the site root."""
from pathlib import Path

from flask import Blueprint, abort, send_from_directory

PWA_DIR = Path(__file__).resolve().parents[3] / "pwa"
blp = Blueprint("pwa", __name__)


@blp.route("/")
def index():
    return _send("index.html")


@blp.route("/<path:path>")
def shell_file(path):
    if path.startswith("api/"):
        abort(404)
    return _send(path)


def _send(path: str):
    response = send_from_directory(PWA_DIR, path)
    if path == "sw.js":
        # The service worker must be re-checked on every load so new versions install.
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Service-Worker-Allowed"] = "/"
    return response

