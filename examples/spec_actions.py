"""Every game's actions as Markdown, read from a Pöytä server's OpenAPI document.

    python examples/spec_actions.py http://127.0.0.1:8000/api/openapi.json
    python examples/spec_actions.py openapi.json

The guide's action tables (README.md) are this script's output, so they say what the
spec says. Needs only the standard library.
"""
from __future__ import annotations

import json
import sys
import urllib.request

REF = "#/components/schemas/"


def load(source: str) -> dict:
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as answer:
            return json.load(answer)
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def describe_field(schema: dict, cards: set) -> str:
    if "$ref" in schema:
        cards.add(schema["$ref"].removeprefix(REF))
        return f"`{schema['$ref'].removeprefix(REF)}`"
    if schema.get("type") == "array":
        count = schema["minItems"] if schema["minItems"] == schema["maxItems"] else (
            f"{schema['minItems']}-{schema['maxItems']}")
        return f"list of {count} {describe_field(schema['items'], cards)}"
    if "enum" in schema:
        return " / ".join(f"`{value}`" for value in schema["enum"])
    return f"whole number {schema['minimum']}-{schema['maximum']}"


def card_line(name: str, card: dict) -> str:
    spelled = (f"pattern `{card['pattern']}`" if "pattern" in card
               else f"{card['minimum']} to {card['maximum']}")
    return (f"- `{name}`: {card['description']}; {spelled}, "
            f"e.g. `{json.dumps(card['examples'][0])}`")


def markdown(spec: dict) -> str:
    schemas = spec["components"]["schemas"]
    lines = []
    for game, view_ref in schemas["GameView"]["discriminator"]["mapping"].items():
        view = schemas[view_ref.removeprefix(REF)]
        union = schemas[view["properties"]["legal_actions"]["items"]["$ref"].removeprefix(REF)]
        lines += [f"#### `{game}`: {union['description']}", "",
                  "| action | fields | what it does |", "| --- | --- | --- |"]
        cards: set = set()
        for kind, ref in union["discriminator"]["mapping"].items():
            action = schemas[ref.removeprefix(REF)]
            fields = [f"`{name}`{'' if name in action['required'] else ' (optional)'}: "
                      f"{describe_field(field, cards)}"
                      for name, field in action["properties"].items() if name != "type"]
            example = json.dumps(action["examples"][0])
            lines.append(f"| `{kind}` | {'<br>'.join(fields) or '-'} | "
                         f"{action['description']}. `{example}` |")
        lines += ["", *(card_line(name, schemas[name]) for name in sorted(cards)), ""]
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown(load(sys.argv[1] if len(sys.argv) > 1 else
                                  "http://127.0.0.1:8000/api/openapi.json")))
