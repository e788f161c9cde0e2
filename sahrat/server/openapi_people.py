"""The OpenAPI description of leaderboards, profiles and friends (``docs/people.md``).

:data:`PEOPLE_PATHS` is merged operation by operation into the paths of
:mod:`~sahrat.server.openapi` (``/api/me`` has the accounts' GET and this PATCH).
"""

from __future__ import annotations

from typing import Any

from sahrat.games import GAMES
from sahrat.server.openapi_accounts import ERROR, json_response
from sahrat.server.people.profiles import AVATARS

_SIGNED_IN: list[dict[str, list[str]]] = [{"session": []}]
_UNAUTHORISED = {"401": json_response(ERROR, "no valid session token (bad_token)")}
_NO_CONTENT = {"204": {"description": "done"}}


def _refused(**statuses: str) -> dict[str, Any]:
    return {code.removeprefix("s"): json_response(ERROR, text) for code, text in statuses.items()}


def _path(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": description,
    }


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


PERSON = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "avatar": {"type": "string", "enum": list(AVATARS)},
    },
    "required": ["id", "name", "avatar"],
}
_ENTRY = {
    "type": "object",
    "properties": {
        "rank": {"type": "integer", "description": "equal players share a rank"},
        "player": PERSON,
        "rating": {"type": "integer", "description": "1000 + 40 × (μ − 3σ), at least 0"},
        "provisional": {"type": "boolean", "description": "fewer than 10 rated games"},
        "games": {"type": "integer", "description": "rated games in the period"},
        "wins": {"type": "integer", "description": "rated games won in the period"},
    },
}
BOARD = {
    "type": "object",
    "properties": {
        "game": {"type": "string"},
        "period": {"type": "string", "enum": ["all", "week"]},
        "by": {"type": "string", "enum": ["rating", "wins"]},
        "page": {"type": "integer"},
        "pages": {"type": "integer"},
        "total": {"type": "integer"},
        "min_games": {"type": "integer"},
        "since": {"type": ["number", "null"], "description": "the week's Monday 00:00 UTC"},
        "entries": {"type": "array", "items": _ENTRY},
        "me": {"oneOf": [_ENTRY, {"type": "null"}], "description": "the caller's row"},
    },
}
PROFILE = {
    "type": "object",
    "properties": {
        **PERSON["properties"],  # type: ignore[dict-item]
        "member_since": {"type": "number"},
        "games": {
            "type": "object",
            "description": "per game: played, won, rating (null if never rated: else rating, "
            "provisional, rated_games, mu, sigma, rank)",
        },
        "last_games": {
            "type": "array",
            "items": {"type": "object"},
            "description": "table, game, finished_at, result, left, rated, rating_change, "
            "replay, verify",
        },
        "you": {"type": "boolean"},
        "name_change_at": {"type": ["number", "null"], "description": "yours: next allowed"},
        "avatars": {"type": "array", "items": {"type": "string"}, "description": "yours"},
    },
}
_PEOPLE_LIST = {"type": "array", "items": {**PERSON, "properties": {
    **PERSON["properties"], "at": {"type": "number"}}}}  # type: ignore[dict-item]  # fmt: skip
_FRIENDS = {"type": "array", "items": {**PERSON, "properties": {
    **PERSON["properties"], "at": {"type": "number"},  # type: ignore[dict-item]
    "presence": {"type": ["object", "null"], "description": "null when offline; else online "
                 "and where: as the socket's presence message (docs/protocol.md)"}}}}  # fmt: skip
FRIEND_LISTS = {
    "type": "object",
    "properties": {
        "friends": _FRIENDS,
        "incoming": _PEOPLE_LIST,
        "outgoing": _PEOPLE_LIST,
        "blocked": _PEOPLE_LIST,
    },
}
_OTHER = _path("player_id", "the other player's id")
_NAME_ERRORS = "name_too_short, name_too_long, name_bad_character, name_spaces, bad_field"

