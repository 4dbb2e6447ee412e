"""A software passkey authenticator: real ES256 keys, real CBOR, the browser's JSON.

It plays both the browser (client data naming the page's origin) and the authenticator
(discoverable credentials keeping the user handle, user presence and verification). The
`soft-webauthn` package does the same for one credential, but it pins `fido2<2`, whose
`cryptography<45` cannot live beside pywebpush's `cryptography>=47`.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


@dataclass
class Credential:
    id: bytes
    rp_id: str
    user_handle: bytes
    key: ec.EllipticCurvePrivateKey
    sign_count: int = 0


def _cose(public_key: ec.EllipticCurvePublicKey) -> bytes:
    numbers = public_key.public_numbers()
    return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                        -3: numbers.y.to_bytes(32, "big")})


def _client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                       "crossOrigin": False}).encode()


@dataclass
class Authenticator:
    credentials: list[Credential] = field(default_factory=list)

    def create(self, options: dict, origin: str, credential_id: bytes | None = None) -> dict:
        """navigator.credentials.create(options).toJSON() on a page at `origin`; a forger may
        give the new credential the id of one it has seen."""
        rp_id = options["rp"]["id"]
        credential = Credential(credential_id or os.urandom(32), rp_id, base64url_to_bytes(options["user"]["id"]),
                                ec.generate_private_key(ec.SECP256R1()))
        self.credentials.append(credential)
        auth_data = (hashlib.sha256(rp_id.encode()).digest()
                     + bytes([USER_PRESENT | USER_VERIFIED | ATTESTED])
                     + struct.pack(">I", 0) + bytes(16)
                     + struct.pack(">H", len(credential.id)) + credential.id
                     + _cose(credential.key.public_key()))
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": bytes_to_base64url(credential.id), "rawId": bytes_to_base64url(credential.id),
                "type": "public-key", "authenticatorAttachment": "platform",
                "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(
                    _client_data("webauthn.create", options["challenge"], origin)),
                    "attestationObject": bytes_to_base64url(attestation),
                    "transports": ["internal"]}}

    def get(self, options: dict, origin: str, credential: Credential | None = None,
            user_handle: bytes | None = None) -> dict:
        """navigator.credentials.get(options).toJSON(): the (last) passkey of the options'
        relying party, or the one given; `user_handle` says another's handle in its place."""
        credential = credential or [held for held in self.credentials
                                    if held.rp_id == options["rpId"]][-1]
        credential.sign_count += 1
        auth_data = (hashlib.sha256(credential.rp_id.encode()).digest()
                     + bytes([USER_PRESENT | USER_VERIFIED])
                     + struct.pack(">I", credential.sign_count))
        client_data = _client_data("webauthn.get", options["challenge"], origin)
        signature = credential.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                        ec.ECDSA(hashes.SHA256()))
        return {"id": bytes_to_base64url(credential.id), "rawId": bytes_to_base64url(credential.id),
                "type": "public-key", "authenticatorAttachment": "platform",
                "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(client_data),
                             "authenticatorData": bytes_to_base64url(auth_data),
                             "signature": bytes_to_base64url(signature),
                             "userHandle": bytes_to_base64url(user_handle or credential.user_handle)}}
