"""flask-smorest's Blueprint with each schema's own `unknown` for the query string too.

webargs leaves out unknown query parameters by default while a JSON body's unknown fields are
refused; every route's schemas keep marshmallow's RAISE, so `?wiat=30` is a 422 that names the
parameter instead of a request that silently does something else.
"""
from __future__ import annotations

import flask_smorest
from webargs.flaskparser import FlaskParser


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = FlaskParser(unknown=None)
