"""permessage-deflate where it pays: a browser that asks for it gets small frames plain
and large ones compressed, and reads both."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

from sahrat.server.compression import PLAIN_BELOW
from tests.server.conftest import shared_server
from tests.server.harness import Server, run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory) as server:
        yield server


#: (size, compressed) of every text frame the client received.
Seen = list[tuple[int, bool]]


class Watching(PerMessageDeflate):
    seen: Seen

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        decoded = super().decode(frame, max_size=max_size)
        if frame.opcode is Opcode.TEXT:
            self.seen.append((len(decoded.data), frame.rsv1))
        return decoded


class WatchingFactory(ClientPerMessageDeflateFactory):
    def __init__(self, seen: Seen) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen = seen

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Any]
    ) -> PerMessageDeflate:
        deflate = super().process_response_params(params, accepted_extensions)
        watching = Watching(
            deflate.remote_no_context_takeover,
            deflate.local_no_context_takeover,
            deflate.remote_max_window_bits,
            deflate.local_max_window_bits,
            deflate.compress_settings,
        )
        watching.seen = self.seen
        return watching


def test_small_frames_go_plain_and_large_ones_compressed(server: Server) -> None:
    async def scenario() -> Seen:
        seen: Seen = []
        async with connect(server.ws_url, extensions=[WatchingFactory(seen)],
                           compression=None) as ws:  # fmt: skip
            await ws.send('{"v":1,"type":"hello","name":"Deflate"}')
            await ws.recv()  # welcome
            await ws.send('{"v":1,"type":"create","game":"jackaroo","seats":4}')
            # Bots in the free seats: the table messages of a game grow past PLAIN_BELOW.
            await ws.send('{"v":1,"type":"bots"}')
            while not any(size >= PLAIN_BELOW for size, _ in seen):
                await ws.recv()
        return seen

    seen = run(scenario())
    assert seen and all(compressed == (size >= PLAIN_BELOW) for size, compressed in seen), seen
    assert any(not compressed for _, compressed in seen)
