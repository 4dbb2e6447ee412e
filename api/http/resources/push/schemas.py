import base64
import binascii
import re

from cryptography.hazmat.primitives.asymmetric import ec
from marshmallow import Schema, ValidationError, fields, validate

from api.http.destinations import destination
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


def _b64url_bytes(value: str) -> bytes:
    if not _BASE64URL.match(value):
        raise ValidationError("must be base64url (A-Z a-z 0-9 - _)")
    try:
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise ValidationError("must be base64url") from None


def _p256dh(value: str) -> None:
    raw = _b64url_bytes(value)
    if len(raw) != 65 or raw[0] != 4:
        raise ValidationError("must be an uncompressed P-256 public key: 65 bytes, base64url")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise ValidationError("is not a point on the P-256 curve") from None


def _auth(value: str) -> None:
    if len(_b64url_bytes(value)) != 16:
        raise ValidationError("must be a 16-byte secret, base64url")


class PushKeysSchema(Schema):
    p256dh = fields.String(required=True, validate=[validate.Length(max=100), _p256dh],
                           metadata={"description": "The browser's P-256 key, base64url"})
    auth = fields.String(required=True, validate=[validate.Length(max=40), _auth],
                         metadata={"description": "The 16-byte auth secret, base64url"})


class PushSubscriptionSchema(Schema):
    """As PushSubscription.toJSON() gives it."""
    endpoint = fields.Url(required=True, schemes={"http", "https"}, require_tld=False,
                          validate=[validate.Length(max=2048), destination(push=True)],
                          metadata={"example": "https://push.example.net/v1/abc"})
    expirationTime = fields.Float(allow_none=True, load_default=None,
                                  metadata={"description": "Ignored; browsers send null"})
    keys = fields.Nested(PushKeysSchema, required=True)


class SubscribeSchema(Schema):
    subscription = fields.Nested(PushSubscriptionSchema, required=True)


class SubscriptionCreatedSchema(Schema):
    id = fields.String(dump_only=True, metadata={
        "description": "For DELETE /api/v1/push/subscriptions/<id>"})


class VapidKeySchema(Schema):
    public_key = fields.String(dump_only=True, metadata={
        "description": "The VAPID public key: base64url uncompressed P-256 point, "
                       "for PushManager.subscribe's applicationServerKey"})
