"""A game played to its end over a WebSocket beside the browser: something to watch,
or a record to replay, without a person clicking through a whole game."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from tests.server.harness import Player, Server, run


class BotGame:
    """A 2-seat public table played to its end by a scripted person and a bot, in a
    thread of its own; it waits for ``go`` before its first move."""

    def __init__(self, server: Server, game: str) -> None:
        self.server = server
        self.game = game
        self.table_id = ""
        self.opened = threading.Event()
        self.go = threading.Event()
        self.result: dict[str, Any] | None = None
        self.thread = threading.Thread(target=lambda: run(self.play(), timeout=300))

    async def play(self) -> None:
        person = Player(self.server, "Salem")
        await person.connect()
        await person.send(type="create", game=self.game, seats=2)
        self.table_id = (await person.expect("table"))["table"]["id"]
        await person.send(type="bots")
        await person.expect("seed_request")
        await person.send(type="seed", seed="browser-watch")
        state = await person.expect("table", lambda m: m["table"]["status"] == "playing")
        self.opened.set()
        while not self.go.is_set():
            await asyncio.sleep(0.05)
        rng, acted = random.Random(5), -1
        while "result" not in state:
            legal = state.get("legal")
            if legal and state["moves"] > acted and state["to_move"] == state["you"]:
                acted = state["moves"]
                await person.send(type="act", action=rng.choice(legal), moves=state["moves"])
            state = await person.expect("table", timeout=60)
        self.result = state
        await person.close()

    def __enter__(self) -> BotGame:
        self.thread.start()
        assert self.opened.wait(60), "the game did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.go.set()
        self.thread.join(300)
