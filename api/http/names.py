"""Names other people see: 1-40 characters of one line that shows, checked by the same rule as
table talk (`api.tables.text`), and not looking like a bot's seat."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from api.tables import text

MAX_LENGTH = 40


def clean_name(value: str) -> str:
    """The name as stored, or ValidationError saying what is wrong with it."""
    try:
        name = text.shown_text(value, "name", MAX_LENGTH)
        text.refuse_bot_lookalike(name)
    except text.Refused as refused:
        raise ValidationError(str(refused)) from None
    return name


class Name(fields.String):
    """A player's name, cleaned as `clean_name` says."""

    def __init__(self, **kwargs):
        # Checked by clean_name already; declared so that OpenAPI shows the bounds.
        super().__init__(validate=validate.Length(min=1, max=MAX_LENGTH), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return clean_name(super()._deserialize(value, attr, data, **kwargs))
