"""What the table server checks and adds around every request, in one ASGI middleware (:class:`Guard`):

- **Allowed hosts**: the Host header must name this server as `stkit serve` printed it (the ``--host``
  address and the name put in the links, plus the loopback names on a loopback server). A page served
  under another name (DNS rebinding: an attacker's name pointed at this address) gets a 400.
- **Changes** (POST) need a body of at most :data:`MAX_BODY_BYTES` with its length given, and come at most
  :data:`POST_BURST` at once, then :data:`POST_PER_SECOND` a second, per client (the link's cookie, else
  the address): more get a 429.
- **Response headers** on every answer (:data:`SECURITY_HEADERS`): a Content-Security-Policy allowing this
  server's own scripts, styles and event stream only, no framing, no referrer, no content sniffing; and
  ``Cache-Control: no-store`` on everything but the static files (pages, fragments, the join redirect).

The Origin / Referer check of a change is :func:`stkit.web.deps.same_site`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from stkit.web.table import COOKIE

log = logging.getLogger("stkit.web")

#: Added to every response (pages, fragments, redirects, static files, the event stream, errors).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
NO_STORE = (b"cache-control", b"no-store")
#: The largest request body a change may send (the forms are a few hundred bytes).
MAX_BODY_BYTES = 16 * 1024
#: The Discord door's endpoint, and the largest interaction it takes.
DISCORD_PATH = "/discord/interactions"
DISCORD_BODY_BYTES = 64 * 1024
#: Changes one client may send at once, and a second after that.
POST_BURST = 20
POST_PER_SECOND = 5.0
#: Clients whose POST rate is remembered (the oldest forgotten first).
MAX_CLIENTS = 4096
#: The names a loopback server answers to.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def host_name(host: str) -> str:
    """The name part of a Host header value ('127.0.0.1:8000' -> '127.0.0.1', '[::1]:80' -> '::1'),
    lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def allowed_hosts(listen: str, printed: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host names a server listening on ``listen`` accepts: ``listen`` itself unless it is a wildcard
    (0.0.0.0, ::), the names in ``printed`` (put in its links), and the loopback names when it listens on
    loopback or on every interface."""
    names = [host_name(n) for n in printed if n]
    if listen not in ("0.0.0.0", "::", ""):
        names.append(host_name(listen) if not listen.startswith("[") else listen.strip("[]"))
    if listen in ("0.0.0.0", "::", "") or host_name(listen) in LOOPBACK_NAMES or listen.startswith("127."):
        names.extend(LOOPBACK_NAMES)
    return tuple(dict.fromkeys(names))


class _Bucket:
    __slots__ = ("at", "tokens")

    def __init__(self, now: float) -> None:
        self.tokens = float(POST_BURST)
        self.at = now


class Guard:
    """Pure ASGI middleware (streams pass through unbuffered) doing the checks in the module's text.
    ``hosts``: the allowed Host names (None: any, for an app mounted by other means)."""

    def __init__(self, app: Any, hosts: Iterable[str] | None = LOOPBACK_NAMES) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts) if hosts is not None else None
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers") or []
        host = _header(headers, b"host")
        if self.hosts is not None and host_name(host) not in self.hosts:
            log.warning("refused requests for a host this server does not serve")
            await _plain(send, 400, "This server does not answer to that host name.")
            return
        if scope.get("method") == "POST":
            refusal = self._check_post(scope, headers)
            if refusal is not None:
                await _plain(send, *refusal)
                return
        static = str(scope.get("path", "")).startswith("/static/")

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                if not static:
                    extra = [h for h in extra if h[0] != b"cache-control"] + [NO_STORE]
                    message = {
                        **message,
                        "headers": [h for h in message.get("headers", []) if h[0].lower() != b"cache-control"] + extra,
                    }
                else:
                    message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _check_post(self, scope: dict, headers: list) -> tuple[int, str] | None:
        """(status, message) when a POST is refused before the app sees it, else None."""
        length = _header(headers, b"content-length")
        # Discord's interactions all come from Discord (one address behind a proxy): the Discord door
        # limits each Discord user itself, after the signature check; a button's interaction carries the
        # whole message it sits on, so it may be larger than a form.
        discord = scope.get("path") == DISCORD_PATH
        most = DISCORD_BODY_BYTES if discord else MAX_BODY_BYTES
        if _header(headers, b"transfer-encoding"):
            return 411, "A change must give its length (Content-Length)."
        if length and (not (length.isascii() and length.isdigit()) or len(length) > 12 or int(length) > most):
            log.warning("refused changes over %d bytes", most)
            return 413, f"A change may send at most {most} bytes."
        if not discord and not self._take(_client_key(scope, headers)):
            log.warning("refused changes over the rate of %d a second from one client", POST_PER_SECOND)
            return 429, "Too many changes at once; wait a moment and try again."
        return None

    def _take(self, key: str) -> bool:
        now = time.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(now)
            if len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(float(POST_BURST), bucket.tokens + (now - bucket.at) * POST_PER_SECOND)
            bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True


def _header(headers: list, name: bytes) -> str:
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def _client_key(scope: dict, headers: list) -> str:
    """Who a POST counts against: the link in its cookie (hashed), else its address."""

    cookie = _header(headers, b"cookie")
    for part in cookie.split(";"):
        name, _, value = part.strip().partition("=")
        if (name == COOKIE or name.startswith(COOKIE + "_")) and value:
            return "link " + hashlib.sha256(value.encode("latin-1")).hexdigest()[:32]
    client = scope.get("client") or ("?", 0)
    return f"address {client[0]}"


async def _plain(send: Any, status: int, text: str) -> None:
    """A one-line text/plain answer with the security headers."""
    body = (text + "\n").encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        NO_STORE,
        *SECURITY_HEADERS,
    ]
    if status == 429:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
