"""A fuzzer of its own over the served spec, for `bench.fuzz --engine spec`: many requests a
second in this process (Flask's test client, no hypothesis), every one of them drawn from an
operation of the spec.

Each request picks an operation at random, then fills it as a client who knows the API would,
with a share of it broken:

- path parameters: mostly ids this run has seen (its players' games, players, seeks,
  tournaments, invite and friend codes, devices, passkeys, push subscriptions: every `id`,
  `code` and `*_id` of the answers so far), else a value drawn from the parameter's schema,
  else garbage (empty, too long, unicode, `..`, a number);
- query parameters and bodies: drawn from their schemas (`$ref`s followed, enums, bounds,
  required properties and some optional ones), then, one time in three, broken: a property
  dropped or of the wrong type, an unknown one added, a number past its bound, a string too long,
  deep nesting, a body that is not JSON or not an object;
- a move: one time in two, one of the seat's legal actions at the game's version (read just
  before), so that games are played and finished as well as poked;
- authentication: a real player's token (each player seated in games in progress) nine times in
  ten, no token or a broken one otherwise; headers now and then (`If-Match`, `If-None-Match`,
  `Idempotency-Key`, a wrong `Content-Type`).
"""
from __future__ import annotations

import json
import random
import re
import string
from urllib.parse import quote

GARBAGE = ["", "0", "-1", "99999999999999999999", "..", "%2e%2e", "a" * 300, "ö€😀", "null",
           "true", "{}", "[]", " ", "x" * 5000, "\u202e", "<script>", "' OR 1=1 --"]
ID_KEYS = re.compile(r"(^id$|_id$|^code$|^token$)")


