"""The REST API of accounts and coins (``docs/protocol.md`` §6).

Each handler reads the session from ``Authorization: Bearer <token>``, hands
the request to :class:`~sahrat.server.accounts.service.Accounts`, and turns its
:class:`~sahrat.server.accounts.service.AccountError` into a JSON problem with
the error's status and code. Passwords are read here and passed on; they are
never logged or echoed.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sahrat.server.accounts.queries import Identity
from sahrat.server.accounts.service import PAGE_MAX, AccountError, Accounts, TooMany
from sahrat.server.http_body import BodyError, json_body
from sahrat.server.settings import Settings

Handler = Callable[[Request], Awaitable[Response]]
#: What the routes need of the rest of the server.
Ended = Callable[[list[str]], None]
TableOf = Callable[[str], str | None]

UNAUTHENTICATED = AccountError(401, "bad_token", "no valid session token")


def problem(error: AccountError) -> JSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else None
    return JSONResponse(error.to_json(), status_code=error.status, headers=headers)


def account_routes(accounts: Accounts, settings: Settings, ended: Ended,
                   table_of: TableOf) -> list[Route]:  # fmt: skip
    """The routes, given the accounts, a way to close ended sessions' sockets, and the
    table a player sits at."""

    def guarded(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except AccountError as error:
                return problem(error)
            except BodyError as error:
                return JSONResponse({"error": error.message, "code": "bad_body"},
                                    status_code=error.status)  # fmt: skip

        return run

    async def body(request: Request) -> dict[str, Any]:
        found = await json_body(request, settings.max_body_bytes)
        if not isinstance(found, dict):
            raise AccountError(422, "bad_field", "the body is a JSON object")
        return found

    async def who(request: Request, required: bool = True) -> Identity | None:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        found = await accounts.identify(token) if token else None
        if found is None and required:
            raise UNAUTHENTICATED
        return None if found is None else found[0]

    async def signed_in(request: Request) -> Identity:
        identity = await who(request)
        assert identity is not None
        return identity

    def address(request: Request) -> str:
        return request.client.host if request.client else ""

    def agent(request: Request) -> str:
        return request.headers.get("user-agent", "")[:200]

    def session_reply(identity: Identity, token: str, balance: int | None,
                      status: int) -> Response:  # fmt: skip
        player = {"id": identity.player, "name": identity.name, "guest": identity.guest,
                  "balance": balance}  # fmt: skip
        return JSONResponse({"token": token, "player": player}, status_code=status)

    async def guest(request: Request) -> Response:
        found = await json_body(request, settings.max_body_bytes)
        if found is not None and not isinstance(found, dict):
            raise AccountError(422, "bad_field", "the body is a JSON object")
        name = None if found is None else found.get("name")
        identity, token = await accounts.guest(name, address(request), agent(request))
        return session_reply(identity, token, None, 200)

    async def register(request: Request) -> Response:
        data = await body(request)
        current = await who(request, required=False)
        identity, token = await accounts.register(
            data.get("name"), data.get("password"), address(request), agent(request), current
        )
        if current is not None:
            ended([current.session])  # the guest's session gave way to the account's
        balance = await accounts.balance(identity.player)
        return session_reply(identity, token, balance, 201)

    async def login(request: Request) -> Response:
        data = await body(request)
        identity, token = await accounts.login(
            data.get("name"), data.get("password"), address(request), agent(request)
        )
        balance = await accounts.balance(identity.player)
        return session_reply(identity, token, balance, 200)

    async def logout(request: Request) -> Response:
        ended(await accounts.logout(await signed_in(request)))
        return Response(status_code=204)

    async def logout_everywhere(request: Request) -> Response:
        # For a lost phone or a shared computer: every device of the account signs out.
        ended(await accounts.logout_everywhere(await signed_in(request)))
        return Response(status_code=204)

    async def sessions(request: Request) -> Response:
        return JSONResponse({"sessions": await accounts.sessions(await signed_in(request))})

    async def revoke(request: Request) -> Response:
        identity = await signed_in(request)
        ended(await accounts.revoke(identity, request.path_params["session_id"]))
        return Response(status_code=204)

    async def password(request: Request) -> Response:
        identity = await signed_in(request)
        data = await body(request)
        ended(await accounts.change_password(identity, data.get("old"), data.get("new")))
        return Response(status_code=204)

    async def me(request: Request) -> Response:
        identity = await signed_in(request)
        return JSONResponse({**await accounts.me(identity), "table": table_of(identity.player)})

    async def daily(request: Request) -> Response:
        return JSONResponse(await accounts.claim_daily(await signed_in(request)))

    async def ledger(request: Request) -> Response:
        identity = await signed_in(request)
        before = _number(request, "before", int)
        return JSONResponse(await accounts.statement(identity, before, _page(request)))

    async def games(request: Request) -> Response:
        identity = await signed_in(request)
        before = _number(request, "before", float)
        return JSONResponse(await accounts.games(identity, before, _page(request)))

    async def coins(request: Request) -> Response:
        return JSONResponse(
            {
                "stakes": list(settings.stake_choices),
                "fee_percent": 10,
                "starting_grant": settings.starting_grant,
                "daily_grant": settings.daily_grant,
            }
        )

    plain = [
        ("/api/guest", guest, ["POST"]),
        ("/api/accounts", register, ["POST"]),
        ("/api/sessions", login, ["POST"]),
        ("/api/sessions", sessions, ["GET"]),
        ("/api/sessions", logout_everywhere, ["DELETE"]),
        ("/api/sessions/current", logout, ["DELETE"]),
        ("/api/sessions/{session_id}", revoke, ["DELETE"]),
        ("/api/me", me, ["GET"]),
        ("/api/me/password", password, ["PUT"]),
        ("/api/me/daily-grant", daily, ["POST"]),
        ("/api/me/ledger", ledger, ["GET"]),
        ("/api/me/games", games, ["GET"]),
        ("/api/coins", coins, ["GET"]),
    ]
    return [Route(path, guarded(handler), methods=methods) for path, handler, methods in plain]


def _number(request: Request, name: str, kind: type[int] | type[float]) -> Any:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = kind(raw)
    except ValueError:
        raise AccountError(422, "bad_field", f"{name} is a number") from None
    if not math.isfinite(value):
        raise AccountError(422, "bad_field", f"{name} is a number")
    return value


def _page(request: Request) -> int:
    size = _number(request, "limit", int)
    if size is None:
        return 20
    if not 1 <= size <= PAGE_MAX:
        raise AccountError(422, "bad_field", f"limit is 1 to {PAGE_MAX}")
    return int(size)
