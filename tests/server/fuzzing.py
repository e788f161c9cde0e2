"""Hostile frames for the WebSocket edge, and what docs/protocol.md says each must get.

A drawn frame is a *recipe*: values that depend on the live table (its id, the
move count, a legal move) are placeholders, filled in just before sending, so
Hypothesis can draw frames without knowing the table. :func:`expectation` is
the reference reading of the protocol document, written independently of the
server: it decides from the frame's bytes which error the server must answer,
or that the frame may be accepted.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

MAX_MESSAGE_BYTES = 16_384

CLIENT_TYPES = (
    "hello", "ping", "pong", "lobby", "create", "join", "play_now", "leave",
    "sit", "assign", "turn_time", "bots", "start", "seed", "act", "chat",
    "watch", "unwatch", "spectators", "invite",
)  # fmt: skip
TABLE_TYPES = frozenset(
    {"leave", "sit", "assign", "turn_time", "bots", "start", "seed", "act", "chat",
     "spectators"}
)  # fmt: skip
#: The codes of docs/protocol.md §5 (``too_many`` is the per-address limit on new guests
#: and tables, which the server also answers with).
DOCUMENTED_CODES = frozenset(
    {
        "malformed", "bad_version", "unknown_type", "too_large", "rate_limited",
        "not_authenticated", "bad_field", "no_such_table", "already_seated", "not_seated",
        "table_full", "seat_taken", "not_host", "wrong_phase", "not_your_turn",
        "illegal_move", "stale", "chat_too_long", "chat_rate", "no_partner", "unavailable",
        "too_many", "spectator", "not_watchable", "not_watching", "invite_self",
        "not_friends", "blocked", "invitee_offline", "table_started", "already_at_table",
        "invite_rate",
    }
)  # fmt: skip
#: Found before a message is parsed: these never echo an ``id`` (§5).
ENVELOPE_CODES = frozenset({"malformed", "bad_version", "unknown_type", "too_large"})
#: The server refuses nesting deeper than this as malformed; the document names no
#: depth, so deeper input may get either that or what its envelope deserves.
DEPTH_LIMIT = 32


# -- recipes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text spliced into a message as it is (NaN, lone surrogate escapes, deep nests)."""

    text: str


@dataclass(frozen=True)
class Slot:
    """A value taken from the live table when the frame is sent."""

    name: str  # table_id, moves, stale_moves, legal, players, token, forged_token


@dataclass(frozen=True)
class Frame:
    """A frame to send: JSON ``body`` (to encode) or a literal ``data``; ``binary``: as bytes."""

    label: str
    body: Any = None
    data: str | bytes | None = None
    binary: bool = False
    encoding: str = "utf-8"


@dataclass
class Context:
    table_id: str = "t000000000000"
    moves: int = 0
    legal: list[str] = field(default_factory=lambda: ["AH b0-t0"])
    players: list[str] = field(default_factory=list)
    token: str = "p0000000000000000.00"
    forged: str = "p0000000000000000.00"


def resolve(value: Any, ctx: Context) -> Any:
    if isinstance(value, Slot):
        return {
            "table_id": ctx.table_id,
            "moves": ctx.moves,
            "stale_moves": max(ctx.moves - 1, 0) if ctx.moves else 9999,
            "legal": ctx.legal[ctx.moves % len(ctx.legal)] if ctx.legal else "AH b0-t0",
            "players": list(ctx.players),
            "token": ctx.token,
            "forged_token": ctx.forged,
        }[value.name]
    if isinstance(value, dict):
        return {k: resolve(v, ctx) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, ctx) for v in value]
    return value


