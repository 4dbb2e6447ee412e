"""The interactive API docs at /api/docs/, served offline from the flask-swagger-ui wheel.

The page and its start script are ours, so that no script is inline and the
strict Content-Security-Policy holds here as everywhere.
"""
from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Flask, send_from_directory

PAGE_DIR = Path(__file__).resolve().parent / "docs_page"
SWAGGER_DIR = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
blp = Blueprint("api_docs", __name__, url_prefix="/api/docs")


@blp.route("/")
def page():
    return send_from_directory(PAGE_DIR, "index.html")


@blp.route("/start.js")
def start_script():
    return send_from_directory(PAGE_DIR, "start.js")


@blp.route("/<path:path>")
def swagger_file(path):
    return send_from_directory(SWAGGER_DIR, path)


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)
