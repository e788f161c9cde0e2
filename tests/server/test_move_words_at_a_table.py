"""The last moves a table sends, in words: the bots' names carry a gender and the Arabic
agrees with it; no square or engine notation reaches a seat."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sahrat.speech import BUILT_IN_NAMES, FEMININE
from tests.server.conftest import close_all, people, play, shared_server
from tests.server.harness import Server, run
from tests.test_move_words import NOTATION

#: On SQLite and on PostgreSQL.
pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory, backend) as server:
        yield server


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_the_bots_moves_agree_with_their_names(server: Server, game: str) -> None:
    genders = dict(BUILT_IN_NAMES)

    async def scenario() -> None:
        (player,) = await people(server, 1)
        await player.send(type="create", game=game, seats=4)
        await player.expect("table")
        await player.send(type="bots")
        await player.expect("seed_request")
        await player.send(type="seed", seed="seed-p0")
        said: list[dict[str, str]] = []
        seen: set[int] = set()

        def three_bots_moved(state: dict[str, object]) -> bool:
            last = state.get("last") or []
            assert isinstance(last, list)
            for entry in last:
                seen.add(entry["seat"])
                said.append(entry["words"])
            return len(seen - {state["you"]}) >= 3

        final = await play(player, three_bots_moved, random.Random(3))
        names = {seat["seat"]: seat["name"] for seat in final["seats"]}
        bots = {seat["seat"] for seat in final["seats"] if seat.get("bot")}
        assert len(bots) == 3 and all(names[n] in genders for n in bots), names
        assert {genders[names[n]] for n in bots} == {"m", "f"}  # both kinds are checked
        for words in said:
            assert not NOTATION.search(words["en"]) and not NOTATION.search(words["ar"]), words
            name = next(n for n in names.values() if words["ar"].startswith(n + " "))
            verb = words["ar"].removeprefix(name + " ").split()[0]
            assert verb.endswith("ت") == (genders.get(name) == FEMININE), words
        await close_all(player)

    run(scenario(), timeout=120)
