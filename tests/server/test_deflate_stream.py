"""The server's deflate stream, whichever zlib writes it (stock zlib, or zlib-ng), is
read by a stock zlib inflater in the window both sides agreed on: message after
message, with the context kept, including repeats farther back than the window."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from sahrat.server.compression import (
    LEVEL,
    PLAIN_BELOW,
    SERVER_WINDOW_BITS,
    PlainWhenSmall,
    use_zlib_ng,
)


def messages() -> list[bytes]:
    rng = random.Random(5)
    out = []
    for n in range(300):
        hand = [rng.choice("A23456789TJQK") + rng.choice("SHDC") for _ in range(5)]
        last = [f"move {rng.randrange(10**6)}" for _ in range(rng.randrange(45, 90))]
        view = {"moves": n, "hand": hand, "last": last}
        out.append(json.dumps({"type": "table", "view": view}).encode())
    noise = bytes(rng.getrandbits(8) for _ in range(9000))
    out += [noise * 3, b"ping", noise[:100] * 2]  # a repeat 9000 bytes back; small frames
    return out


@pytest.fixture(params=["zlib", "zlib-ng"])
def deflater(request: pytest.FixtureRequest) -> Iterator[str]:
    use_zlib_ng(request.param == "zlib-ng")
    try:
        yield request.param
    finally:
        use_zlib_ng(False)


def test_a_stock_inflater_in_the_agreed_window_reads_every_message(deflater: str) -> None:
    server = PlainWhenSmall(False, False, 12, SERVER_WINDOW_BITS, {"memLevel": 5, "level": LEVEL})
    assert (server.fast_zlib is not None) == (deflater == "zlib-ng")
    client = PerMessageDeflate(False, False, SERVER_WINDOW_BITS, 12)
    compressed = 0
    for data in messages():
        frame = server.encode(Frame(Opcode.TEXT, data))
        compressed += frame.rsv1
        assert frame.rsv1 == (len(data) >= PLAIN_BELOW)
        assert client.decode(frame).data == data
    assert compressed > 250