def encode(value: Any) -> str:
    """JSON text of ``value``, with :class:`Raw` parts spliced in unchanged."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + encode(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def materialize(frame: Frame, ctx: Context) -> str | bytes:
    data = frame.data if frame.data is not None else encode(resolve(frame.body, ctx))
    if frame.binary and isinstance(data, str):
        return data.encode(frame.encoding, "surrogatepass")
    return data


# -- strategies ---------------------------------------------------------------------------

#: One valid message of each client type; placeholders come from the live table.
TEMPLATES: dict[str, dict[str, Any]] = {
    "hello": {"token": Slot("token"), "name": "Fuzz"},
    "ping": {"id": 1},
    "pong": {},
    "lobby": {},
    "create": {
        "game": "jackaroo",
        "seats": 4,
        "private": False,
        "turn_seconds": 15,
        "options": {"preset": "sahrat"},
    },
    "join": {"table": Slot("table_id"), "seat": 1},
    "play_now": {"game": "jackaroo", "seats": 4},
    "leave": {},
    "sit": {"seat": 1},
    "assign": {"order": Slot("players")},
    "turn_time": {"seconds": 30},
    "bots": {},
    "start": {},
    "seed": {"seed": "a1b2c3d4"},
    "act": {"action": Slot("legal"), "moves": Slot("moves")},
    "chat": {"text": "hi", "channel": "table"},
    "watch": {"table": Slot("table_id")},
    "unwatch": {},
    "spectators": {"allow": True, "chat": False},
    "invite": {"player": "nobody"},
}

_SPECIAL_CHARS = "\u202e\u202d\u200f\u200b\ufeff\x00\x01\x07\x1b\x7f\u0085\u2028\u2029\ufffe"
_unicode = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=["Cs"]),
        st.sampled_from(_SPECIAL_CHARS),
    ),
    max_size=40,
)
_lone_surrogates = st.sampled_from(
    [r'"\ud800"', r'"a\udfffb"', r'"\udbff"', r'"x\ud83d"', r'"\udc00\ud800"', r'"\uDABC"']
).map(Raw)
_non_finite = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e400", "1E+9999"]).map(
    Raw
)


def _deep_text(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    return '[{"a":' * (depth // 2) + "0" + "}]" * (depth // 2)


_deep = st.builds(
    lambda depth, kind: Raw(_deep_text(depth, kind)),
    st.integers(DEPTH_LIMIT + 1, 5000),
    st.sampled_from(["array", "object", "mixed"]),
)
_json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    _unicode,
)  # fmt: skip
_json = st.recursive(
    _json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(_unicode, inner, max_size=4)
    ),
    max_leaves=12,
)

#: A value to put in place of a field: wrong types, edges of numbers, odd text.
weird = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.sampled_from([0, -1, 2**53, -(2**53), 2**53 - 1, 2**63, 10**30, 3, 5, 7, 120, 121]),
    st.integers(4301, 6000).map(lambda n: Raw("9" * n)),  # past Python's int digits limit
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1.0, 4.0, 0.5, -0.0, 1e308, 5e-324, 15.5]),
    _non_finite,
    _unicode,
    st.integers(65, 20_000).map(lambda n: "x" * n),
    st.integers(65, 3000).map(lambda n: "\u202e" * n),
    _lone_surrogates,
    _json,
    _deep,
    st.just({"$gt": ""}),
    st.just(["AH b0-t0"]),
)

_type_names = st.one_of(
    st.sampled_from(CLIENT_TYPES),
    st.sampled_from(["Act", "ACT", "act ", "", "error", "table", "welcome", "__proto__"]),
    _unicode,
)


@st.composite
def mutated(draw: st.DrawFn, types: tuple[str, ...] = CLIENT_TYPES) -> Frame:
    """A valid message of some type with one field replaced, removed or added."""
    kind = draw(st.sampled_from(types))
    body: dict[str, Any] = {"v": 1, "type": kind, **TEMPLATES[kind]}
    if draw(st.booleans()):
        body["id"] = draw(st.one_of(st.integers(0, 10**6), st.text(max_size=12)))
    name = draw(st.sampled_from([*body, "id", "table", "extra", "__proto__"]))
    if draw(st.integers(0, 9)) == 0 and name in body:
        del body[name]
        return Frame(f"{kind} without {name}", body=body)
    body[name] = draw(weird)
    return Frame(f"{kind} with {name} changed", body=body)


@st.composite
def table_moves(draw: st.DrawFn) -> Frame:
    """Moves and table messages that are well-formed but wrong for this sender or moment."""
    choice = draw(st.integers(0, 7))
    ref = draw(st.integers(0, 10**6))
    if choice == 0:
        body = {"type": "act", "action": Slot("legal"), "moves": Slot("stale_moves")}
        label = "act with a stale moves"
    elif choice == 1:
        body = {"type": "act", "action": Slot("legal")}
        label = "act without moves"
    elif choice == 2:
        body = {"type": "act", "action": draw(st.sampled_from(
            ["AH b0-t0", "KC b1-t13", "5D t0-t5", "JH t5~t40", "TD burn", "discard-all",
             "ah b0-t0", "AH  b0-t0", "AH b0-t0 ", "", "9S discard"]))}  # fmt: skip
        label = "act with a move that may not be this seat's"
    elif choice == 3:
        body = {"type": "seed", "seed": draw(st.sampled_from(["abc", "derived-x", "a" * 64]))}
        label = "seed outside seeding"
    elif choice == 4:
        body = {"type": "sit", "seat": draw(st.integers(-1, 4))}
        label = "sit while playing"
    elif choice == 5:
        body = {"type": "assign", "order": Slot("players")}
        label = "assign at a public table"
    elif choice == 6:
        body = {"type": "chat", "text": draw(_unicode), "channel": draw(
            st.sampled_from(["table", "team", "TEAM", "all"]))}  # fmt: skip
        label = "chat with odd text"
    else:
        body = {"type": "hello", "token": draw(st.one_of(
            st.just(Slot("forged_token")), st.just(Slot("token")), _unicode,
            st.text(min_size=201, max_size=300)))}  # fmt: skip
        label = "hello with a token"
    return Frame(label, body={"v": 1, **body, "id": ref})


_envelopes = st.one_of(
    st.just(Frame("v is true", body={"v": True, "type": "ping", "id": 1})),
    st.just(Frame("v is 1.0", body={"v": 1.0, "type": "ping", "id": 1})),
    st.just(Frame('v is "1"', body={"v": "1", "type": "ping", "id": 1})),
    st.just(Frame("v is 2", body={"v": 2, "type": "ping"})),
    st.just(Frame("no v", body={"type": "ping"})),
    st.just(Frame("no type", body={"v": 1})),
    st.just(Frame("type null", body={"v": 1, "type": None})),
    st.builds(lambda t: Frame("unknown type", body={"v": 1, "type": t}), _type_names),
    st.builds(lambda v: Frame("a JSON value", body=v), _json),
    st.builds(lambda d: Frame("deep nesting", body=d), _deep),
    st.builds(
        lambda d: Frame("deep field in a ping", body={"v": 1, "type": "ping", "x": d}), _deep
    ),
    st.builds(
        lambda s: Frame("lone surrogate in a field", body={"v": 1, "type": "ping", "x": s}),
        _lone_surrogates,
    ),
    st.builds(
        lambda s: Frame("lone surrogate key", data='{"v":1,"type":"ping",' + s.text + ":1}"),
        _lone_surrogates,
    ),
    st.builds(
        lambda n: Frame("non-finite number", body={"v": 1, "type": "ping", "x": n}), _non_finite
    ),
    st.just(Frame("duplicate keys", data='{"v":1,"type":"ping","type":"lobby"}')),
    st.just(Frame("v duplicated", data='{"v":2,"v":1,"type":"ping"}')),
    st.builds(
        lambda n: Frame("over the size limit", body={"v": 1, "type": "chat", "text": "x" * n}),
        st.integers(MAX_MESSAGE_BYTES - 40, 40_000),
    ),
    st.builds(
        lambda n: Frame(
            "Arabic over the size limit", body={"v": 1, "type": "chat", "text": "ض" * n}
        ),
        st.integers(MAX_MESSAGE_BYTES // 2 - 40, 9000),
    ),
)

_valid_texts = st.sampled_from(
    ['{"v":1,"type":"ping","id":1}', '{"v":1,"type":"lobby"}', '{"v":1,"type":"act","action":"x"}',
     '{"v":1,"type":"chat","text":"\u202eسلام"}', '{"v":1,"type":"ping","id":"\u0000"}']
)  # fmt: skip
_bytes_frames = st.one_of(
    st.builds(lambda b: Frame("random bytes", data=b, binary=True), st.binary(max_size=64)),
    st.builds(lambda t, enc: Frame(f"JSON in {enc}", data=t, binary=True, encoding=enc),
              _valid_texts,
              st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])),
    st.builds(lambda t: Frame("JSON in UTF-8 bytes", data=t, binary=True), _valid_texts),
    st.builds(
        lambda bad, at: Frame("invalid UTF-8", data=b'{"v":1,"type":"ping","x":"' + bad + b'"}'
                              if at else bad + b'{"v":1,"type":"ping"}', binary=True),
        st.sampled_from([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80",
                         b"\xe2\x82", b"\xfe\xff"]),
        st.booleans(),
    ),
    st.builds(lambda t: Frame("random text", data=t), _unicode),
    st.builds(lambda t: Frame("random text", data=t), st.text(max_size=200)
              .filter(lambda t: not any("\ud800" <= c <= "\udfff" for c in t))),
)  # fmt: skip


def frames(types: tuple[str, ...] = CLIENT_TYPES) -> st.SearchStrategy[Frame]:
    # Mutated messages twice over: they reach the type-specific checks past the envelope.
    return st.one_of(mutated(types), mutated(types), table_moves(), _envelopes, _bytes_frames)


_PING = {"v": 1, "type": "ping", "id": 1}
#: Sent by every hostile socket before the random frames, so that each known weak spot is
#: tried on every run whatever Hypothesis draws.
CORPUS = [
    Frame("lone surrogate in a field", body={**_PING, "x": Raw(r'"\ud800"')}),
    Frame("lone surrogate in the type", data=r'{"v":1,"type":"ping\udfff"}'),
    Frame("lone surrogate in chat text", body={"v": 1, "type": "chat", "text": Raw(r'"a\ud800"')}),
    Frame("lone surrogate in an id", body={"v": 1, "type": "ping", "id": Raw(r'"\udc00"')}),
    Frame("surrogate pair", body={**_PING, "x": Raw(r'"\ud83d\ude00"')}),
    Frame("5000 nested arrays", data="[" * 5000 + "]" * 5000),
    Frame("2500 nested objects", data='{"a":' * 2500 + "1" + "}" * 2500),
    Frame("1000 nested arrays in a ping", body={**_PING, "x": Raw("[" * 1000 + "]" * 1000)}),
    Frame("v is true", body={"v": True, "type": "ping", "id": 1}),
    Frame("v is 1.0", body={"v": 1.0, "type": "ping", "id": 1}),
    Frame("id is null", body={"v": 1, "type": "ping", "id": None}),
    Frame("id is true", body={"v": 1, "type": "ping", "id": True}),
    Frame("id is 2**53", body={"v": 1, "type": "ping", "id": 2**53}),
    Frame("id is 1.5", body={"v": 1, "type": "ping", "id": 1.5}),
    Frame("NaN", body={**_PING, "x": Raw("NaN")}),
    Frame("1e999", body={**_PING, "x": Raw("1e999")}),
    Frame("5000 digits", body={**_PING, "x": Raw("7" * 5000)}),
    Frame("duplicate type", data='{"v":1,"type":"ping","type":"lobby"}'),
    Frame("JSON in utf-16", data='{"v":1,"type":"ping","id":1}', binary=True, encoding="utf-16"),
    Frame("JSON in utf-16-le", data='{"v":1,"type":"ping"}', binary=True, encoding="utf-16-le"),
    Frame("JSON in utf-32", data='{"v":1,"type":"ping"}', binary=True, encoding="utf-32"),
    Frame("JSON after a BOM", data='{"v":1,"type":"ping"}', binary=True, encoding="utf-8-sig"),
    Frame("JSON in UTF-8 bytes", data='{"v":1,"type":"ping","id":1}', binary=True),
    Frame("encoded surrogate", data=b'{"v":1,"type":"ping","x":"\xed\xa0\x80"}', binary=True),
    Frame("overlong UTF-8", data=b'{"v":1,"type":"ping","x":"\xc0\xaf"}', binary=True),
    Frame("chat with control characters",
          body={"v": 1, "type": "chat", "text": "a\x00b\x1b[31mc\x7f\u0085d\u2028e"}),
    Frame("chat with an RTL override", body={"v": 1, "type": "chat", "text": "\u202eabc\u202c"}),
    Frame("chat of spaces and newlines", body={"v": 1, "type": "chat", "text": " \n\t \r\n"}),
    Frame("chat of 10001 characters", body={"v": 1, "type": "chat", "text": "x" * 10_001}),
    Frame("name with control characters",
          body={"v": 1, "type": "hello", "name": "\x00\u202e\x1b", "token": 5}),
    Frame("a 16385-byte message", body={"v": 1, "type": "chat", "text": "x" * 16_354}),
    Frame("an empty text frame", data=""),
    Frame("an empty binary frame", data=b"", binary=True),
]  # fmt: skip


# -- the reference: what the document says a frame must get ------------------------------


@dataclass
class Expect:
    """``reply``: ``error`` (one of ``codes`` must come), ``pong``, ``silent`` or ``any``
    (accepted or refused; a refusal must use one of ``codes``)."""

    reply: str
    codes: frozenset[str] = frozenset()
    message: dict[str, Any] | None = None
    why: str = ""

    @property
    def envelope_error(self) -> bool:
        return self.reply == "error" and bool(self.codes & ENVELOPE_CODES)


class _Duplicate(Exception):
    pass


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def depth_of(text: str) -> int:
    deepest = depth = 0
    for char in _STRING.sub('""', text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _unicode_clean(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _finite(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def envelope(data: str | bytes) -> Expect | dict[str, Any]:
    """§1.2–1.3: the error a frame gets before its type matters, or the parsed message."""
    if isinstance(data, bytes):
        if len(data) > MAX_MESSAGE_BYTES:
            return Expect("error", frozenset({"too_large"}), why="over max_message_bytes")
        try:
            text = data.decode("utf-8")  # "binary frames holding UTF-8 JSON": nothing else
        except UnicodeDecodeError:
            return Expect("error", frozenset({"malformed"}), why="not UTF-8")
    else:
        if len(data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            return Expect("error", frozenset({"too_large"}), why="over max_message_bytes")
        text = data
    deep = depth_of(text) > DEPTH_LIMIT
    try:
        value = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_pairs)
    except RecursionError:
        return Expect("error", ENVELOPE_CODES - {"too_large"} | {"bad_field"}, why="deep")
    except _Duplicate:
        # JSON leaves duplicate keys' meaning open: refusing them is the safe reading.
        return Expect("error", frozenset({"malformed"}), why="a key twice")
    except ValueError:
        return Expect("error", frozenset({"malformed"}), why="not JSON")
    if not _finite(value):
        return Expect("error", frozenset({"malformed"}), why="a number out of range")
    if not _unicode_clean(value):
        return Expect("error", frozenset({"malformed"}), why="a lone surrogate")
    if not isinstance(value, dict):
        return Expect("error", frozenset({"malformed"}), why="not an object")
    result = _envelope_of(value)
    if deep and isinstance(result, Expect):
        result.codes |= {"malformed"}
    elif deep:
        return Expect("any", frozenset({"malformed"}), message=value, why="deep")
    return result


def _envelope_of(value: dict[str, Any]) -> Expect | dict[str, Any]:
    version = value.get("v")
    if type(version) is not int or version != 1:
        return Expect("error", frozenset({"bad_version"}), why="v is not the integer 1")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        return Expect("error", frozenset({"unknown_type"}), why="no such type")
    if "id" in value and not _valid_id(value["id"]):
        return Expect("error", frozenset({"bad_field"}), why="an invalid id")
    return value


def _valid_id(ref: Any) -> bool:
    if isinstance(ref, bool):
        return False
    if isinstance(ref, str):
        return len(ref) <= 64
    return isinstance(ref, int) and abs(ref) < 2**53


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float)) and not isinstance(value, bool)


def _optional(message: dict[str, Any], name: str, check: Any) -> bool:
    return name not in message or check(message[name])


def valid_create(message: dict[str, Any]) -> bool | None:
    """True/False as §2 create says; None when only the engine can tell (odd options)."""
    ok = (
        message.get("game") in ("jackaroo", "buraco")
        and _optional(message, "seats", lambda s: _is_int(s) and s in (2, 4))
        and _optional(message, "private", lambda p: isinstance(p, bool))
        and _optional(message, "turn_seconds", lambda t: _is_number(t) and 5 <= t <= 120)
        and _optional(message, "options", lambda o: isinstance(o, dict))
    )
    if not ok:
        return False
    if message.get("game") != "jackaroo" or message.get("options", {}) not in (
        {}, {"preset": "sahrat"}
    ):  # fmt: skip
        return None
    return True


def valid_play_now(message: dict[str, Any]) -> bool:
    return _optional(message, "game", lambda g: g in ("jackaroo", "buraco")) and _optional(
        message, "seats", lambda s: _is_int(s) and s in (2, 4)
    )


def valid_act(message: dict[str, Any]) -> bool:
    action = message.get("action")
    return isinstance(action, str) and len(action) <= 200 and _optional(message, "moves", _is_int)


def _valid_token(message: dict[str, Any]) -> bool:
    return _optional(message, "token", lambda t: isinstance(t, str) and len(t) <= 200)


SEATED_ERRORS = frozenset({"not_seated"})


def expectation(data: str | bytes, sender: str, phase: str, table_id: str) -> Expect:
    """What ``sender`` must get for ``data``.

    ``sender``: ``anonymous`` (never said hello), ``guest`` (said hello, sits nowhere) or
    ``seat`` (sits at the table, whose ``phase`` is ``playing``, ``over`` — the game has a
    result — or ``gone``, forgotten after its linger).
    """
    parsed = envelope(data)
    if isinstance(parsed, Expect):
        return parsed
    message = parsed
    kind = message["type"]
    if kind == "ping":
        return Expect("pong", message=message)
    if kind == "pong":
        return Expect("silent", message=message)
    if sender == "anonymous":
        if kind == "hello":
            if _valid_token(message):
                return Expect("any", message=message, why="a valid hello")
            return Expect("error", frozenset({"bad_field"}), message, "a non-string token")
        return Expect("error", frozenset({"not_authenticated"}), message, "before hello")
    if kind == "hello":
        return Expect("error", frozenset({"wrong_phase"}), message, "a second hello")
    if kind == "lobby":
        return Expect("any", message=message)
    table_field_wrong = "table" in message and message["table"] != table_id
    seated = sender == "seat" and phase != "gone"
    if kind in TABLE_TYPES:
        if not seated or table_field_wrong:
            # "table" naming no table (null, a number) may be read either way by §2.
            # A player who watches a table is told what a spectator cannot do.
            codes = {"not_seated", "spectator"}
            if sender == "seat" and phase != "gone" and message.get("table") is None:
                return _table_message(message, phase, codes)
            return Expect("error", frozenset(codes), message, "not seated there")
        return _table_message(message, phase, set())
    if kind in ("create", "play_now"):
        valid = valid_create(message) if kind == "create" else valid_play_now(message)
        if seated and phase == "playing":
            return Expect("error", frozenset({"already_seated", "bad_field"}), message)
        if valid is False:
            return Expect("error", frozenset({"bad_field"}), message, "a field out of range")
        return Expect("any", frozenset({"bad_field", "too_many", "already_seated"}), message)
    if kind in ("watch", "unwatch", "invite"):
        return _hub_message(message)
    assert kind == "join"
    codes = frozenset({"no_such_table", "wrong_phase", "bad_field", "table_full",
                       "seat_taken", "already_seated"})  # fmt: skip
    if seated and message.get("table") == table_id and "code" not in message:
        return Expect("any", codes, message, "join of its own table re-attaches")
    if "code" in message and not isinstance(message["code"], str):
        return Expect("error", frozenset({"bad_field"}), message, "code not a string")
    if "code" not in message and "table" in message and not isinstance(message["table"], str):
        return Expect("error", frozenset({"bad_field"}), message, "table not a string")
    if not seated and message.get("table") == table_id and "code" not in message:
        return Expect("error", codes, message, "join of a started table")
    return Expect("error", codes, message, "join of no table")


#: What a refused invitation may answer (docs/protocol.md §5).
INVITE_CODES = frozenset({"invite_self", "not_friends", "blocked", "invitee_offline",
                          "not_seated", "table_started", "table_full", "already_at_table",
                          "invite_rate"})  # fmt: skip


def _hub_message(message: dict[str, Any]) -> Expect:
    """``watch``, ``unwatch`` and ``invite``, from any player who said hello."""
    kind = message["type"]
    if kind == "unwatch":
        return Expect("any", frozenset({"not_watching"}), message)
    if kind == "invite":
        who = message.get("player")
        if not isinstance(who, str) or len(who) > 64:
            return Expect("error", frozenset({"bad_field"}), message, "player not a name")
        return Expect("error", INVITE_CODES, message, "a fuzzing guest has no friends")
    wrong = [f for f in ("table", "code") if f in message and not isinstance(message[f], str)]
    if wrong or ("table" not in message and "code" not in message):
        return Expect("error", frozenset({"bad_field"}), message, "watch names no table")
    codes = {"no_such_table", "not_watchable", "already_seated", "bad_field", "spectator"}
    return Expect("any", frozenset(codes), message)


def _table_message(message: dict[str, Any], phase: str, extra: set[str]) -> Expect:
    kind = message["type"]
    playing = phase == "playing"
    if kind == "act":
        if not valid_act(message):
            return Expect("error", frozenset({"bad_field", *extra}), message, "bad act fields")
        if not playing:
            return Expect("error", frozenset({"wrong_phase", *extra}), message, "game over")
        return Expect(
            "any",
            frozenset({"stale", "not_your_turn", "illegal_move", *extra}),
            message,
        )
    if kind == "chat":
        text, channel = message.get("text"), message.get("channel", "table")
        if not isinstance(text, str) or not isinstance(channel, str):
            return Expect("error", frozenset({"bad_field", *extra}), message, "bad chat fields")
        # Text between the cleaned limit and the raw limit may be either code by §2.
        codes = {"bad_field", "chat_too_long", "chat_rate", "no_partner", *extra}
        return Expect("any", frozenset(codes), message)
    if kind == "leave":
        return Expect("any", frozenset(extra), message)
    # At a public table, playing or over: none of these is allowed (§2, §5).
    codes = {"wrong_phase", "not_host", "bad_field", *extra}
    return Expect("error", frozenset(codes), message, f"{kind} at a started public table")