PEOPLE_PATHS: dict[str, Any] = {
    "/api/leaderboards/{game}": {
        "get": {
            "summary": "A game's leaderboard: all time or this week, by rating or by wins",
            "description": "Only players with enough rated games in the period appear "
            "(min_games). With a session, `me` is the caller's row wherever it falls.",
            "parameters": [
                {**_path("game", "the game"), "schema": {"type": "string", "enum": list(GAMES)}},
                _query("period", {"type": "string", "enum": ["all", "week"]}, "default all"),
                _query("by", {"type": "string", "enum": ["rating", "wins"]}, "default rating"),
                _query("page", {"type": "integer", "minimum": 1}, "from 1"),
                _query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "default 20"),
            ],
            "responses": {
                "200": json_response(BOARD, "the page"),
                **_refused(s404="no_such_game", s422="bad_field"),
            },
        }
    },
    "/api/players/{who}": {
        "get": {
            "summary": "A player's profile, by id or by name (however spelled)",
            "parameters": [_path("who", "a player id or an account name")],
            "responses": {
                "200": json_response(PROFILE, "the profile"),
                **_refused(s404="no_such_player (guests have no profile)"),
            },
        }
    },
    "/api/me": {
        "patch": {
            "summary": "Change one's name (once in 30 days) and/or avatar",
            "security": _SIGNED_IN,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "minLength": 2, "maxLength": 20},
                                "avatar": {"type": "string", "enum": list(AVATARS)},
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": json_response(PROFILE, "the profile as it is now"),
                **_UNAUTHORISED,
                **_refused(
                    s403="guest",
                    s409="name_taken, name_too_soon (with next_at)",
                    s422=f"bad_avatar, {_NAME_ERRORS}",
                ),
            },
        }
    },
    "/api/friends": {
        "get": {
            "summary": "Friends, requests both ways, blocked players",
            "security": _SIGNED_IN,
            "responses": {
                "200": json_response(FRIEND_LISTS, "each list newest first"),
                **_UNAUTHORISED,
                **_refused(s403="guest"),
            },
        },
        "post": {
            "summary": "Ask a player to be friends, by name or id",
            "description": "If they had asked you already, you are friends at once (200).",
            "security": _SIGNED_IN,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string"},
                                "player": {"type": "string"},
                            },
                        }
                    }
                },
            },
            "responses": {
                "201": json_response({"type": "object"}, "status requested, and the player"),
                "200": json_response({"type": "object"}, "status friends, and the player"),
                **_UNAUTHORISED,
                **_refused(
                    s403="blocked, guest",
                    s404="no_such_player",
                    s409="already_friends, already_requested, you_blocked_them",
                    s422="cannot_friend_self, bad_field",
                    s429="too_many (Retry-After)",
                ),
            },
        },
    },
    "/api/friends/requests/{player_id}": {
        "put": {
            "summary": "Accept a player's friend request",
            "security": _SIGNED_IN,
            "parameters": [_OTHER],
            "responses": {**_NO_CONTENT, **_UNAUTHORISED, **_refused(s404="no_such_request")},
        },
        "delete": {
            "summary": "Refuse a player's request, or take back one's own",
            "security": _SIGNED_IN,
            "parameters": [_OTHER],
            "responses": {**_NO_CONTENT, **_UNAUTHORISED, **_refused(s404="no_such_request")},
        },
    },
    "/api/friends/{player_id}": {
        "delete": {
            "summary": "Remove a friend",
            "security": _SIGNED_IN,
            "parameters": [_OTHER],
            "responses": {**_NO_CONTENT, **_UNAUTHORISED, **_refused(s404="not_friends")},
        }
    },
    "/api/blocks/{player_id}": {
        "put": {
            "summary": "Block a player: friendship and requests end, no requests either way",
            "security": _SIGNED_IN,
            "parameters": [_OTHER],
            "responses": {
                **_NO_CONTENT,
                **_UNAUTHORISED,
                **_refused(
                    s403="guest",
                    s404="no_such_player",
                    s409="already_blocked",
                    s422="cannot_block_self",
                ),
            },
        },
        "delete": {
            "summary": "Unblock a player",
            "security": _SIGNED_IN,
            "parameters": [_OTHER],
            "responses": {**_NO_CONTENT, **_UNAUTHORISED, **_refused(s404="not_blocked")},
        },
    },
}
