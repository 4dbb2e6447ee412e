"""Names other players see: 1-40 printable characters, nothing that hides or reorders text.

A name is NFC-normalised and trimmed. It may not hold control, format (so no
bidi override, isolate or invisible mark; the zero-width joiners that some
scripts and emoji need are kept), surrogate, private-use, unassigned or
line-separator characters, nor more than three combining marks on one
character (enough for any script, too few to smear text over its neighbours).
"""
from __future__ import annotations

import unicodedata

from marshmallow import ValidationError, fields, validate

MAX_LENGTH = 40
MAX_MARKS_PER_CHARACTER = 3
_JOINERS = {"\u200c", "\u200d"}
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_MARKS = {"Mn", "Mc", "Me"}


def clean_name(value: str) -> str:
    """The name as stored, or ValidationError saying what is wrong with it."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValidationError("name must not be blank")
    if len(name) > MAX_LENGTH:
        raise ValidationError(f"name may be at most {MAX_LENGTH} characters long")
    marks = 0
    for character in name:
        category = unicodedata.category(character)
        if category in _FORBIDDEN and character not in _JOINERS:
            raise ValidationError(f"name may not contain the character U+{ord(character):04X} "
                                  f"({unicodedata.name(character, category)})")
        marks = marks + 1 if category in _MARKS else 0
        if marks > MAX_MARKS_PER_CHARACTER:
            raise ValidationError(f"name may stack at most {MAX_MARKS_PER_CHARACTER} combining "
                                  "marks on one character")
    return name


class Name(fields.String):
    """A player's name, cleaned as `clean_name` says."""

    def __init__(self, **kwargs):
        # Checked by clean_name already; declared so that OpenAPI shows the bounds.
        super().__init__(validate=validate.Length(min=1, max=MAX_LENGTH), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return clean_name(super()._deserialize(value, attr, data, **kwargs))
