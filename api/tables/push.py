"""Web Push subscriptions of a player's browsers, and the server's VAPID key pair: made once,
kept in the store, shared by every process."""
from __future__ import annotations

import base64
import hashlib
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from api.storage.push import PushStore
from api.tables.errors import NotFound, Unprocessable
from api.tables.model import Player

MAX_SUBSCRIPTIONS = 20   # push subscriptions per player


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _fresh_pem() -> bytes:
    return ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())


class Push:
    def __init__(self, store: PushStore):
        self.store = store

    def private_key(self) -> ec.EllipticCurvePrivateKey:
        return serialization.load_pem_private_key(self.store.vapid_pem(_fresh_pem), password=None)

    def public_key(self) -> str:
        """The public key as PushManager.subscribe's applicationServerKey wants it:
        the uncompressed P-256 point (65 bytes), base64url without padding."""
        point = self.private_key().public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return b64url(point)

    def subscribe(self, player: Player, subscription: dict) -> str:
        """Store (or renew) a browser's subscription for a player; returns its id.

        An endpoint belongs to one player at a time: when another player signs in on the same
        browser and subscribes, the previous player stops getting notices on it.
        """
        sub_id = hashlib.sha256(subscription["endpoint"].encode()).hexdigest()
        entry = {"endpoint": subscription["endpoint"],
                 "keys": {"p256dh": subscription["keys"]["p256dh"],
                          "auth": subscription["keys"]["auth"]},
                 "created": time.time()}
        if not self.store.subscribe(player.id, sub_id, entry, MAX_SUBSCRIPTIONS):
            raise Unprocessable(f"at most {MAX_SUBSCRIPTIONS} push subscriptions per player; "
                                "delete one first")
        return sub_id

    def unsubscribe(self, player: Player, sub_id: str) -> None:
        if not self.store.unsubscribe(player.id, sub_id):
            raise NotFound(f"no push subscription {sub_id!r}")
