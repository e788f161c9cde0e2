"""Security headers on every HTTP response, and the WebSocket's Origin check.

A browser sends ``Origin`` with every WebSocket handshake, and the socket is not
covered by the same-origin policy: without the check, any page a player visits
could open a connection in the player's name. Clients that are not browsers send
no ``Origin`` and are let through; they could forge one anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from sahrat.server.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("sahrat.security")

#: Everything the client loads comes from the site itself; the WebSocket too
#: ('self' covers ws: and wss: on the same host).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
#: The client's service worker lives with the static files but serves the whole
#: site (the page is "/"): this header lets it take the scope "/".
SERVICE_WORKER = "/static/sw.js"

#: (scheme, host, port), the port None when it is the scheme's default.
Origin = tuple[str, str, int | None]


def parse_origin(text: str, scheme: str = "") -> Origin | None:
    """``scheme://host[:port]`` (or a bare ``host[:port]`` with ``scheme``), normalised."""
    text = text.strip().lower()
    parts = urlsplit(text if scheme == "" else f"{scheme}://{text}")
    try:
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.scheme not in DEFAULT_PORTS:
        return None
    if port == DEFAULT_PORTS[parts.scheme]:
        port = None
    return parts.scheme, parts.hostname, port


class SecurityHeaders:
    """ASGI middleware: the headers on ``http`` responses, the Origin check on ``websocket``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        entries = [entry.strip() for entry in settings.allowed_origins.split(",")]
        self.any_origin = "*" in entries
        self.allowed = {found for e in entries if e and (found := parse_origin(e))}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in present]
                if scope.get("path") == SERVICE_WORKER:
                    headers.append((b"service-worker-allowed", b"/"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # The server's own 500 page is sent outside this middleware: send it here,
            # with the headers, and let the error go on to be logged.
            if not started:
                body = b"Internal Server Error"
                await send_with_headers(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [
                            (b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
            raise

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        origin = headers.get(b"origin")
        if origin is None or self.allows(origin.decode("latin-1"), headers, scope):
            await self.app(scope, receive, send)
            return
        await receive()  # websocket.connect
        # Closing before the accept refuses the handshake: the server answers 403.
        await send({"type": "websocket.close", "code": 1008})
        client = scope.get("client")
        log.warning(
            "websocket refused: origin %r is not allowed (host %r, from %s)",
            origin.decode("latin-1")[:200],
            headers.get(b"host", b"").decode("latin-1")[:200],
            client[0] if client else "?",
        )

    def allows(self, text: str, headers: dict[bytes, bytes], scope: Scope) -> bool:
        if self.any_origin:
            return True
        origin = parse_origin(text)
        if origin is None:
            return False
        if origin in self.allowed:
            return True
        # The site's own origin. The scheme is not compared: behind a proxy that ends
        # TLS, the page is https while the socket reaches the server as plain ws.
        host = parse_origin(headers.get(b"host", b"").decode("latin-1"), scope.get("scheme", "ws"))
        return host is not None and host[1:] == origin[1:]
