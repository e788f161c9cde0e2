"""permessage-deflate where it pays, with no compressor kept between messages.

Browsers ask for permessage-deflate, and a table message (seats, the view,
the last moves in two languages: about 3 kB of JSON) deflates to about 6 % of
its text when it may refer to the message before it, which matters on a
phone's network. Two choices make that cheap for the server:

- **Small frames go out plain.** A frame under :data:`PLAIN_BELOW` bytes (a
  heartbeat, a pong, a chat line, an error) gains at most a few hundred bytes,
  all inside the one TCP segment it takes anyway. RFC 7692 lets any message go
  uncompressed (RSV1 unset), and the client's inflater never sees it.
- **No compressor lives between messages.** With the context kept, the
  client's inflater holds the last 2^bits bytes it inflated, and the server
  may refer to any of them. Rather than keep a compressor per connection for
  that (48 kB with stock zlib, 168 kB with zlib-ng), each compressed message is
  deflated by a fresh compressor primed with the text of the last compressed
  message on that connection (``zdict``), which is what the inflater's window
  ends with. Priming hashes every position of that text, where a compressor
  kept at a fast level skips most positions inside long matches, so a fresh one
  at a fast level finds the repeats nearly as well as a kept one at level 6. On
  a captured Jackaroo game's messages (3.1 kB each), per message: stock zlib
  kept at level 6, 17.2 µs and 4.0 % of the text; fresh at level 2, 12.3 µs and
  5.1 %; zlib-ng fresh at level 1, 6.8 µs and 5.8 %. In the server the gain is
  larger still: a fresh compressor's state is in the cache, and a hundred kept
  ones were not (deflate fell from 27 % to 6 % of the server's samples at think
  0). A connection holds only the last message's text, which the server has
  built anyway.

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
from types import ModuleType
from typing import Any

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
#: The server's deflate window, in bits: what the client's inflater keeps, and so how
#: far back a message may refer. A Jackaroo message of 3.1 kB, or a Buraco one (4.5 kB,
#: 6.4 kB at most in a captured game), fits whole with zlib's 262-byte lookahead. The
#: client's own window (what it sends: short commands) stays at uvicorn's 12 bits.
SERVER_WINDOW_BITS = 13
#: memLevel of stock zlib's compressor: a hash of 2^(5+7) entries, cleared for each
#: message, is plenty for a text of a few kilobytes.
MEM_LEVEL = 5
#: The level of each deflater, fresh for every message: stock zlib's fast levels
#: (1-3) cost the same here and 2 writes the least; zlib-ng's level 1 is its quick
#: deflate, at half the time of its level 2 for 0.6 % more of the text.
LEVELS = {"zlib": 2, "zlib-ng": 1}
#: The key of the scope's ``extensions`` holding ``{"send": send_text_now}``.
SEND_NOW = "sahrat.send_text_now"
#: The bytes a sync flush ends with, which permessage-deflate leaves out.
_FLUSH_MARK = b"\x00\x00\xff\xff"


def choose_deflater(name: str) -> str:
    """Deflate with ``name`` from now on: "zlib", "zlib-ng", or "auto" (zlib-ng when it
    is installed, else stock zlib). Returns the one chosen; ImportError if "zlib-ng" was
    asked for and is not installed."""
    module: ModuleType = zlib
    if name != "zlib":
        try:
            from zlib_ng import zlib_ng
        except ImportError:
            if name == "zlib-ng":
                raise
            name = "zlib"
        else:
            module, name = zlib_ng, "zlib-ng"
    PrimedDeflate.deflater, PrimedDeflate.level = module, LEVELS[name]
    return name


class PrimedDeflate(PerMessageDeflate):
    """permessage-deflate that leaves a small single-frame message uncompressed, and
    deflates each other message with a fresh compressor primed with the last one."""

    #: The zlib module that deflates, and its level (:func:`choose_deflater`).
    deflater: ModuleType = zlib
    level: int = LEVELS["zlib"]

    def __init__(
        self,
        remote_no_context_takeover: bool,
        local_no_context_takeover: bool,
        remote_max_window_bits: int,
        local_max_window_bits: int,
        compress_settings: dict[Any, Any] | None = None,
    ) -> None:
        # Told "no context takeover", the parent makes no compressor of its own (one for
        # the connection's whole life); the setting negotiated is restored just after.
        super().__init__(
            remote_no_context_takeover,
            True,
            remote_max_window_bits,
            local_max_window_bits,
            compress_settings,
        )
        self.local_no_context_takeover = local_no_context_takeover
        #: The end of the text the client's inflater last produced (empty without
        #: context takeover, where it starts afresh each message).
        self.history = b""
        #: The compressor of a message sent in fragments, until its last frame.
        self.fragmented: Any = None
        self.fragments = b""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES:
            return frame
        data = bytes(frame.data)
        first = frame.opcode is not Opcode.CONT
        if first and frame.fin:
            if len(data) < PLAIN_BELOW:
                return frame
            encoder = self._primed()
        elif first:
            encoder = self.fragmented = self._primed()
        else:
            encoder = self.fragmented
        out = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        window = 1 << self.local_max_window_bits
        if frame.fin:
            assert out.endswith(_FLUSH_MARK)
            out = out[:-4]
            if not first:
                data, self.fragmented, self.fragments = self.fragments + data, None, b""
            if not self.local_no_context_takeover:
                self.history = data[-window:] if len(data) > window else data
        else:
            self.fragments = (self.fragments + data)[-window:]
        return Frame(frame.opcode, out, frame.fin, first, frame.rsv2, frame.rsv3)

    def _primed(self) -> Any:
        """A raw deflate stream in the negotiated window, which may refer to the history."""
        wbits = -self.local_max_window_bits
        if self.history:
            return self.deflater.compressobj(
                self.level, zlib.DEFLATED, wbits, MEM_LEVEL, zdict=self.history
            )
        return self.deflater.compressobj(self.level, zlib.DEFLATED, wbits, MEM_LEVEL)


class PrimedDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Any]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, deflate = super().process_request_params(params, accepted_extensions)
        primed = PrimedDeflate(
            deflate.remote_no_context_takeover,
            deflate.local_no_context_takeover,
            deflate.remote_max_window_bits,
            deflate.local_max_window_bits,
        )
        return response, primed


class DeflateWherePays(WebSocketsSansIOProtocol):
    """Uvicorn's sans-I/O WebSocket protocol, with :class:`PrimedDeflateFactory`."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        extensions: list[ServerExtensionFactory] = []
        if config.ws_per_message_deflate:
            extensions.append(
                PrimedDeflateFactory(
                    server_max_window_bits=SERVER_WINDOW_BITS, client_max_window_bits=12
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
