"""A node's identity: the name it goes by in leases, messages and logs, and its start."""

from __future__ import annotations

import os
import re
import secrets
import socket
import time
from dataclasses import dataclass

#: What a node id may be made of: it is part of Redis keys, channels and log lines.
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True, slots=True)
class Node:
    """One ``sahrat serve`` process of a cluster.

    >>> Node.create("eu-1").id
    'eu-1'
    >>> Node.create("no spaces")
    Traceback (most recent call last):
    ...
    ValueError: a node id is 1-64 letters, digits, '.', '_' or '-': 'no spaces'
    >>> a, b = Node.create(), Node.create()
    >>> a.id != b.id
    True
    """

    id: str
    #: Wall-clock start (seconds since the epoch), for operators and logs.
    started_at: float
    #: Monotonic start, for uptimes that a clock change does not bend.
    started_monotonic: float

    @classmethod
    def create(cls, node_id: str | None = None) -> Node:
        """The node named ``node_id`` (``--node-id``), or one with a generated name."""
        name = generated_id() if node_id is None else node_id
        if not _VALID.fullmatch(name):
            raise ValueError(f"a node id is 1-64 letters, digits, '.', '_' or '-': {name!r}")
        return cls(name, time.time(), time.monotonic())

    def uptime(self) -> float:
        return time.monotonic() - self.started_monotonic


def generated_id() -> str:
    """Host, process and a random part: readable in logs, and two restarts of one process
    number on one host (pids are reused) still differ, so an old lease is never mistaken
    for the new process's own."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:32].strip("-.") or "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"
