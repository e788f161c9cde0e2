"""What a client sends, decoded once at the edge into plain, clean Python values.

WebSocket frames and REST bodies both come through :func:`loads`, so past this
module every string is well-formed Unicode (it can always be encoded back to
UTF-8 for another client), every number is finite, and no value nests deeper
than :data:`MAX_DEPTH`. Checks that need the whole text (size, depth) run
before ``json.loads`` sees it, so a hostile body costs one linear scan.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: Deeper than any message of the protocol (options are two levels inside the envelope).
MAX_DEPTH = 32

# A string literal (skipped whole, so brackets inside it do not count) or a bracket. The
# closing quote is optional so that an unterminated string ends the scan in one pass
# instead of being retried from every later quote.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
# A \u escape of a surrogate: only these can smuggle a lone surrogate into a str.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class Refused(Exception):
    """Input that is not a clean JSON value; ``code`` is ``malformed`` or ``too_large``."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def text_of(data: str | bytes, max_bytes: int) -> str:
    """The text of a frame or body: at most ``max_bytes`` of strict UTF-8."""
    if isinstance(data, str):
        # A str came from a UTF-8 text frame; four bytes per character bounds it cheaply.
        if len(data) * 4 > max_bytes and len(data.encode("utf-8", "surrogatepass")) > max_bytes:
            raise Refused("too_large", f"messages are limited to {max_bytes} bytes")
        return data
    if len(data) > max_bytes:
        raise Refused("too_large", f"messages are limited to {max_bytes} bytes")
    try:
        # Strict: no BOM sniffing, no UTF-16, no encoded surrogates.
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("malformed", "not UTF-8") from None


def loads(text: str) -> Any:
    """The JSON value of ``text``, refusing anything a clean value could not be."""
    _check_depth(text)
    try:
        value = json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_finite_float,
            object_pairs_hook=_unique_keys,
        )
    except (ValueError, RecursionError):
        raise Refused("malformed", "not valid JSON") from None
    if _SURROGATE_ESCAPE.search(text) and not _clean_strings(value):
        raise Refused("malformed", "a string holds a lone surrogate (not Unicode text)")
    return value


def _check_depth(text: str) -> None:
    # Fast path: fewer brackets than the limit cannot nest past it.
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise Refused("malformed", f"JSON nested deeper than {MAX_DEPTH} levels")
        elif mark in "]}":
            depth -= 1


def _no_constant(name: str) -> Any:
    raise Refused("malformed", f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise Refused("malformed", "a number is out of range")
    return number


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise Refused("malformed", "a key appears twice in one object")
    return value


def _clean_strings(value: Any) -> bool:
    """True if every string in ``value`` (keys included) is encodable Unicode."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _encodable(item):
                return False
        elif isinstance(item, dict):
            for key, inner in item.items():
                if not _encodable(key):
                    return False
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
