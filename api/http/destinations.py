"""A URL given for the server to send to (a webhook, a push endpoint) is checked when it is
given, under the process's outbound policy (`api.settings`), as `api.outbound` checks it again
before each request."""
from __future__ import annotations

from marshmallow import ValidationError

from api import outbound
from api.http.auth import tables


def destination(push: bool = False):
    """A marshmallow validator: the URL is one the server may send to."""
    def validate(url: str) -> None:
        try:
            outbound.check_url(url, tables().settings.outbound, push=push)
        except outbound.Refused as error:
            raise ValidationError(str(error)) from None
    return validate
