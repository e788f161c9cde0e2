"""No hand and no server seed ever reaches a spectator: whole games, watched over a real
WebSocket, every message checked.

100 whole games, Jackaroo and Buraco in turn, each at a 2-seat table of one scripted
person (random legal moves, so games run fast) and a bot, with a spectator that
watches from before the first deal to the end. In every message the spectator
receives, a card may stand only where every seat sees it (the discard pile, the
melds, the last moves in words); no hand is anything but a count; the cards the
person holds at that moment appear nowhere; and the server seed (revealed at the end)
appears in no message before the one that shows the finished table.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.server.conftest import close_all, people, shared_server
from tests.server.harness import Server, run

#: Among the longest files: started first, so the parallel run ends together.
pytestmark = pytest.mark.long

GAMES = 100
AT_ONCE = 8
CARD = re.compile(r"^(?:[A2-9TJQK][SHDC]|JK)$")
#: Where a card may stand in a spectator's ``table`` message: what every seat sees.
PUBLIC_PLACES = (("view", "discard"), ("view", "discard_pile"), ("view", "melds"), ("last",))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    settings = {"autofill_seconds": 0.0, "hand_pause_seconds": 0.0, "finished_linger": 2.0}
    with shared_server(tmp_path_factory, **settings) as server:
        yield server


@dataclass
class Watched:
    game: str
    spectator: list[str]  # every text the spectator received, in order
    hands: dict[int, set[str]] = field(default_factory=dict)  # the person's cards by seq
    server_seed: str = ""


def tokens(text: str) -> set[str]:
    return set(re.split(r"[^A-Za-z0-9]+", text))


def cards_at(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every card code in a message, with where it stands."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from cards_at(item, (*path, str(key)))
    elif isinstance(value, list):
        for item in value:
            yield from cards_at(item, path)
    elif isinstance(value, str):
        for token in tokens(value):
            if CARD.match(token):
                yield path, token


def own_cards(state: dict[str, Any]) -> set[str]:
    view = state.get("view") or {}
    if isinstance(view.get("hand"), list):
        return set(view["hand"])
    hand = (view.get("hands") or {}).get(str(state["you"]))
    return set(hand) if isinstance(hand, list) else set()


async def one_game(server: Server, game: str, rng: random.Random) -> Watched:
    person, spectator = await people(server, 2)
    await person.send(type="create", game=game, seats=2)
    table_id = (await person.expect("table"))["table"]["id"]
    await spectator.send(type="watch", table=table_id)
    await spectator.expect("table")
    await person.send(type="bots")
    await person.expect("seed_request")
    await person.send(type="seed", seed=f"seed-{rng.random()}")
    watched = Watched(game, spectator.received)
    acted = -1
    state = await person.expect("table", lambda m: m["table"]["status"] == "playing", timeout=30)
    while "result" not in state:
        watched.hands[state["seq"]] = own_cards(state)
        legal = state.get("legal")
        if legal and state["moves"] > acted and state["to_move"] == state["you"]:
            acted = state["moves"]
            await person.send(type="act", action=rng.choice(legal), moves=state["moves"])
        state = await person.expect("table", timeout=60)
    final = await spectator.expect("table", lambda m: "server_seed" in m, timeout=30)
    watched.server_seed = final["server_seed"]
    await close_all(person, spectator)
    return watched


@pytest.fixture(scope="module")
def watched(server: Server) -> list[Watched]:
    async def scenario() -> list[Watched]:
        rng = random.Random(2026)
        games = ["jackaroo" if i % 2 == 0 else "buraco" for i in range(GAMES)]
        out: list[Watched] = []
        for start in range(0, GAMES, AT_ONCE):
            batch = games[start : start + AT_ONCE]
            seeded = [random.Random(rng.random()) for _ in batch]
            out += await asyncio.gather(
                *(one_game(server, g, r) for g, r in zip(batch, seeded, strict=True))
            )
        return out

    return run(scenario(), timeout=1800)  # type: ignore[no-any-return]


def table_messages(w: Watched) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, w.spectator) if m["type"] == "table"]


def test_every_game_was_watched_to_its_end(watched: list[Watched]) -> None:
    assert len(watched) == GAMES
    assert {w.game for w in watched} == {"jackaroo", "buraco"}
    for w in watched:
        messages = table_messages(w)
        assert messages[-1]["table"]["status"] == "finished"
        assert len(messages) > 20  # every move of a whole game reached the spectator


def test_a_spectator_is_sent_no_hand_and_no_legal_moves(watched: list[Watched]) -> None:
    for w in watched:
        for message in table_messages(w):
            assert message["spectator"] is True and message["you"] is None
            assert "legal" not in message
            view = message.get("view")
            if view is None:
                continue
            assert view["seat"] is None
            if "hand" in view:
                assert view["hand"] == []
            for count in (view.get("hands") or {}).values():
                assert isinstance(count, int)
            assert not isinstance(view.get("stock"), list)


def test_a_card_reaches_a_spectator_only_where_every_seat_sees_it(
    watched: list[Watched],
) -> None:
    for w in watched:
        for text in w.spectator:
            for path, card in cards_at(json.loads(text)):
                assert any(path[: len(p)] == p for p in PUBLIC_PLACES), (w.game, path, card)


def test_no_card_the_person_holds_reaches_the_spectator(watched: list[Watched]) -> None:
    checked = 0
    for w in watched:
        if w.game != "jackaroo":
            continue  # Buraco's two decks repeat every card: the places above cover it
        for message in table_messages(w):
            held = w.hands.get(message["seq"])
            if held:
                # The last moves may name a card played before the deck was dealt again.
                found = {card for path, card in cards_at(message) if path[:1] != ("last",)}
                assert not held & found, (message["seq"], held & found)
                checked += 1
    assert checked > 100


def test_the_server_seed_reaches_a_spectator_only_with_the_finished_table(
    watched: list[Watched],
) -> None:
    for w in watched:
        assert len(w.server_seed) == 64
        for text in w.spectator:
            message = json.loads(text)
            finished = message["type"] == "table" and message["table"]["status"] == "finished"
            if not finished:
                assert w.server_seed not in text


def test_a_spectator_is_sent_nothing_meant_for_the_seats_alone(watched: list[Watched]) -> None:
    # No seed request, rematch, player_left or team line: only what any watcher may see.
    allowed = {"welcome", "chat_history", "table", "chat", "react", "ping", "pong"}
    for w in watched:
        kinds = {json.loads(text)["type"] for text in w.spectator}
        assert kinds <= allowed, kinds - allowed
