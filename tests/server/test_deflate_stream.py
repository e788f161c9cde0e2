"""The server's deflate stream, whichever zlib writes it (stock zlib, or zlib-ng), is
read by a stock inflater in the window both sides agreed on: message after message,
with the context kept, each fresh compressor primed with the message before it."""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections.abc import Iterator

import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from sahrat.server.compression import (
    PLAIN_BELOW,
    SERVER_WINDOW_BITS,
    PrimedDeflate,
    choose_deflater,
)


def messages() -> list[bytes]:
    """Like a game's: each message repeats most of the one before it."""
    rng = random.Random(5)
    out = []
    last: list[str] = []
    for n in range(300):
        hand = [rng.choice("A23456789TJQK") + rng.choice("SHDC") for _ in range(5)]
        last = [*last, f"move {rng.randrange(10**6)}"][-rng.randrange(45, 90) :]
        view = {"moves": n, "hand": hand, "last": last}
        out.append(json.dumps({"type": "table", "view": view}).encode())
    noise = bytes(rng.getrandbits(8) for _ in range(9000))
    # Larger than the window, a repeat 9000 bytes back, small frames between.
    out += [noise * 3, b"ping", noise[:100] * 2, noise[:700], b"pong", noise[:700]]
    return out


@pytest.fixture(params=["zlib", "zlib-ng"])
def deflater(request: pytest.FixtureRequest) -> Iterator[str]:
    assert choose_deflater(request.param) == request.param
    try:
        yield request.param
    finally:
        choose_deflater("zlib")


def pair(
    local_bits: int = SERVER_WINDOW_BITS, no_context: bool = False
) -> tuple[PrimedDeflate, PerMessageDeflate]:
    """The server's extension and a client's, as a handshake would make them."""
    server = PrimedDeflate(False, no_context, 12, local_bits)
    client = PerMessageDeflate(no_context, False, local_bits, 12)
    return server, client


def test_a_stock_inflater_in_the_agreed_window_reads_every_message(deflater: str) -> None:
    server, client = pair()
    compressed = sent = alone = 0
    for data in messages():
        frame = server.encode(Frame(Opcode.TEXT, data))
        compressed += frame.rsv1
        assert frame.rsv1 == (len(data) >= PLAIN_BELOW)
        assert client.decode(frame).data == data
        # Between messages the connection keeps no compressor, only the last text's end.
        assert len(server.history) <= 1 << SERVER_WINDOW_BITS
        if frame.rsv1:
            assert data.endswith(server.history)
            sent += len(frame.data)
            alone += len(zlib.compress(data, 9, wbits=-SERVER_WINDOW_BITS))
    assert compressed > 250
    assert not hasattr(server, "encoder")
    # Referring to the message before, it writes far less than each message on its own.
    assert sent < alone / 2, (sent, alone)


@pytest.mark.parametrize("bits", [9, 10, 15])
def test_any_window_the_client_asks_for(deflater: str, bits: int) -> None:
    server, client = pair(local_bits=bits)
    for data in messages():
        assert client.decode(server.encode(Frame(Opcode.TEXT, data))).data == data
    assert len(server.history) <= 1 << bits


def test_without_context_takeover_every_message_stands_alone(deflater: str) -> None:
    server, _ = pair(no_context=True)
    for data in messages():
        frame = server.encode(Frame(Opcode.TEXT, data))
        assert server.history == b""
        if frame.rsv1:  # a fresh inflater reads it: it refers to nothing before it
            inflater = zlib.decompressobj(-SERVER_WINDOW_BITS)
            assert inflater.decompress(frame.data + b"\x00\x00\xff\xff") == data


def test_a_message_in_fragments(deflater: str) -> None:
    server, client = pair()
    whole = messages()[200:203]
    frames = [
        Frame(Opcode.TEXT, whole[0]),
        Frame(Opcode.TEXT, whole[1][:10], fin=False),
        Frame(Opcode.CONT, whole[1][10:2000], fin=False),
        Frame(Opcode.CONT, whole[1][2000:]),
        Frame(Opcode.TEXT, whole[2]),
    ]
    encoded = [server.encode(frame) for frame in frames]
    # RSV1 on the first frame of each compressed message only.
    assert [frame.rsv1 for frame in encoded] == [True, True, False, False, True]
    decoded = [client.decode(frame).data for frame in encoded]
    assert decoded[0] == whole[0]
    assert b"".join(decoded[1:4]) == whole[1]
    assert decoded[4] == whole[2]
    assert server.history == whole[2]


def test_auto_takes_zlib_ng_when_it_is_installed_and_stock_zlib_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    try:
        assert choose_deflater("auto") == "zlib-ng"
        monkeypatch.setitem(sys.modules, "zlib_ng", None)  # as if it were not installed
        assert choose_deflater("auto") == "zlib"
        assert PrimedDeflate.deflater is zlib
        with pytest.raises(ImportError):
            choose_deflater("zlib-ng")
    finally:
        choose_deflater("zlib")
