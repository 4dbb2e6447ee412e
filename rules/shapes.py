"""The vocabulary in which games describe what they show: their view's table and their
events, as JSON Schema. Pure data; the HTTP API publishes it per game, and the tests
check every view and event against it. A game's shapes are its one description of its
table and events: every field carries a description.

A card is written `card` (or `cards`) here and becomes a reference to the game's own
card format when published."""
from __future__ import annotations

from typing import Any

Shape = dict[str, Any]

CARD: Shape = {"$ref": "card"}  # replaced by the game's card format
INT: Shape = {"type": "integer"}
STR: Shape = {"type": "string"}
BOOL: Shape = {"type": "boolean"}
SEAT: Shape = {"type": "integer", "minimum": 0}


def described(shape: Shape, description: str) -> Shape:
    return {**shape, "description": description}


def nullable(shape: Shape, description: str = "") -> Shape:
    """The shape, or null."""
    if isinstance(shape.get("type"), str) and not {"$ref", "enum", "const"} & set(shape):
        made = {**shape, "type": [shape["type"], "null"]}
    else:
        made = {"anyOf": [shape, {"type": "null"}]}
    return described(made, description) if description else made


def array(items: Shape, description: str = "") -> Shape:
    made = {"type": "array", "items": items}
    return described(made, description) if description else made


def per_seat(items: Shape, description: str) -> Shape:
    return array(items, description + " (one entry per seat)")


def choice(*values: str, description: str = "") -> Shape:
    made = {"type": "string", "enum": list(values)}
    return described(made, description) if description else made


def record(description: str = "", optional: tuple[str, ...] = (), **properties: Shape) -> Shape:
    """An object with these properties, all present unless named in `optional`."""
    made: Shape = {"type": "object", "properties": properties,
                   "required": [name for name in properties if name not in optional]}
    return described(made, description) if description else made


def mapping(values: Shape, keys: tuple[str, ...], description: str) -> Shape:
    """An object keyed by some of `keys` (e.g. colours), each holding `values`."""
    return {"type": "object", "description": description,
            "propertyNames": {"enum": list(keys)}, "additionalProperties": values}


def event(type_: str, description: str, private: bool = False, optional: tuple[str, ...] = (),
          **properties: Shape) -> Shape:
    """One event type: `private` events reach only the seats they are meant for."""
    if private:
        description += " Sent only to the seat it concerns."
    return record(description, optional, type={"const": type_}, **properties)


SEAT_CARD: Shape = record(seat=described(SEAT, "the seat"), card=described(CARD, "its card"))
SEATS: Shape = array(SEAT)
SCORES: Shape = array(INT)
