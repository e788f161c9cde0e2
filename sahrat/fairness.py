"""The verifiable shuffle of ``fairness.md``: seeds, streams, commitment.

Every random decision of a game (the first dealer, each shuffle, each other
pick) is drawn from a *stream* named by a label. A stream's bytes are
HMAC-SHA256 blocks keyed by the server seed over the game id, the client
seeds, the label and a block counter, so anyone holding the revealed seed
can recompute every decision without our code.

>>> seeds = Seeds(bytes(range(32)), "demo-1", ("alice", "bob", "carol", "dave"))
>>> deck = list(range(52))
>>> Stream(seeds, "shuffle/0").shuffle(deck)
>>> from sahrat.cards import format_cards
>>> format_cards(deck[:4])
'5S JS KC KH'
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sahrat.errors import MalformedInput

VERSION = "sahrat-v1"
SEED_BYTES = 32

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_LABEL = re.compile(r"[A-Za-z0-9_/-]{1,64}")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")

T = TypeVar("T")

_TWO32 = 1 << 32


def check_id(value: str, what: str) -> str:
    """``value`` if it is 1..64 characters of ``[A-Za-z0-9_-]``, else :class:`MalformedInput`."""
    if not _ID.fullmatch(value):
        raise MalformedInput(f"{what} must be 1..64 characters of [A-Za-z0-9_-]: {value!r}", value)
    return value


def check_label(label: str) -> str:
    """``label`` if it is a valid stream label."""
    if not _LABEL.fullmatch(label):
        raise MalformedInput(f"label must be 1..64 characters of [A-Za-z0-9_/-]: {label!r}", label)
    return label


def parse_seed_hex(text: str) -> bytes:
    """The 32 bytes written as 64 hex digits in ``text``."""
    if not _HEX64.fullmatch(text):
        raise MalformedInput("a server seed is 64 hex digits (32 bytes)", text)
    return bytes.fromhex(text)


def new_server_seed() -> bytes:
    """32 fresh bytes from the operating system's cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """Lowercase hex SHA-256 of the server seed: what every seat sees before the first card."""
    return hashlib.sha256(server_seed).hexdigest()


#: What every derived seed starts with; a seed a player sends may not.
DERIVED_PREFIX = "bot-"


def derived_seed(commitment_hex: str, seat: int) -> str:
    """The client seed of a seat that sent none (a bot, a missed window): §1.

    It is fixed by the commitment, so once the server has committed it has no
    seed left to choose. ``seat`` is the index in the list of client seeds.
    With the commitment of the published vector (the seed bytes 0..31), as
    ``sha256sum`` gives it too:

    >>> c = commitment(bytes(range(32)))
    >>> derived_seed(c, 0)
    'bot-215d58afdf19abee0dc92d707ab31103'
    >>> derived_seed(c, 3)
    'bot-31c215007b9ace709cd4ed74169d71ce'
    """
    text = f"{VERSION}|seat-seed|{commitment_hex}|{seat}"
    return DERIVED_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Seeds:
    """Everything that keys a game's streams."""

    server_seed: bytes
    game_id: str
    client_seeds: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.server_seed) != SEED_BYTES:
            raise MalformedInput("a server seed is 32 bytes", self.server_seed.hex())
        check_id(self.game_id, "game id")
        if not self.client_seeds:
            raise MalformedInput("at least one client seed is needed", self.client_seeds)
        for seed in self.client_seeds:
            check_id(seed, "client seed")

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)


class Stream:
    """The byte stream of one label, consumed four bytes at a time by :meth:`uniform`."""

    __slots__ = ("_buffer", "_counter", "_mac", "_pos", "_prefix")

    def __init__(self, seeds: Seeds, label: str) -> None:
        check_label(label)
        self._mac = hmac.new(seeds.server_seed, digestmod=hashlib.sha256)
        joined = ",".join(seeds.client_seeds)
        self._prefix = f"{VERSION}|{seeds.game_id}|{joined}|{label}|"
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _next_block(self) -> None:
        mac = self._mac.copy()
        mac.update((self._prefix + str(self._counter)).encode("utf-8"))
        self._counter += 1
        self._buffer = mac.digest()
        self._pos = 0

    def next_u32(self) -> int:
        """The next four bytes of the stream as a big-endian unsigned integer."""
        # 32-byte blocks split evenly into 4-byte words, so a word never straddles blocks.
        if self._pos >= len(self._buffer):
            self._next_block()
        pos = self._pos
        self._pos = pos + 4
        return int.from_bytes(self._buffer[pos : pos + 4], "big")

    def uniform(self, n: int) -> int:
        """An unbiased integer in ``0 .. n-1`` (rejection sampling, §2)."""
        if not 1 <= n <= _TWO32:
            raise ValueError(f"uniform(n) needs 1 <= n <= 2^32, got {n}")
        limit = _TWO32 - (_TWO32 % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates from the end, in place; index 0 is then the top of the deck."""
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]


class RandomSource(Protocol):
    """Where an engine's chance steps draw from: one fresh stream per label.

    The fair source below is what real games use; simulations (bots, benchmarks)
    may pass any object with these two methods.
    """

    def uniform(self, label: str, n: int) -> int: ...

    def shuffle(self, label: str, items: MutableSequence[int]) -> None: ...


class FairSource:
    """The :class:`RandomSource` of a real game, keyed by its :class:`Seeds`."""

    __slots__ = ("seeds",)

    def __init__(self, seeds: Seeds) -> None:
        self.seeds = seeds

    def uniform(self, label: str, n: int) -> int:
        return Stream(self.seeds, label).uniform(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        Stream(self.seeds, label).shuffle(items)


def dealer_label() -> str:
    return "dealer"


def shuffle_label(k: int) -> str:
    return f"shuffle/{k}"


def pick_label(k: int) -> str:
    return f"pick/{k}"
