"""The REST API's OpenAPI description, served at ``/openapi.json``.

Play itself goes over the WebSocket at ``/ws`` (``docs/protocol.md``); REST
covers accounts, sessions and coins (:mod:`~sahrat.server.openapi_accounts`), the
lobby listing and the records.
"""

from __future__ import annotations

from typing import Any

from sahrat.games import GAMES
from sahrat.server.openapi_accounts import ACCOUNT_PATHS, ERROR, PLAYER, json_response
from sahrat.server.openapi_people import PEOPLE_PATHS

_TABLE = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string", "enum": list(GAMES)},
        "options": {"type": "object"},
        "seats": {"type": "integer", "enum": [2, 4]},
        "free": {"type": "integer"},
        "kind": {"type": "string", "enum": ["free", "coin", "private"]},
        "stake": {"type": "integer", "description": "coins each seat stakes; 0: free"},
        "pot": {"type": "integer"},
        "turn_seconds": {"type": "number"},
        "status": {"type": "string", "enum": ["waiting", "seeding", "playing", "finished"]},
        "players": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["id", "game", "options", "seats", "free", "kind", "turn_seconds", "status"],
}


_GAME = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "seats": {"type": "array", "items": {"type": "integer"}},
        "seat_option": {"type": "string"},
        "choices": {"type": "object", "additionalProperties": {"type": "array"}},
        "presets": {"type": "object", "additionalProperties": {"type": "object"}},
        "default_preset": {"type": ["string", "null"]},
        "defaults": {"type": "object"},
    },
    "required": [
        "name",
        "seats",
        "seat_option",
        "choices",
        "presets",
        "default_preset",
        "defaults",
    ],
}

_TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}


OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Sahrat",
        "version": "1",
        "description": "Jackaroo and Buraco tables. Play goes over the WebSocket /ws "
        "(docs/protocol.md); this API covers accounts, sessions, coins, the lobby and "
        "game records.",
    },
    "components": {
        "securitySchemes": {"session": {"type": "http", "scheme": "bearer"}},
        "schemas": {"Error": ERROR, "Player": PLAYER, "Table": _TABLE, "Game": _GAME},
    },
    "paths": {
        "/api/health": {
            "get": {
                "summary": "Is the server up",
                "responses": {"200": json_response({"type": "object"}, "up, with the table count")},
            }
        },
        "/api/guest": {
            "post": {
                "summary": "Play at once as a guest",
                "description": "A new player with a generated (or the given) name, and the "
                "signed session token that brings the same player back.",
                "requestBody": {
                    "required": False,
                    "content": {
                        "application/json": {
                            "schema": {"type": "object", "properties": {"name": {"type": "string"}}}
                        }
                    },
                },
                "responses": {
                    "200": json_response(
                        {
                            "type": "object",
                            "properties": {"token": {"type": "string"}, "player": PLAYER},
                        },
                        "the guest",
                    ),
                    "400": json_response(ERROR, "the body is not JSON"),
                },
            }
        },
        "/api/games": {
            "get": {
                "summary": "The games, with their seat counts, options, presets and defaults",
                "responses": {
                    "200": json_response(
                        {
                            "type": "object",
                            "properties": {"games": {"type": "array", "items": _GAME}},
                        },
                        "every game a table can play",
                    )
                },
            }
        },
        "/api/tables": {
            "get": {
                "summary": "Live public tables (the lobby)",
                "responses": {
                    "200": json_response(
                        {
                            "type": "object",
                            "properties": {"tables": {"type": "array", "items": _TABLE}},
                        },
                        "the tables",
                    )
                },
            }
        },
        "/api/tables/{table_id}": {
            "get": {
                "summary": "One public table",
                "parameters": [_TABLE_ID],
                "responses": {
                    "200": json_response(_TABLE, "the table"),
                    "404": json_response(ERROR, "no such table"),
                },
            }
        },
        "/api/records/{table_id}/replay": {
            "get": {
                "summary": "A finished game, frame by frame, every hand visible",
                "parameters": [_TABLE_ID],
                "responses": {
                    "200": json_response(
                        {
                            "type": "object",
                            "properties": {
                                "game": {"type": "string"},
                                "players": {"type": "array"},
                                "frames": {"type": "array", "items": {"type": "object"}},
                            },
                        },
                        "the frames: index, seat, action, words, position",
                    ),
                    "404": json_response(ERROR, "no finished game"),
                },
            }
        },
        **ACCOUNT_PATHS,
        "/api/records/{table_id}": {
            "get": {
                "summary": "A game's record (fairness.md §4)",
                "description": "A finished game's full record with the server seed; for a "
                "running game, the record so far without shuffles, deals or the seed.",
                "parameters": [_TABLE_ID],
                "responses": {
                    "200": json_response({"type": "object"}, "the record"),
                    "404": json_response(ERROR, "no record"),
                },
            }
        },
    },
}

# Leaderboards, profiles and friends, merged operation by operation (``/api/me`` has both
# the accounts' GET and the profile's PATCH).
for _route, _operations in PEOPLE_PATHS.items():
    OPENAPI["paths"][_route] = {**OPENAPI["paths"].get(_route, {}), **_operations}
