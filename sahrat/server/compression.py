"""permessage-deflate where it pays: small frames go out plain.

Browsers ask for permessage-deflate, and a table message (seats, the view,
the last moves in two languages: a few kilobytes of JSON) shrinks to a
third, which matters on a phone's network. A frame under
:data:`PLAIN_BELOW` bytes — a heartbeat, a pong, a chat line, an error —
gains at most a few hundred bytes, all of it inside the one TCP segment it
takes anyway, while compressing it costs a zlib call per socket: with
hundreds of sockets pinged every 1.5 s those calls were a tenth of the
server's time. RFC 7692 lets any message go uncompressed (RSV1 unset), and
skipping one leaves the shared compression context untouched, so the client
needs nothing.

Uvicorn builds its WebSocket protocol with websockets' own deflate factory;
:class:`DeflateWherePays` is that protocol with this extension instead. It
also offers the application a synchronous send (:data:`SEND_NOW` in the ASGI
scope's ``extensions``): a message framed and handed to the socket at once,
without the ASGI ``send`` coroutine and a writer task's wake-up per message,
which were a fifth of the server's time per move.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Sequence
from typing import Any, ClassVar

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

#: Frames smaller than this are sent uncompressed.
PLAIN_BELOW = 512
#: zlib's level. A table message repeats much of the one before it: with the context kept
#: between messages, the default level 6 finds those long matches and writes a third of
#: what level 1 does (4.8 % of the text against 13 %, on a Jackaroo game's messages of
#: 3.7 kB), in the same time or less (about 20 µs a message here), since it has less
#: to write; levels 4 to 9 are within a few percent of it.
LEVEL = 6
#: With zlib-ng (``sahrat serve --deflate zlib-ng``, the ``fast`` extra), its level 1:
#: 5.7 µs a message against stock zlib's 19 µs at level 6, for 15.9 % of the text
#: against 4.8 % (590 bytes of a 3.7 kB message instead of 180). Not the default: a
#: zlib-ng compressor holds about 155 kB whatever its memLevel, stock zlib's 54 kB (in
#: the window below), about 400 kB more per four-seat table, for some 8 % of a move's CPU.
FAST_LEVEL = 1
#: The server's deflate window, in bits. A table message repeats most of the one before
#: it, but only what lies within the window (less zlib's 262-byte lookahead) can be
#: referred to: a Jackaroo message of 3.7 kB is at the edge of a 12-bit window (3,834
#: bytes), and each one larger than that is compressed without the last as its
#: dictionary. At 13 bits a game's messages deflate to 3.7 % of their text instead of
#: 7.0 %, in 28 µs instead of 37 µs, for 16 kB more per socket (54 kB in all with
#: memLevel 5, against 38); the client's inflater keeps an 8 kB window instead of 4. The
#: client's own window (what it sends: short commands) stays at uvicorn's 12 bits.
SERVER_WINDOW_BITS = 13
#: The key of the scope's ``extensions`` holding ``{"send": send_text_now}``.
SEND_NOW = "sahrat.send_text_now"


def use_zlib_ng(enabled: bool) -> None:
    """Deflate with zlib-ng's level 1 from now on (or stock zlib again); ImportError if
    it is not installed."""
    if enabled:
        from zlib_ng import zlib_ng

        PlainWhenSmall.fast_zlib = zlib_ng
    else:
        PlainWhenSmall.fast_zlib = None


class PlainWhenSmall(PerMessageDeflate):
    """permessage-deflate that leaves a small single-frame message uncompressed, and
    deflates the others with zlib-ng when :func:`use_zlib_ng` chose it."""

    #: zlib-ng's module when :func:`use_zlib_ng` chose it; stock zlib at LEVEL else.
    fast_zlib: ClassVar[Any] = None

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        fast_zlib = self.fast_zlib
        if fast_zlib is not None and not self.local_no_context_takeover:
            # A raw stream (negative window bits) within the negotiated window, which any
            # inflater reads; without context takeover each message makes a stock encoder.
            memory = self.compress_settings.get("memLevel", 8)
            self.encoder: Any = fast_zlib.compressobj(
                FAST_LEVEL, zlib.DEFLATED, -self.local_max_window_bits, memory
            )

    def encode(self, frame: Frame) -> Frame:
        small = frame.fin and frame.opcode is not Opcode.CONT and len(frame.data) < PLAIN_BELOW
        if small or frame.opcode in CTRL_OPCODES:
            return frame
        return super().encode(frame)


class PlainWhenSmallFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Any]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, deflate = super().process_request_params(params, accepted_extensions)
        plain_when_small = PlainWhenSmall(
            deflate.remote_no_context_takeover,
            deflate.local_no_context_takeover,
            deflate.remote_max_window_bits,
            deflate.local_max_window_bits,
            deflate.compress_settings,
        )
        return response, plain_when_small


class DeflateWherePays(WebSocketsSansIOProtocol):
    """Uvicorn's sans-I/O WebSocket protocol, with :class:`PlainWhenSmallFactory`."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        extensions: list[ServerExtensionFactory] = []
        if config.ws_per_message_deflate:
            extensions.append(
                PlainWhenSmallFactory(
                    server_max_window_bits=SERVER_WINDOW_BITS,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": LEVEL},
                )
            )
        self.conn = ServerProtocol(
            extensions=extensions,
            max_size=config.ws_max_size,
            logger=logging.getLogger("uvicorn.error"),
        )

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = {"send": self.send_text_now}

    def send_text_now(self, text: str | bytes) -> bool:
        """Frame ``text`` (a ``str``, or already UTF-8) and hand it to the socket now, if
        the connection is open and its buffer is below the high-water mark; False when the
        caller must use the ASGI ``send`` (which waits for the buffer to drain, and reports
        a closed connection)."""
        if (
            not self.handshake_complete
            or self.disconnected
            or self.close_sent
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        try:
            self.conn.send_text(text if isinstance(text, bytes) else text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
