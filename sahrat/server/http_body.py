"""A REST request's JSON body, read as a stream with a size limit and decoded at the edge."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from sahrat.server import inbound


class BodyError(Exception):
    """A body that is refused: ``status`` is 413 (too large) or 400 (not clean JSON)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def json_body(request: Request, max_bytes: int) -> Any:
    """The body's JSON value, or None for an empty body.

    The declared length is checked before reading, and the stream is cut off
    as soon as it passes ``max_bytes``, so a huge body is never held in memory.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise BodyError(413, f"request bodies are limited to {max_bytes} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise BodyError(413, f"request bodies are limited to {max_bytes} bytes")
        chunks.append(chunk)
    if not size:
        return None
    try:
        return inbound.loads(inbound.text_of(b"".join(chunks), max_bytes))
    except inbound.Refused as refused:
        raise BodyError(400, f"the body is not clean JSON: {refused.detail}") from None
