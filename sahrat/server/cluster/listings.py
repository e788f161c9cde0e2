"""The lobby of a cluster node: its own tables and the other nodes' from Redis.

The lobby feed (:mod:`sahrat.server.lobby`) reads a mapping of listed tables and
sends their changes; here that mapping holds this node's live actors and, next to
them, a :class:`RemoteListing` per table another node published in the shared lobby
(:mod:`.lobby`). A listing is marked dirty when its summary changes, as an actor
marks itself, so the feed sends other nodes' changes the same way as its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sahrat.server.lobby import Listed


class RemoteListing:
    """Another node's table, as the shared lobby last showed it."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self.entry = entry
        self.lobby_dirty = True

    @property
    def id(self) -> str:
        return str(self.entry["id"])

    @property
    def kind(self) -> str:
        return str(self.entry.get("kind", ""))

    @property
    def status(self) -> str:
        return str(self.entry.get("status", ""))

    @property
    def game(self) -> str:
        return str(self.entry.get("game", ""))

    def free_seats(self) -> list[int]:
        """As many as the table has free (which ones, the lobby does not say)."""
        return list(range(int(self.entry.get("free", 0))))

    def summary(self) -> dict[str, Any]:
        return self.entry


class Listings(Mapping[str, Listed]):
    """This node's tables first, then the others' (a table here hides its stale copy)."""

    def __init__(self, local: Mapping[str, Listed]) -> None:
        self.local = local
        self.remote: dict[str, RemoteListing] = {}

    def __getitem__(self, table: str) -> Listed:
        found = self.local.get(table)
        return found if found is not None else self.remote[table]

    def __iter__(self) -> Iterator[str]:
        yield from self.local
        yield from (t for t in self.remote if t not in self.local)

    def __len__(self) -> int:
        return len(self.local) + sum(1 for t in self.remote if t not in self.local)

    def update(self, entries: list[dict[str, Any]], node: str) -> tuple[bool, list[str]]:
        """Take the shared lobby's ``entries`` (this ``node``'s own are skipped): whether
        anything changed, and the ids that left it."""
        seen: dict[str, dict[str, Any]] = {}
        for entry in entries:
            if entry.get("node") != node:
                shown = {k: v for k, v in entry.items() if k != "node"}
                seen[str(shown["id"])] = shown
        gone = [t for t in self.remote if t not in seen]
        for table in gone:
            del self.remote[table]
        changed = bool(gone)
        for table, entry in seen.items():
            listing = self.remote.get(table)
            if listing is None:
                self.remote[table] = RemoteListing(entry)
                changed = True
            elif listing.entry != entry:
                listing.entry = entry
                listing.lobby_dirty = True
                changed = True
        return changed, gone

    def fitting(self, game: str, seats: int | None, stake: int) -> RemoteListing | None:
        """The fullest waiting public table of another node for "play now", if any."""
        kind = "coin" if stake else "free"
        found = [
            listing
            for listing in self.remote.values()
            if listing.kind == kind
            and listing.status == "waiting"
            and listing.entry.get("game") == game
            and listing.entry.get("stake", 0) == stake
            and int(listing.entry.get("free", 0)) > 0
            and (seats is None or listing.entry.get("seats") == seats)
        ]
        return min(found, key=lambda listing: int(listing.entry["free"]), default=None)
