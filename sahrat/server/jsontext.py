"""JSON text for the wire and the log, encoded by orjson.

Every move is encoded several times (the shared part of the table message,
each seat's own part, the event stored); orjson does it several times faster
than the standard library, compact, with Arabic as it is rather than
``\\u`` escapes (a third of the bytes), and integer keys written as strings.

>>> encode({"seat": 0, "hand": ["AS", "10H"], "name": "نورة", "by_seat": {1: True}})
'{"seat":0,"hand":["AS","10H"],"name":"نورة","by_seat":{"1":true}}'
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> str:
    return encode_utf8(value).decode()


def encode_utf8(value: Any) -> bytes:
    """The same text as UTF-8, as a socket sends it: a table message goes out without
    being decoded into a ``str`` and encoded again for each of its sockets."""
    return orjson.dumps(value, option=_OPTIONS)
