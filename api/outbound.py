"""Requests the server makes on a user's behalf (webhooks, Web Push): never to an internal address.

Every request:
* goes only to https (plain http only to a loopback address, and only when the policy allows
  it: on a server that listens on loopback only and trusts no proxy, `make run`'s default,
  which nobody off this machine can reach, so that an integrator can try a webhook on their
  own machine; or with POYTA_OUTBOUND_HTTP_LOOPBACK=1, which the tests set for their local
  receivers);
* has its host resolved and every address checked before connecting: private,
  loopback, link-local, multicast, reserved and other non-global ranges are
  refused, and the connection is made to the checked address (TLS still
  verifies the certificate against the host name), so a DNS answer that changes
  between the check and the connection cannot redirect it;
* follows no redirect (a 3xx is an answer like any other);
* gives up after 3 s to connect and 8 s in all, however slowly the other side
  drips its answer, and reads at most 64 KB of it.

Push endpoints must also be at a known push service (POYTA_PUSH_HOSTS: comma-
separated host suffixes, `*` for any https host). Both settings come from `api.settings`, as a
`Policy`.
"""
from __future__ import annotations

import ipaddress
import re
import json as jsonlib
import socket
import threading
from dataclasses import dataclass, field
from http.client import HTTPException
from urllib.parse import SplitResult, urlsplit

import certifi
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError

CONNECT_TIMEOUT = 3.0
TOTAL_TIMEOUT = 8.0
MAX_ANSWER_BYTES = 64 * 1024
MAX_URL_LENGTH = 2048
DEFAULT_PUSH_HOSTS = ("fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com",
                      "push.apple.com")


@dataclass(frozen=True)
class Policy:
    loopback: bool = False     # plain http to this machine allowed (`api.settings` says when)
    push_hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS  # host suffixes; "*" for any https host


class Refused(ValueError):
    """A destination the server never sends to; the message says why."""


class Unreachable(OSError):
    """The destination could not be reached or did not answer in time."""


@dataclass
class Answer:
    """What came back: enough of requests.Response for pywebpush and the notice code."""
    status_code: int
    reason: str
    text: str
    headers: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status_code < 400


def check_url(url: str, policy: Policy, push: bool = False) -> SplitResult:
    """The parts of `url` if the server may send to it (before resolving); Refused otherwise."""
    if len(url) > MAX_URL_LENGTH:
        raise Refused(f"the URL may be at most {MAX_URL_LENGTH} characters long")
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".").lower()
    if parts.scheme not in ("https", "http") or not host:
        raise Refused("the URL must be https://host/...")
    if parts.username or parts.password:
        raise Refused("the URL may not carry a user name or password")
    try:
        parts.port
    except ValueError:
        raise Refused("the URL's port is not a number from 0 to 65535") from None
    literal = _ip_literal(host)
    loopback = on_this_machine(host)
    if parts.scheme == "http" and not (loopback and policy.loopback):
        raise Refused("the URL must use https")
    if loopback and not policy.loopback:
        raise Refused("the URL may not point at this server's own machine")
    if literal is not None:
        _check_address(literal, policy)
    if push and not (loopback and policy.loopback) and not _push_host(host, policy):
        raise Refused("a push endpoint must be at a known push service")
    return parts


def on_this_machine(host: str) -> bool:
    """Whether a host name or address is this machine's own (loopback)."""
    host = host.rstrip(".").lower()
    literal = _ip_literal(host)
    return host == "localhost" or host.endswith(".localhost") or (
        literal is not None and literal.is_loopback)


def post(url: str, policy: Policy, *, data: bytes | None = None, json: object = None,
         headers: dict | None = None, push: bool = False) -> Answer:
    """POST to `url` under the rules above; Refused or Unreachable when it cannot be sent."""
    parts = check_url(url, policy, push=push)
    if json is not None:
        data = jsonlib.dumps(json).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
    host = parts.hostname.rstrip(".").lower()
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = resolve(host, port, policy)
    if parts.scheme == "https":
        connection = HTTPSConnection(address, port, timeout=CONNECT_TIMEOUT, server_hostname=host,
                                     assert_hostname=host, cert_reqs="CERT_REQUIRED",
                                     ca_certs=certifi.where())
    else:
        connection = HTTPConnection(address, port, timeout=CONNECT_TIMEOUT)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    # Cut the connection at the deadline, whatever it is waiting for.
    cut = threading.Event()
    watchdog = threading.Timer(TOTAL_TIMEOUT, _cut, args=(connection, cut))
    watchdog.start()
    try:
        connection.request("POST", target, body=data or b"",
                           headers={"Host": parts.netloc.rpartition("@")[2], **(headers or {})})
        response = connection.getresponse()
        body = response.read(MAX_ANSWER_BYTES)
        if cut.is_set():
            raise Unreachable(f"no complete answer within {TOTAL_TIMEOUT:.0f} s")
        return Answer(response.status, response.reason or "", body.decode("utf-8", "replace"),
                      dict(response.headers))
    except Unreachable:
        raise
    except (OSError, ValueError, HTTPException, HTTPError) as error:
        raise Unreachable(f"{host}: {error}") from error
    finally:
        watchdog.cancel()
        connection.close()


def resolve(host: str, port: int, policy: Policy) -> str:
    """The address to connect to, once every address the name resolves to passed the check."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Unreachable(f"cannot resolve {host}: {error}") from error
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    for address in addresses:
        _check_address(address, policy)
    return str(addresses[0])


class Session:
    """A stand-in for requests' session, for pywebpush: its POSTs go through `post`."""

    def __init__(self, policy: Policy):
        self.policy = policy

    def post(self, url: str, data: bytes | None = None, headers: dict | None = None,
             timeout: float | None = None, **_ignored) -> Answer:
        return post(url, self.policy, data=data, headers=headers, push=True)


def _check_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address,
                   policy: Policy) -> None:
    mapped = getattr(address, "ipv4_mapped", None) or getattr(address, "sixtofour", None)
    if mapped is not None:
        address = mapped
    if address.is_loopback and policy.loopback:
        return
    if not address.is_global or address.is_multicast:
        raise Refused(f"the address {address} is not a public internet address")


def _ip_literal(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _push_host(host: str, policy: Policy) -> bool:
    suffixes = policy.push_hosts
    return "*" in suffixes or any(host == s or host.endswith("." + s) for s in suffixes if s)


def _cut(connection: HTTPConnection, cut: threading.Event) -> None:
    cut.set()
    sock = connection.sock
    if sock is not None:
        try:
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass


# --- a player's name inside chat-platform text (a webhook's message) --------------------------
# It can neither mention anybody nor make a link. Slack reads `<...>` as mentions
# (`<!channel>`) and links (`<https://x|text>`): escaping `&`, `<` and `>` as Slack asks takes
# that away. Discord reads Markdown, including masked links `[text](url)`, and `@everyone`: its
# Markdown characters are escaped with a backslash. For both, a zero-width space after `@`, `.`,
# `:` and `/` stops a name such as `evil.example/login` from turning into a link.
_BREAK_AFTER = re.compile(r"([@.:/])")
_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#<-])")
_SLACK_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _unlinkable(text: str) -> str:
    return _BREAK_AFTER.sub("\\1\u200b", text)


def discord_text(name: str) -> str:
    return _unlinkable(_DISCORD_MARKDOWN.sub(r"\\\1", name))


def slack_text(name: str) -> str:
    return _unlinkable("".join(_SLACK_ESCAPES.get(ch, ch) for ch in name))
