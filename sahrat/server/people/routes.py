"""The REST API of leaderboards, profiles and friends (``docs/people.md``).

Sessions are read as the accounts' routes read them (``Authorization: Bearer``);
a refusal is a JSON problem with its status and code.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sahrat.server.account_routes import UNAUTHENTICATED, problem
from sahrat.server.accounts.queries import Identity
from sahrat.server.accounts.service import AccountError, Accounts
from sahrat.server.http_body import BodyError, json_body
from sahrat.server.people.service import People

Handler = Callable[[Request], Awaitable[Response]]
#: The page size of a leaderboard unless the request says otherwise.
BOARD_PAGE = 20


def people_routes(people: People, accounts: Accounts, max_body_bytes: int) -> list[Route]:
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

    async def who(request: Request) -> Identity | None:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        found = await accounts.identify(token) if token else None
        return None if found is None else found[0]

    async def signed_in(request: Request) -> Identity:
        identity = await who(request)
        if identity is None:
            raise UNAUTHENTICATED
        return identity

    async def body(request: Request) -> dict[str, Any]:
        found = await json_body(request, max_body_bytes)
        if not isinstance(found, dict):
            raise AccountError(422, "bad_field", "the body is a JSON object")
        return found

    def other(request: Request) -> str:
        return str(request.path_params["player_id"])

    async def leaderboard(request: Request) -> Response:
        query = request.query_params
        identity = await who(request)
        return JSONResponse(
            await people.leaderboard(
                request.path_params["game"],
                query.get("period", "all"),
                query.get("by", "rating"),
                _whole(query.get("page"), 1, "page"),
                _whole(query.get("limit"), BOARD_PAGE, "limit"),
                None if identity is None else identity.player,
            )
        )

    async def profile(request: Request) -> Response:
        identity = await who(request)
        return JSONResponse(await people.profile(request.path_params["who"], identity))

    async def change_me(request: Request) -> Response:
        identity = await signed_in(request)
        return JSONResponse(await people.change(identity, await body(request)))

    async def friend_lists(request: Request) -> Response:
        return JSONResponse(await people.friend_lists(await signed_in(request)))

    async def befriend(request: Request) -> Response:
        identity = await signed_in(request)
        answer = await people.request(identity, await body(request))
        return JSONResponse(answer, status_code=201 if answer["status"] == "requested" else 200)

    async def accept(request: Request) -> Response:
        await people.accept(await signed_in(request), other(request))
        return Response(status_code=204)

    async def withdraw(request: Request) -> Response:
        await people.withdraw(await signed_in(request), other(request))
        return Response(status_code=204)

    async def unfriend(request: Request) -> Response:
        await people.unfriend(await signed_in(request), other(request))
        return Response(status_code=204)

    async def block(request: Request) -> Response:
        await people.block(await signed_in(request), other(request))
        return Response(status_code=204)

    async def unblock(request: Request) -> Response:
        await people.unblock(await signed_in(request), other(request))
        return Response(status_code=204)

    plain = [
        ("/api/leaderboards/{game}", leaderboard, ["GET"]),
        ("/api/players/{who}", profile, ["GET"]),
        ("/api/me", change_me, ["PATCH"]),
        ("/api/friends", friend_lists, ["GET"]),
        ("/api/friends", befriend, ["POST"]),
        ("/api/friends/requests/{player_id}", accept, ["PUT"]),
        ("/api/friends/requests/{player_id}", withdraw, ["DELETE"]),
        ("/api/friends/{player_id}", unfriend, ["DELETE"]),
        ("/api/blocks/{player_id}", block, ["PUT"]),
        ("/api/blocks/{player_id}", unblock, ["DELETE"]),
    ]
    return [Route(path, guarded(handler), methods=methods) for path, handler, methods in plain]


def _whole(raw: str | None, default: int, name: str) -> int:
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise AccountError(422, "bad_field", f"{name} is a whole number")
    return int(raw)