class SpecFuzzer:
    def __init__(self, spec: dict, rng: random.Random, skip_path: re.Pattern,
                 seen: dict[str, list[str]]):
        self.spec, self.rng = spec, rng
        # A path's own parameters (its item's `parameters`) count for each of its operations.
        self.operations = [
            (method.upper(), path, {**operation, "parameters": [
                *methods.get("parameters", ()), *operation.get("parameters", ())]})
            for path, methods in spec["paths"].items() if not skip_path.search(path)
            for method, operation in methods.items()
            if isinstance(operation, dict) and "operationId" in operation]
        self.seen = seen

    # --- what the answers told ----------------------------------------------------------------
    def remember(self, body) -> None:
        """Every id-like value of an answer, by its key, for later path parameters."""
        stack = [body]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                for key, value in item.items():
                    if isinstance(value, str) and ID_KEYS.search(key) and len(value) < 100:
                        found = self.seen.setdefault(key, [])
                        if value not in found:
                            found.append(value)
                            del found[:-200]
                    elif isinstance(value, (dict, list)):
                        stack.append(value)
            elif isinstance(item, list):
                stack.extend(item[:50])

    def known(self, name: str) -> list[str]:
        exact = self.seen.get(name, [])
        if name.endswith("_id") and not exact:
            return self.seen.get("id", [])
        return exact

    # --- drawing values ---------------------------------------------------------------------
    def resolve(self, schema: dict) -> dict:
        while isinstance(schema, dict) and "$ref" in schema:
            node = self.spec
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def value(self, schema: dict, depth: int = 0):
        schema = self.resolve(schema or {})
        rng = self.rng
        for combined in ("oneOf", "anyOf"):
            if combined in schema:
                return self.value(rng.choice(schema[combined]), depth + 1)
        if "allOf" in schema:
            merged = {}
            for part in schema["allOf"]:
                part = self.value(part, depth + 1)
                if isinstance(part, dict):
                    merged.update(part)
            return merged
        if "enum" in schema:
            return rng.choice(schema["enum"])
        if "const" in schema:
            return schema["const"]
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = rng.choice(kind)
        if kind == "object" or "properties" in schema:
            if depth > 6:
                return {}
            required = set(schema.get("required", ()))
            out = {}
            for name, sub in schema.get("properties", {}).items():
                if self.resolve(sub).get("readOnly"):
                    continue
                if name in required or rng.random() < 0.5:
                    known = self.known(name)
                    out[name] = (rng.choice(known) if known and rng.random() < 0.7
                                 else self.value(sub, depth + 1))
            return out
        if kind == "array":
            low = schema.get("minItems", 0)
            high = min(schema.get("maxItems", low + 3), low + 5)
            return [self.value(schema.get("items", {}), depth + 1)
                    for _ in range(rng.randint(low, max(low, high)))]
        if kind == "integer" or kind == "number":
            low = schema.get("minimum", -5 if "maximum" in schema else 0)
            high = schema.get("maximum", low + 100)
            number = rng.randint(int(low), int(high))
            return number if kind == "integer" or rng.random() < 0.5 else number + 0.5
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "string":
            if schema.get("format") == "date-time":
                return "2026-12-07T12:00:00Z"
            if schema.get("format") == "date":
                return "2026-12-07"
            if schema.get("format") in ("uri", "url"):
                return rng.choice(["https://example.com/hook", "http://127.0.0.1/x",
                                   "https://[::1]/", "ftp://x"])
            low = schema.get("minLength", 1)
            high = min(schema.get("maxLength", low + 12), low + 40)
            return "".join(rng.choice(string.ascii_letters + string.digits + "äö -")
                           for _ in range(rng.randint(low, max(low, high))))
        return rng.choice([None, 1, "x", {}, []])

    def broken(self, value):
        """A value made wrong in one of the ways a careless or hostile client would."""
        rng = self.rng
        if isinstance(value, dict) and value and rng.random() < 0.5:
            value = dict(value)
            name = rng.choice(list(value))
            choice = rng.random()
            if choice < 0.3:
                del value[name]
            elif choice < 0.6:
                value[name] = self.wrong(value[name])
            else:
                value[name] = self.broken(value[name])
            return value
        if isinstance(value, dict) and rng.random() < 0.3:
            return {**value, rng.choice(["extra", "__proto__", "seed", "deck"]): rng.choice(
                [1, "x", None, {"a": 1}])}
        return self.wrong(value)

    def wrong(self, value):
        rng = self.rng
        options = [None, "", "x" * 3000, -1, 2 ** 63, 1e308, -0.0, True, [], {}, [value],
                   {"a": value}, "ö€😀\u0000", 10 ** 40]
        nested = []
        for _ in range(rng.choice((20, 200))):
            nested = [nested]
        options.append(nested)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            options += [value + 10 ** 6, -value - 10 ** 6, str(value)]
        if isinstance(value, str):
            options += [value * 200, value.upper(), 7]
        return rng.choice(options)

    # --- one request --------------------------------------------------------------------------
    def request(self, players: list[dict]) -> dict:
        """One request as keyword arguments of the test client's `open`, plus its operation."""
        rng = self.rng
        method, path, operation = rng.choice(self.operations)
        player = rng.choice(players)
        headers = {}
        draw = rng.random()
        if draw < 0.9:
            headers["Authorization"] = f"Bearer {player['token']}"
        elif draw < 0.95:
            headers["Authorization"] = rng.choice(["Bearer ", "Bearer x.y.z", "Basic Zm9vOmJhcg==",
                                                   f"Bearer {player['token']}x"])
        url, query = path, {}
        for parameter in operation.get("parameters", ()):
            parameter = self.resolve(parameter)
            name, where = parameter["name"], parameter["in"]
            schema = parameter.get("schema", {})
            if where == "path":
                if name == "game_id" and player["games"] and rng.random() < 0.8:
                    text = rng.choice(player["games"])
                elif self.known(name) and rng.random() < 0.8:
                    text = rng.choice(self.known(name))
                elif rng.random() < 0.5:
                    text = str(self.value(schema))
                else:
                    text = rng.choice(GARBAGE)
                url = url.replace("{" + name + "}", quote(str(text), safe="") or "%20")
            elif where == "query" and (parameter.get("required") or rng.random() < 0.5):
                value = self.value(schema)
                query[name] = self.wrong(value) if rng.random() < 0.2 else value
            elif where == "header" and rng.random() < 0.3:
                headers[name] = rng.choice(['"x"', "*", "W/\"1\"", "abc", str(self.value(schema))])
        if rng.random() < 0.1:
            headers["Idempotency-Key"] = rng.choice(["k1", "k2", str(rng.random()), "x" * 300])
        kwargs = {"method": method, "path": url, "headers": headers,
                  "query_string": {key: value if isinstance(value, (str, int, float)) else
                                   json.dumps(value) for key, value in query.items()}}
        body = operation.get("requestBody")
        if body and method in ("POST", "PUT", "PATCH"):
            content = body.get("content", {})
            schema = content.get("application/json", {}).get("schema", {})
            value = self.value(schema)
            draw = rng.random()
            if draw < 0.3:
                value = self.broken(value)
            if draw > 0.97:
                kwargs["data"] = rng.choice([b"{", b"\xff\xfe", b"[1,2", b"null", b"1e99999"])
                kwargs["headers"]["Content-Type"] = "application/json"
            elif draw > 0.95:
                kwargs["data"] = json.dumps(value)
                kwargs["headers"]["Content-Type"] = rng.choice(["text/plain",
                                                                "application/x-www-form-urlencoded"])
            else:
                kwargs["json"] = value
        return {"operation": f"{method} {path}", "kwargs": kwargs}
