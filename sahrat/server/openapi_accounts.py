"""The OpenAPI description of the accounts and coins routes (``docs/protocol.md`` §6)."""

from __future__ import annotations

from typing import Any

ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}, "code": {"type": "string"}},
    "required": ["error"],
}
PLAYER = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "guest": {"type": "boolean"},
        "balance": {"type": ["integer", "null"]},
    },
    "required": ["id", "name"],
}
SESSION = {"type": "object", "properties": {"token": {"type": "string"}, "player": PLAYER}}
CREDENTIALS = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 20},
        "password": {"type": "string", "minLength": 8, "description": "at most 256 bytes"},
    },
    "required": ["name", "password"],
}
_SIGNED_IN: list[dict[str, list[str]]] = [{"session": []}]
_PAGE = [
    {
        "name": "before",
        "in": "query",
        "required": False,
        "schema": {"type": "number"},
        "description": "the `next` of the previous page",
    },
    {
        "name": "limit",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    },
]


def json_response(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _refused(**statuses: str) -> dict[str, Any]:
    return {code.removeprefix("s"): json_response(ERROR, text) for code, text in statuses.items()}


_UNAUTHORISED = {"401": json_response(ERROR, "no valid session token (bad_token)")}
_NO_CONTENT = {"204": {"description": "done"}}

ACCOUNT_PATHS: dict[str, Any] = {
    "/api/accounts": {
        "post": {
            "summary": "Register an account (a guest's Bearer token turns that guest into it)",
            "requestBody": _body(CREDENTIALS),
            "responses": {
                "201": json_response(SESSION, "the account, its starting grant, a session"),
                **_refused(
                    s409="name_taken, or already_registered",
                    s422="name_too_short, name_too_long, name_bad_character, name_spaces, "
                    "password_too_short, password_too_long, bad_field",
                    s429="too_many (Retry-After)",
                ),
            },
        }
    },
    "/api/sessions": {
        "post": {
            "summary": "Log in",
            "requestBody": _body(CREDENTIALS),
            "responses": {
                "200": json_response(SESSION, "a new session"),
                **_refused(s401="wrong_credentials", s429="too_many (Retry-After)"),
            },
        },
        "get": {
            "summary": "The account's open sessions",
            "security": _SIGNED_IN,
            "responses": {
                "200": json_response(
                    {"type": "object", "properties": {"sessions": {"type": "array"}}},
                    "id, created_at, last_used_at, agent, current",
                ),
                **_UNAUTHORISED,
            },
        },
        "delete": {
            "summary": "Log out everywhere: every session of the account ends, this one too",
            "security": _SIGNED_IN,
            "responses": {**_NO_CONTENT, **_UNAUTHORISED},
        },
    },
    "/api/sessions/current": {
        "delete": {
            "summary": "Log out: this session ends",
            "security": _SIGNED_IN,
            "responses": {**_NO_CONTENT, **_UNAUTHORISED},
        }
    },
    "/api/sessions/{session_id}": {
        "delete": {
            "summary": "End one of the account's sessions (its connections close)",
            "security": _SIGNED_IN,
            "parameters": [
                {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "responses": {**_NO_CONTENT, **_UNAUTHORISED, **_refused(s404="no_such_session")},
        }
    },
    "/api/me": {
        "get": {
            "summary": "The player of a session: name, guest or not, balance, games played",
            "security": _SIGNED_IN,
            "responses": {
                "200": json_response(
                    {
                        "type": "object",
                        "properties": {
                            **PLAYER["properties"],  # type: ignore[dict-item]
                            "games_played": {"type": "integer"},
                            "table": {"type": ["string", "null"]},
                            "daily_grant": {"type": ["object", "null"]},
                        },
                    },
                    "the player, their balance and their table",
                ),
                **_UNAUTHORISED,
            },
        }
    },
    "/api/me/password": {
        "put": {
            "summary": "Change the password; the account's other sessions end",
            "security": _SIGNED_IN,
            "requestBody": _body(
                {
                    "type": "object",
                    "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                }
            ),
            "responses": {
                **_NO_CONTENT,
                **_refused(s401="wrong_credentials", s422="password_too_short/long"),
            },
        }
    },
    "/api/me/daily-grant": {
        "post": {
            "summary": "Claim today's grant (once per UTC day)",
            "security": _SIGNED_IN,
            "responses": {
                "200": json_response({"type": "object"}, "granted and the balance after it"),
                **_refused(s403="guest_no_coins", s409="already_claimed (with next_at)"),
                **_UNAUTHORISED,
            },
        }
    },
    "/api/me/ledger": {
        "get": {
            "summary": "The player's coin movements, newest first, paged",
            "security": _SIGNED_IN,
            "parameters": _PAGE,
            "responses": {
                "200": json_response(
                    {
                        "type": "object",
                        "properties": {
                            "entries": {"type": "array"},
                            "next": {"type": ["integer", "null"]},
                        },
                    },
                    "id, at, kind (grant_start, grant_daily, stake, payout), amount, "
                    "balance after it, table",
                ),
                **_UNAUTHORISED,
            },
        }
    },
    "/api/me/games": {
        "get": {
            "summary": "The player's finished games, newest first, paged",
            "security": _SIGNED_IN,
            "parameters": _PAGE,
            "responses": {
                "200": json_response(
                    {
                        "type": "object",
                        "properties": {
                            "games": {"type": "array"},
                            "next": {"type": ["number", "null"]},
                        },
                    },
                    "table, game, finished_at, seat, result, left, stake, coins, and links "
                    "to the record, the replay and Verify",
                ),
                **_UNAUTHORISED,
            },
        }
    },
    "/api/coins": {
        "get": {
            "summary": "The stakes a coin table may have, the fee and the grants",
            "responses": {"200": json_response({"type": "object"}, "stakes, fee_percent, grants")},
        }
    },
}
