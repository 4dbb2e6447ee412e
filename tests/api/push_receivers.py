"""Real HTTP receivers on 127.0.0.1 for the notice tests: a push service and a webhook.

The push service checks what a real one checks (RFC 8030/8291/8292): the VAPID
`Authorization: vapid t=<JWT>, k=<key>` header, the JWT's ES256 signature with
that key, its "aud" and "exp" claims, the Content-Encoding and TTL headers;
then, playing the browser, it decrypts the body with the subscription's
private key and auth secret. Whatever fails a check is answered 400 and kept in
`errors`, so a test can assert that there were none.
"""
from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

_AUTH = re.compile(r"^vapid\s+t=([A-Za-z0-9_\-.]+)\s*,\s*k=([A-Za-z0-9_\-]+)$", re.IGNORECASE)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One subscribed browser: its key pair, auth secret and endpoint path."""
    path: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))
    status: int = 201               # what the push service answers for this endpoint

    def keys(self) -> dict:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(point), "auth": b64url(self.auth_secret)}


@dataclass
class Push:
    path: str
    payload: dict
    raw: bytes
    vapid_key: str
    claims: dict
    headers: dict


class _Server:
    def __init__(self, handler_class):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
        self.httpd.owner = self
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.lock = threading.Lock()
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class PushService(_Server):
    def __init__(self):
        self.browsers: dict[str, Browser] = {}
        self.pushes: list[Push] = []
        self.errors: list[str] = []
        super().__init__(_PushHandler)

    def browser(self, name: str, status: int = 201) -> Browser:
        browser = Browser(path=f"/push/{name}", status=status)
        self.browsers[browser.path] = browser
        return browser

    def subscription(self, browser: Browser) -> dict:
        """As PushSubscription.toJSON() gives it."""
        return {"endpoint": self.origin + browser.path, "expirationTime": None,
                "keys": browser.keys()}

    def received(self, browser: Browser) -> list[Push]:
        with self.lock:
            return [push for push in self.pushes if push.path == browser.path]

    def check(self, path: str, headers, body: bytes) -> Push:
        """Raise AssertionError on any protocol fault; return the decrypted push."""
        browser = self.browsers.get(path)
        assert browser is not None, f"unknown endpoint {path}"
        match = _AUTH.match(headers.get("Authorization", ""))
        assert match, f"bad Authorization header {headers.get('Authorization')!r}"
        token, key_text = match.groups()
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(),
                                                                  unb64url(key_text))
        head_b64, claims_b64, signature_b64 = token.split(".")
        head = json.loads(unb64url(head_b64))
        assert head.get("alg") == "ES256", f"JWT alg {head.get('alg')!r}"
        signature = unb64url(signature_b64)
        assert len(signature) == 64, "ES256 signature must be 64 bytes (r || s)"
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                                   int.from_bytes(signature[32:], "big"))
        try:
            public_key.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the VAPID JWT signature does not verify") from None
        claims = json.loads(unb64url(claims_b64))
        assert claims.get("aud") == self.origin, f"aud {claims.get('aud')!r} != {self.origin}"
        now = time.time()
        assert now < claims.get("exp", 0) <= now + 86400, f"exp {claims.get('exp')} not in (now, now+24h]"
        assert re.match(r"^(mailto:|https:)", claims.get("sub", "")), f"sub {claims.get('sub')!r}"
        assert headers.get("Content-Encoding") == "aes128gcm", \
            f"Content-Encoding {headers.get('Content-Encoding')!r}"
        ttl = headers.get("TTL", "")
        assert ttl.isdigit() and int(ttl) > 0, f"TTL {ttl!r}"
        # RFC 8188 header: salt(16) rs(4) idlen(1) keyid; the keyid is the sender's P-256 key.
        assert len(body) > 21 and body[20] == 65, "the body must carry the sender's 65-byte key"
        plain = http_ece.decrypt(body, private_key=browser.private_key,
                                 auth_secret=browser.auth_secret, version="aes128gcm")
        return Push(path, json.loads(plain), plain, key_text, claims,
                    {name.lower(): value for name, value in headers.items()})


class _PushHandler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        service: PushService = self.server.owner
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            push = service.check(self.path, self.headers, body)
        except Exception as error:  # noqa: BLE001 - every fault is a test failure
            with service.lock:
                service.errors.append(f"{self.path}: {error!r}")
            self._answer(400)
            return
        browser = service.browsers[self.path]
        if browser.status < 300:
            with service.lock:
                service.pushes.append(push)
        self._answer(browser.status)

    def _answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Webhook(_Server):
    """A Discord/Slack-like incoming webhook; `statuses` are answered in turn, then 204."""

    def __init__(self, statuses: list[int] | None = None):
        self.messages: list[dict] = []
        self.errors: list[str] = []
        self.statuses = list(statuses or [])
        super().__init__(_WebhookHandler)
        self.url = self.origin + "/hook"


class _WebhookHandler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        hook: Webhook = self.server.owner
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with hook.lock:
            status = hook.statuses.pop(0) if hook.statuses else 204
            try:
                assert self.path == "/hook", self.path
                assert self.headers.get("Content-Type", "").startswith("application/json")
                message = json.loads(body)
                assert isinstance(message.get("content"), str) and message["content"]
                assert message.get("text") == message["content"]
                assert message.get("username") == "Pöytä"
                if status < 300:
                    hook.messages.append(message)
            except Exception as error:  # noqa: BLE001
                hook.errors.append(repr(error))
                status = 400
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass
