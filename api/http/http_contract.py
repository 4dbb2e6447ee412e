"""What the contract says of every operation, whatever its resource: the error statuses it
can answer, each in the one error shape with its `reason` (`api.http.errors`) and 429 and 503
with `Retry-After`; 415 for a body not sent as JSON and 422 for an unknown query parameter
(`api.http.strict_input`), `Location` on a 201, the `ETag` on every answer that is a game view
(`api.http.conditional`), and `Idempotency-Key` on every POST (`api.http.idempotency`)."""
from __future__ import annotations

from api.http.errors import REASONS

GAME_VIEW = "GameView"
ETAG_HEADER = {"description": "The view's ETag, as getGame gives it: send it back as "
                              "If-None-Match", "schema": {"type": "string"}}
LOCATION_HEADER = {"description": "Where what was made is found", "schema": {"type": "string"}}
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Your own unique key (a UUID): a retry with the same key and body within "
                   "24 hours answers the first answer again (`Idempotent-Replayed: true`) and "
                   "applies nothing twice; the same key with another request is 422"}
# flask-smorest's error responses, by name: apispec publishes those an operation names.
UNSUPPORTED_MEDIA_TYPE, UNPROCESSABLE = "UNSUPPORTED_MEDIA_TYPE", "UNPROCESSABLE_ENTITY"
UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT = "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"
BAD_REQUEST, TOO_LARGE = "BAD_REQUEST", "REQUEST_ENTITY_TOO_LARGE"
URI_TOO_LONG, PRECONDITION_FAILED = "REQUEST_URI_TOO_LONG", "PRECONDITION_FAILED"
JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}
RETRY_LATER = {  # ours: with Retry-After
    "RATE_LIMITED": "A budget or quota is spent (reason `rate_limited`)",
    "UNAVAILABLE": "The game store does not answer right now (reason `unavailable`)",
}
WRITES = {"post", "put", "patch", "delete"}


def error_responses() -> dict[str, dict]:
    return {name: {"description": description,
                   "headers": {"Retry-After": {"description": "Seconds to wait before trying "
                                                             "again", "schema": {"type": "integer"}}},
                   "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for name, description in RETRY_LATER.items()}


def error_schema(definition: dict) -> None:
    """flask-smorest's Error with what this API adds to it."""
    definition["properties"]["reason"] = {
        "type": "string", "enum": list(REASONS),
        "description": "Why, for a program: " + "; ".join(
            f"`{name}`: {meaning}" for name, meaning in REASONS.items())}
    definition["properties"]["current_version"] = {
        "type": "integer", "description": "With `stale_version`: the game's version now"}
    definition["required"] = ["code", "status", "message", "reason"]


def document(path: str, method: str, operation: dict) -> None:
    responses = operation["responses"]
    if method == "post":
        operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
    if any("bearer" in requirement for requirement in operation.get("security", [])):
        responses.setdefault(401, UNAUTHORIZED)
    if "{game_id}" in path or "{code}" in path:
        responses.setdefault(403, FORBIDDEN)
    if "{" in path:
        responses.setdefault(404, NOT_FOUND)
    if method in WRITES:
        responses.setdefault(409, CONFLICT)
    if any(parameter.get("name") == "Last-Event-ID"
           for parameter in operation.get("parameters", [])):
        responses.setdefault(400, BAD_REQUEST)  # one that no stream gave
    responses.setdefault(414, URI_TOO_LONG)  # `api.http.request_bounds`, and gunicorn's own
    responses.setdefault(429, "RATE_LIMITED")
    responses.setdefault(503, "UNAVAILABLE")
    if "requestBody" in operation:
        responses[415] = UNSUPPORTED_MEDIA_TYPE
        responses.setdefault(400, BAD_REQUEST)  # not JSON, too deep, a lone surrogate
        responses.setdefault(413, TOO_LARGE)
    responses.setdefault(422, UNPROCESSABLE)
    if isinstance(responses.get(201), dict):
        responses[201].setdefault("headers", {})["Location"] = LOCATION_HEADER
    for status in (200, 201):
        answer = responses.get(status)
        if isinstance(answer, dict) and answer.get("content", {}).get(
                "application/json", {}).get("schema") in (
                    GAME_VIEW, {"$ref": f"#/components/schemas/{GAME_VIEW}"}):
            answer.setdefault("headers", {})["ETag"] = ETAG_HEADER


def typed_constants(tree):
    """Every `const` and `enum` with its `type` beside it: a generator that meets a bare
    `const` in a union takes it for the only choice and never tries the next member."""
    if isinstance(tree, dict):
        values = [tree["const"]] if "const" in tree else tree.get("enum")
        if isinstance(values, list) and "type" not in tree:
            kinds = {JSON_TYPES.get(type(value)) for value in values}
            if len(kinds) == 1 and None not in kinds:
                tree["type"] = kinds.pop()
        for value in tree.values():
            typed_constants(value)
    elif isinstance(tree, list):
        for value in tree:
            typed_constants(value)
    return tree


def titled_nullables(tree):
    """What is an object, an enum or a list of objects, or null, named after its property, so
    that a generated client calls it `HattrickTableLastTrick`, not `HattrickTableLastTrickType0`."""
    if isinstance(tree, dict):
        for name, schema in (tree.get("properties") or {}).items():
            if isinstance(schema, dict):
                _title(schema, "".join(part.capitalize() for part in name.split("_")))
        for value in tree.values():
            titled_nullables(value)
    elif isinstance(tree, list):
        for value in tree:
            titled_nullables(value)
    return tree


def _title(schema: dict, title: str) -> None:
    kinds = schema.get("type")
    members = [member for member in schema.get("anyOf") or schema.get("oneOf") or []
               if member != {"type": "null"}]
    if not members or isinstance(kinds, list) and "null" in kinds:
        members = [schema]
    if len(members) != 1 or "title" in members[0]:
        return
    named, kind = members[0], members[0].get("type")
    kind = [k for k in kind if k != "null"] if isinstance(kind, list) else [kind]
    nullable = named is not schema or kind != named.get("type")
    if nullable and (kind == ["object"] or "enum" in named):
        named["title"] = title
    elif kind == ["array"] and isinstance(named.get("items"), dict):
        items = named["items"]
        if nullable and "title" not in items and (items.get("type") == "object"
                                                  or "enum" in items):
            items["title"] = f"{title}Item"
        else:
            _title(items, f"{title}Item")
