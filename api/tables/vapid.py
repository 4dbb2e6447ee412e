"""The server's VAPID key pair for Web Push: made once, kept in the store, shared by every process."""
from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from api.storage.store import Store


def private_key(store: Store) -> ec.EllipticCurvePrivateKey:
    return serialization.load_pem_private_key(store.vapid_pem(_fresh_pem), password=None)


def public_key(store: Store) -> str:
    """The public key as PushManager.subscribe's applicationServerKey wants it:
    the uncompressed P-256 point (65 bytes), base64url without padding."""
    point = private_key(store).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _fresh_pem() -> bytes:
    return ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
