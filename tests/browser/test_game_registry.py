"""The client knows its games from two registries and from /api/games, and nowhere else.

``games.js`` gives the shared screens (table, waiting room, replay) what they need
of each game, ``verify/games.js`` gives the Verify page its part of each; the
lobby's play-now buttons are made from the games the server lists. A game the
server offers has its entry in both registries, and the shared modules name no game.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Server

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "sahrat" / "web"

#: The modules every game goes through; what differs per game is looked up in a registry.
SHARED = (
    "table-screen.js",
    "replay.js",
    "room.js",
    "lobby.js",
    "verify/checks.js",
    "verify/page.js",
)

#: Each listed game's entries in both registries: which parts are there, and of what type.
REGISTRY_PARTS = """async (names) => {
  const { gameParts } = await import('/static/games.js');
  const { verifyParts } = await import('/static/verify/games.js');
  const kinds = (parts) =>
    Object.fromEntries(Object.entries(parts ?? {}).map(([k, v]) => [k, typeof v]));
  return Object.fromEntries(names.map((name) =>
    [name, { client: kinds(gameParts(name)), verify: kinds(verifyParts(name)) }]));
}"""


def game_names(server: Server) -> list[str]:
    with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as response:
        games: list[dict[str, Any]] = json.loads(response.read())["games"]
    return [game["name"] for game in games]


def test_there_is_a_play_now_button_per_game_the_server_offers(
    open_page: Any, server: Server
) -> None:
    names = game_names(server)
    assert len(names) >= 2
    page = open_page("desktop", lang="en")
    buttons = page.eval_on_selector_all(
        ".hero-actions button",
        "els => els.map(e => [e.dataset.playNow, e.textContent, e.classList.contains('alt')])",
    )
    # Each names its game in the site's words; every other one is in the second colour.
    words = page.evaluate(
        "async (names) => { const { t } = await import('/static/i18n.js');"
        " return names.map((name) => t('lobby.playNow', { game: t('game.' + name) })); }",
        names,
    )
    assert buttons == [[name, words[i], i % 2 == 1] for i, name in enumerate(names)]
    assert "Play now: Jackaroo" in words


def test_every_game_the_server_offers_is_in_both_registries(open_page: Any, server: Server) -> None:
    names = game_names(server)
    page = open_page("desktop")
    parts = page.evaluate(REGISTRY_PARTS, names)
    for name in names:
        client, verify = parts[name]["client"], parts[name]["verify"]
        assert {k: client.get(k) for k in ("Table", "ReplayView", "seatColour")} == {
            "Table": "function",
            "ReplayView": "function",
            "seatColour": "function",
        }, name
        assert {k: verify.get(k) for k in ("seats", "deals", "summary", "optionWords")} == {
            "seats": "function",
            "deals": "function",
            "summary": "string",
            "optionWords": "function",
        }, name


def test_the_shared_modules_name_no_game(server: Server) -> None:
    names = game_names(server)
    for module in SHARED:
        text = (WEB / module).read_text(encoding="utf-8").lower()
        assert [name for name in names if name in text] == [], module
