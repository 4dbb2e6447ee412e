"""flask-smorest's Blueprint with each schema's own `unknown` for the query string too, and
operations that say whether they read one.

webargs leaves out unknown query parameters by default while a JSON body's unknown fields are
refused; every route's schemas keep marshmallow's RAISE, so `?wiat=30` is a 422 that names the
parameter instead of a request that silently does something else. An operation without a query
schema is marked so `api.http.strict_input` refuses every parameter sent to it.
"""
from __future__ import annotations

import flask_smorest
from webargs.flaskparser import FlaskParser


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = FlaskParser(unknown=None)

    def arguments(self, schema, *, location: str = "json", **kwargs):
        decorator = super().arguments(schema, location=location, **kwargs)
        if location != "query":
            return decorator

        def reading_query(operation):
            wrapped = decorator(operation)
            wrapped.reads_query = True  # wrappers above copy it (functools.wraps)
            return wrapped
        return reading_query
