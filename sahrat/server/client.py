"""One WebSocket (one browser tab): its state, its outgoing queue, its rate limit.

After Starlette's ``WebSocketState`` and ``status.WS_1008_*``: a connection is
:attr:`ConnectionState.OPEN` until something closes it, then ``CLOSING``
while the messages already queued go out, then ``CLOSED``; every close has a
named :class:`CloseCode`. What the client says comes in through the app's
read loop; what it is told goes out through :meth:`Client.send`: straight to
the socket while its buffer has room (the server's synchronous send, see
:mod:`sahrat.server.compression`), else through its own writer task, which
waits for the buffer to drain, so a slow reader never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections import deque
from typing import Any, Protocol

from starlette.websockets import WebSocket, WebSocketState

from sahrat.server import protocol
from sahrat.server.compression import SEND_NOW
from sahrat.server.settings import Settings

log = logging.getLogger("sahrat.client")

#: A connection that cannot take its messages this fast is closed, not waited for.
OUTBOX_LIMIT = 512


class ConnectionState(enum.Enum):
    OPEN = "open"
    #: Closed by the server: what is queued still goes out, nothing more is queued.
    CLOSING = "closing"
    CLOSED = "closed"


class CloseCode(enum.IntEnum):
    """The WebSocket close codes the server uses (RFC 6455 §7.4.1)."""

    NORMAL = 1000
    #: Silent past the heartbeat timeout: the connection is gone, whatever TCP thinks.
    GOING_AWAY = 1001
    #: A flood of messages, far past the rate limit.
    POLICY_VIOLATION = 1008
    #: The session this connection said hello with has ended (logout, a new password,
    #: revoked by its owner): the client must not reconnect with its token.
    SESSION_ENDED = 4001


class Attachment(Protocol):
    """What a client is attached to (its table), told when the client goes away."""

    def detach(self, client: Client) -> None: ...


class Client:
    """One WebSocket, once accepted; ``player`` is set by ``hello``."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.settings = settings
        self.player = ""
        self.name = ""
        #: A guest has no account (no coins); ``session`` is the session said hello with.
        self.guest = True
        self.session = ""
        self.address = websocket.client.host if websocket.client else ""
        #: The table this connection follows, if any.
        self.table: Attachment | None = None
        self.state = ConnectionState.OPEN
        self.close_code = CloseCode.NORMAL
        self.outbox: asyncio.Queue[str | bytes | None] = asyncio.Queue(OUTBOX_LIMIT)
        #: The server's synchronous send, if it offers one; the writer task is sending
        #: (or waiting to): then messages queue behind it, to keep their order.
        extension = websocket.scope.get("extensions", {}).get(SEND_NOW)
        self._send_now: Any = extension["send"] if extension else None
        self._writing = False
        self._tokens = float(settings.message_burst)
        self._refilled = time.monotonic()
        #: When the client last said anything (``time.monotonic()``): the heartbeat drops
        #: a connection silent for longer than ``heartbeat_timeout``.
        self.heard = self._refilled
        #: The task reading this connection, while it waits for the next message: what
        #: :meth:`drop_silent` interrupts.
        self.waiting: asyncio.Task[Any] | None = None
        self.silent = False
        self._last_refusal = 0.0
        self._refused: deque[float] = deque()

    @property
    def authenticated(self) -> bool:
        return bool(self.player)

    @property
    def closed(self) -> bool:
        return self.state is not ConnectionState.OPEN

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(protocol.dumps(message))

    def send_text(self, text: str | bytes) -> None:
        """Send a message already encoded, as text or as its UTF-8 bytes (a broadcast
        encodes its shared part once)."""
        if self.state is not ConnectionState.OPEN:
            return
        if self._send_now is not None and not self._writing and self.outbox.empty():
            try:
                if self._send_now(text):
                    return
            except UnicodeEncodeError:
                log.error("dropped a message to %s that is not Unicode text", self.player)
                return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a connection of %s: it does not read its messages", self.player)
            self.close(CloseCode.POLICY_VIOLATION)

    def drop_silent(self) -> None:
        """The connection is gone, whatever TCP thinks: stop waiting for its next message
        (the reader then closes it). Only a reader waiting for a message is interrupted,
        never one in the middle of handling one."""
        if self.waiting is not None and not self.silent:
            self.silent = True
            self.waiting.cancel()

    def error(self, code: str, detail: str = "", ref: object = None, **extra: Any) -> None:
        self.send(protocol.error(code, detail, ref, **extra))

    def close(self, code: CloseCode = CloseCode.NORMAL) -> None:
        """Close after the messages already queued."""
        if self.state is ConnectionState.OPEN:
            self.state = ConnectionState.CLOSING
            self.close_code = code
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)

    def allow(self) -> bool:
        """A token bucket: ``messages_per_second``, bursts up to ``message_burst``."""
        settings = self.settings
        now = time.monotonic()
        self._tokens = min(
            float(settings.message_burst),
            self._tokens + (now - self._refilled) * settings.messages_per_second,
        )
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._refused.append(now)
        while self._refused and now - self._refused[0] > 1.0:
            self._refused.popleft()
        if len(self._refused) > 10 * settings.message_burst:
            self.close(CloseCode.POLICY_VIOLATION)  # a flood, not a hurried player
        elif now - self._last_refusal >= 1.0:
            self._last_refusal = now
            self.error("rate_limited")
        return False

    async def write_loop(self) -> None:
        websocket = self.websocket
        while True:
            text = await self.outbox.get()
            if text is None or websocket.application_state != WebSocketState.CONNECTED:
                break
            self._writing = True
            try:
                await websocket.send_text(text if isinstance(text, str) else text.decode())
            except UnicodeEncodeError:
                # Input is cleaned at the edge, so this is our own bug: one message is lost,
                # never the connection (closing would lock the player out on every retry).
                log.error("dropped a message to %s that is not Unicode text", self.player)
            except Exception:
                break
            finally:
                self._writing = False
        self.state = ConnectionState.CLOSED
        with contextlib.suppress(Exception):
            await websocket.close(int(self.close_code))
