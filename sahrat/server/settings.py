"""Everything a deployment may configure, with the defaults of ``platform.md``."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs


@dataclass(frozen=True, slots=True)
class Settings:
    """Server settings; every duration is in seconds."""

    data_dir: Path
    #: SQLAlchemy URL; by default a SQLite file in ``data_dir``.
    database_url: str = ""
    #: A turn's time limit at a new table, and the choices a host may set.
    turn_seconds: float = 15.0
    min_turn_seconds: float = 5.0
    max_turn_seconds: float = 120.0
    #: A dropped seat is kept this long while the clock runs; then the player has left.
    grace_seconds: float = 60.0
    #: The server pings this often; a connection silent for ``heartbeat_timeout`` is dropped.
    heartbeat_interval: float = 1.5
    heartbeat_timeout: float = 5.0
    #: Before the first deal a dropped seat is kept this long (a reload, a hiccup); then it
    #: is free again.
    waiting_grace_seconds: float = 10.0
    #: Turns played by the server in a row before a seat shows as away.
    away_after: int = 3
    #: The autopilot's thinking time for a timed-out turn, in milliseconds.
    autopilot_ms: float = 300.0
    #: How long a bot waits before it plays, so people can follow the table.
    bot_delay: float = 0.8
    #: After a scored hand (Buraco) the next hand waits this long, so the people at the
    #: table can read the hand's summary: no turn clock runs and no bot plays; 0: none.
    hand_pause_seconds: float = 8.0
    #: How long the seats have to send their client seeds before the server draws them.
    seed_seconds: float = 5.0
    #: A finished table keeps its players (the result, the record link, the chat) this long.
    finished_linger: float = 60.0
    #: Limits on what a client may send.
    max_message_bytes: int = 16_384
    messages_per_second: float = 20.0
    message_burst: int = 40
    chat_max_chars: int = 300
    chat_per_minute: int = 20
    #: Quick reactions and phrases a player may send per minute (they are not stored).
    reactions_per_minute: int = 12
    #: A free table nobody else joins for this long is filled with bots, so "play now"
    #: never leaves anyone waiting alone; 0 leaves the seats free.
    autofill_seconds: float = 8.0
    #: A REST request body larger than this is refused (413) while it streams in.
    max_body_bytes: int = 65_536
    #: New guest sessions and new tables per client address: a bucket of ``*_burst``
    #: refilled by one every ``*_every`` seconds. Generous, because a whole carrier's
    #: customers can share one address (CGNAT).
    guests_burst: int = 30
    guests_every: float = 10.0
    tables_burst: int = 30
    tables_every: float = 5.0
    #: Origins (``scheme://host[:port]``) besides the site's own that may open the
    #: WebSocket, comma-separated; ``*`` allows any. Empty: only the site itself.
    allowed_origins: str = ""
    #: Processes for search (the autopilot); 0 plays the autopilot in the event loop's
    #: own thread pool, for tests on small machines.
    search_workers: int = 1
    #: Coins: a new account's grant, the daily grant (once per UTC day), and the stakes a
    #: coin table may have (comma-separated).
    starting_grant: int = 1000
    daily_grant: int = 200
    stakes: str = "50,100,250,500,1000"
    #: A session unused this long has ended (each use moves it on).
    session_idle_seconds: float = 30 * 86400.0
    #: Logins: per address, and per account name (guessing one account's password from
    #: many addresses), a bucket of ``*_burst`` refilled by one every ``*_every`` seconds.
    #: New accounts per address likewise.
    logins_burst: int = 20
    logins_every: float = 3.0
    name_logins_burst: int = 10
    name_logins_every: float = 30.0
    accounts_burst: int = 10
    accounts_every: float = 60.0
    #: Rated games a player needs in a period to appear on its leaderboards.
    leaderboard_min_games: int = 5
    #: Friend requests per player, and invitations per inviter: a bucket of ``*_burst``
    #: refilled by one every ``*_every`` seconds. An invitation lasts ``invitation_seconds``.
    friend_requests_burst: int = 10
    friend_requests_every: float = 60.0
    invites_burst: int = 5
    invites_every: float = 12.0
    invitation_seconds: float = 120.0

    @property
    def url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'sahrat.db'}"

    @property
    def stake_choices(self) -> tuple[int, ...]:
        return tuple(int(part) for part in self.stakes.split(",") if part.strip())

    def with_(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]


def default_data_dir() -> Path:
    """``SAHRAT_DATA_DIR``, else the user's data directory."""
    env = os.environ.get("SAHRAT_DATA_DIR")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("sahrat", appauthor=False))
