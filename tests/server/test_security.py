"""Security headers on every HTTP response; the WebSocket only for the site's own pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from sahrat.server.security import CSP, SecurityHeaders, parse_origin
from sahrat.server.settings import Settings
from tests.server.harness import Server, run, running

EXPECTED = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def fetch(server: Server, path: str, body: object = None) -> tuple[int, Any]:
    """The status and the headers (an ``email.message.Message``) of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        server.url + path,
        data=data,
        headers={"Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as response:
            response.read()
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def assert_secured(headers: Any) -> None:
    for name, value in EXPECTED.items():
        assert headers.get_all(name) == [value], name


async def hello(server: Server, origin: str | None) -> dict[str, Any]:
    """Open the socket (with ``origin``, or none) and say hello; the welcome."""
    async with connect(server.ws_url, origin=None if origin is None else Origin(origin)) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello"}))
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == "welcome":
                return message


async def refused(server: Server, origin: str) -> int:
    """The HTTP status that refused the handshake."""
    with pytest.raises(InvalidStatus) as caught:
        await hello(server, origin)
    return caught.value.response.status_code


def test_every_kind_of_response_carries_the_headers(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        for path, status in [("/", 200), ("/api/health", 200), ("/openapi.json", 200),
                             ("/static/style.css", 200), ("/static/verify.html", 200),
                             ("/no/such/page", 404), ("/static/nothing.js", 404),
                             ("/api/tables/nope", 404), ("/api/me", 401)]:  # fmt: skip
            got, headers = fetch(server, path)
            assert got == status, path
            assert_secured(headers)
        got, headers = fetch(server, "/api/guest", {"name": "Salma"})
        assert got == 200
        assert_secured(headers)
        got, headers = fetch(server, "/api/guest", [1, 2])
        assert got == 422
        assert_secured(headers)


def test_the_websocket_is_refused_to_other_sites(tmp_path: Path) -> None:
    async def scenario(server: Server) -> None:
        assert await refused(server, "http://evil.example") == 403
        # The same host on another port, or under another name, is another site.
        assert await refused(server, f"http://127.0.0.1:{server.port + 1}") == 403
        assert await refused(server, f"http://localhost:{server.port}") == 403
        assert await refused(server, "null") == 403
        assert await refused(server, "https://play.example") == 403
        # The site's own pages, and clients that are not browsers (no Origin at all).
        assert (await hello(server, server.url))["player"]["id"]
        assert (await hello(server, server.url.upper().replace("HTTP", "http")))["token"]
        assert (await hello(server, None))["token"]

    with running(tmp_path) as server:
        run(scenario(server))
        log = server.log_text()
        assert log.count("websocket refused") == 5
        assert "evil.example" in log


def test_allowed_origins_lets_a_proxied_site_in(tmp_path: Path) -> None:
    async def scenario(server: Server) -> None:
        assert (await hello(server, "https://play.example"))["token"]
        assert (await hello(server, "HTTPS://Play.Example:443"))["token"]
        assert (await hello(server, server.url))["token"]
        assert await refused(server, "http://play.example") == 403
        assert await refused(server, "https://play.example:8443") == 403
        assert await refused(server, "http://evil.example") == 403

    with running(tmp_path, allowed_origins="https://play.example, https://other.example") as srv:
        run(scenario(srv))


def test_a_star_allows_any_origin(tmp_path: Path) -> None:
    async def scenario(server: Server) -> None:
        assert (await hello(server, "http://evil.example"))["token"]

    with running(tmp_path, allowed_origins="*") as server:
        run(scenario(server))


# -- the middleware on its own --------------------------------------------------------------


def test_origins_are_normalised() -> None:
    assert parse_origin("HTTPS://Example.COM:443") == ("https", "example.com", None)
    assert parse_origin("http://example.com:80") == ("http", "example.com", None)
    assert parse_origin("http://example.com:8080") == ("http", "example.com", 8080)
    assert parse_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert parse_origin("example.com:80", "ws") == ("ws", "example.com", None)
    assert parse_origin("example.com:443", "wss") == ("wss", "example.com", None)
    for bad in ("null", "", "ftp://example.com", "http://example.com:99999", "http://"):
        assert parse_origin(bad) is None, bad


async def call(app: Any, path: str) -> tuple[int, list[tuple[bytes, bytes]]]:
    """One GET straight through the ASGI app: the status and the raw headers."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}  # fmt: skip
    with contextlib.suppress(RuntimeError):
        await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], start["headers"]


def values(headers: list[tuple[bytes, bytes]], name: str) -> list[str]:
    return [v.decode() for k, v in headers if k.decode().lower() == name]


def test_headers_the_app_set_are_kept_and_errors_are_covered() -> None:
    async def framed(request: Request) -> Response:
        return PlainTextResponse("ok", headers={"X-Frame-Options": "SAMEORIGIN"})

    async def broken(request: Request) -> Response:
        raise RuntimeError("boom")

    # Installed as the server installs it: inside Starlette's own error handling.
    app = Starlette(
        routes=[Route("/framed", framed), Route("/broken", broken)],
        middleware=[Middleware(SecurityHeaders, settings=Settings(data_dir=Path(".")))],
    )
    status, headers = asyncio.run(call(app, "/framed"))
    assert status == 200
    assert values(headers, "x-frame-options") == ["SAMEORIGIN"]
    assert values(headers, "content-security-policy") == [CSP]
    # An unhandled error: the 500 carries the headers too, and the error goes on.
    status, headers = asyncio.run(call(app, "/broken"))
    assert status == 500
    for name, value in EXPECTED.items():
        assert values(headers, name) == [value], name


def test_the_service_worker_may_serve_the_whole_site(tmp_path: Path) -> None:
    # The worker file sits under /static but the page is "/": only this header lets
    # the browser give it that scope. Other files never carry it.
    with running(tmp_path) as server:
        got, headers = fetch(server, "/static/sw.js")
        assert got == 200
        assert headers.get("service-worker-allowed") == "/"
        assert_secured(headers)
        got, headers = fetch(server, "/static/app.js")
        assert got == 200
        assert headers.get("service-worker-allowed") is None
