"""The lobby's table form offers exactly the games, seats, presets and choices of /api/games.

The server lists each game's catalogue (its seat counts, every option with its
allowed values, the presets and the defaults); the client builds its form and its
rules summaries from that list and keeps no copy of its own.
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


def catalogue(server: Server) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as response:
        games: list[dict[str, Any]] = json.loads(response.read())["games"]
    return games


def as_js(value: object) -> str:
    """A value as the page writes it into an attribute (JavaScript's String(value))."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def attrs(page: Any, selector: str, name: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector, f"els => els.map(e => e.getAttribute('{name}'))"
    )
    return found


def select_state(page: Any, scope: str, name: str) -> tuple[list[str], str]:
    """The values a select offers, in order, and the one selected."""
    select = f".create-form {scope} select[name={name}]"
    return attrs(page, f"{select} option", "value"), page.input_value(select)


def test_the_create_form_offers_what_the_server_lists(open_page: Any, server: Server) -> None:
    games = catalogue(server)
    page = open_page("desktop", lang="en")
    assert attrs(page, ".create-form [data-game]", "data-game") == [g["name"] for g in games]
    for game in games:
        page.click(f".create-form [data-game={game['name']}]")
        assert attrs(page, ".create-form [data-seats]", "data-seats") == [
            str(n) for n in game["seats"]
        ]
        # The seat count of a table made with no options is the one chosen at first.
        seats = game["defaults"][game["seat_option"]]
        assert page.get_attribute(".create-form [data-seats][aria-checked=true]", "data-seats") == (
            str(seats)
        )
        choices = game["choices"]
        if game["presets"]:
            assert attrs(page, ".create-form [data-preset]", "data-preset") == list(game["presets"])
            default = game["defaults"].get("preset", game["default_preset"])
            assert page.get_attribute(".create-form .preset.on", "data-preset") == default
            page.locator(".create-form .rules-details summary").click()
            assert attrs(page, ".create-form .rules-details select", "name") == list(choices)
            for name, preset in game["presets"].items():
                page.click(f".create-form [data-preset={name}]")
                for option, values in choices.items():
                    offered, chosen = select_state(page, ".rules-details", option)
                    assert offered == [as_js(v) for v in values], (name, option)
                    assert chosen == as_js(preset[option]), (name, option)
        else:
            assert attrs(page, ".create-form .rules-list select", "name") == list(choices)
            for option, values in choices.items():
                offered, chosen = select_state(page, ".rules-list", option)
                assert offered == [as_js(v) for v in values], option
                assert chosen == as_js(game["defaults"].get(option, values[0])), option


def test_a_table_made_from_the_form_is_summed_up_in_the_rules_words(open_page: Any) -> None:
    # Private tables, so that no other test's "Play now" is seated at them.
    # A preset and one option changed: the table's header names both.
    page = open_page("desktop", lang="en")
    page.click(".create-form [data-game=jackaroo]")
    page.click(".create-form [data-preset=classic]")
    page.locator(".create-form .rules-details summary").click()
    page.select_option(".create-form select[name=king]", "sweep")
    page.check(".create-form input[name=private]")
    page.click(".create-form [data-action=create]")
    page.wait_for_selector("#table .room")
    rules = page.text_content(".table-head .rules")
    assert rules == "Classic Jackaroo · The King captures every marble it passes"
    # A game without presets: its target always, then what differs from the defaults.
    other = open_page("desktop", lang="en")
    other.click(".create-form [data-game=buraco]")
    other.select_option(".create-form select[name=target]", "1000")
    other.select_option(".create-form select[name=closed]", "true")
    other.click(".create-form [data-seats='2']")
    other.check(".create-form input[name=private]")
    other.click(".create-form [data-action=create]")
    other.wait_for_selector("#table .room")
    assert other.text_content(".table-head .rules") == "to 1000 · closed"
    assert other.locator("#table .room-seat").count() == 2


def test_no_rules_are_copied_into_the_client(server: Server) -> None:
    # Preset names and option values live in the engines and reach the client through
    # /api/games; the client's sources name none of them (the words that are not also
    # plain English, such as "move-or-burn" or "classic").
    written = set()
    for game in catalogue(server):
        written |= set(game["presets"])
        written |= {v for values in game["choices"].values() for v in values
                    if isinstance(v, str) and "-" in v}  # fmt: skip
    assert "move-or-burn" in written and "classic" in written
    for name in ("rules.js", "lobby.js"):
        text = (WEB / name).read_text(encoding="utf-8")
        assert sorted(word for word in written if word in text) == [], name
