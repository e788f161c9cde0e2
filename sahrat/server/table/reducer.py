"""Events to table state: the one place a table changes.

:func:`apply` is pure in the sense that matters here: it changes the state
it is given and nothing else (no socket, no database, no other table, no
routing), so a table is restored after a crash by applying its log again,
through the very code that applied it live, with no side effect at all. The
actor compares what changed (who is seated) and tells the rest of the
server itself.

>>> from sahrat.games import GAMES
>>> row = {"id": "t1", "options": {"preset": "sahrat", "seats": 2}, "kind": "free"}
>>> table = TableState.from_row(row, GAMES["jackaroo"], 15.0)
>>> apply(table, Seated(0, "p1", "Salem", False), at=1.0)
>>> table.seats[0].name, table.free_seats()
('Salem', [2])
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

from sahrat.fairness import Seeds
from sahrat.game import Words
from sahrat.records import Recorder
from sahrat.server.table.events import (
    Assigned,
    Chatted,
    Closed,
    Committed,
    Ended,
    Event,
    HostChanged,
    Left,
    Moved,
    Rematched,
    Seated,
    SpectatorsSet,
    Started,
    TurnTimeSet,
    Unseated,
)
from sahrat.server.table.state import (
    CHAT_KEPT,
    CLOSED,
    FINISHED,
    PLAYING,
    SEEDING,
    ChatLine,
    Seat,
    TableState,
)
from sahrat.server.text import clean_line

log = logging.getLogger("sahrat.table")

#: Turns in a row played by the server before a seat shows as away.
AWAY_AFTER = 3


def apply(table: TableState, event: Event, at: float, away_after: int = AWAY_AFTER) -> None:
    """Change ``table`` as ``event``, stored at ``at`` (epoch seconds), says."""
    if not isinstance(event, Chatted):  # what a record shows must not move with team chat
        table.event_time = at
    match event:
        case Seated(seat=seat, player=player, name=name, bot=bot):
            table.seats[seat] = Seat(player, name, bot=bot)
        case Unseated(seat=seat):
            table.seats[seat] = None
        case Assigned(order=order):
            by_player = {s.player: s for s in table.seats.values() if s is not None}
            table.seats = {
                seat: by_player.get(player) if player else None
                for seat, player in zip(table.seat_numbers, order, strict=True)
            }
        case HostChanged(player=player):
            table.host = player
        case TurnTimeSet(seconds=seconds):
            table.turn_seconds = seconds
        case SpectatorsSet(allow=allow, chat=chat):
            table.spectators_allowed = allow
            table.spectator_chat = chat
        case Committed(server_seed=server_seed):
            table.server_seed = bytes.fromhex(server_seed)
            table.status = SEEDING
        case Started():
            _start(table, event)
        case Moved():
            _move(table, event, away_after)
        case Chatted():
            _chat(table, event)
        case Closed():
            table.status = CLOSED
        case Left(seat=seat):
            left = table.seats[seat]
            if left is not None:
                left.left = True
        case Rematched(of=of):
            table.rematch_of = of or None
        case Ended(coins=coins):
            table.status = FINISHED
            table.coins = coins


def _start(table: TableState, event: Started) -> None:
    assert table.server_seed is not None
    table.seeds = Seeds(table.server_seed, event.game_id, event.client_seeds)
    players = [
        {"seat": s, "name": seat.name, "bot": seat.bot}
        for s, seat in table.seats.items()
        if seat is not None
    ]
    table.recorder = Recorder(
        table.rules.name,
        table.options,
        table.seeds,
        players,
        clock=lambda: table.event_time,
    )
    table.recorder.run_chance()
    table.status = PLAYING


def _move(table: TableState, event: Moved, away_after: int) -> None:
    recorder = table.recorder
    assert recorder is not None
    state = recorder.state
    action = state.parse_action(event.action)
    seat = table.seats[event.seat]
    names = {n: s.name for n, s in table.seats.items() if s is not None}
    words = _words(table, state, event, action, names)
    recorder.play(event.seat, action)
    table.moves += 1
    table.last.append(
        {
            "seat": event.seat,
            "action": event.action,
            "auto": event.auto,
            "words": words,
            "at": table.event_time,
        }
    )
    if seat is not None and not seat.bot:
        if event.auto:
            if event.turn_start:
                seat.autopiloted += 1
                seat.away = seat.autopiloted >= away_after
        else:
            seat.autopiloted = 0
            seat.away = False


def _words(table: TableState, state: Any, event: Moved, action: Any, names: Any) -> dict[str, str]:
    try:
        return table.rules.describe(state, event.seat, action, names).to_json()
    except Exception:
        # A line in a list of moves must never stop a table.
        log.exception("table %s: no words for %s", table.id, event.action)
        return Words.of(names.get(event.seat, str(event.seat)), None).to_json()


def _chat(table: TableState, event: Chatted) -> None:
    table.chat_lines += 1
    # Lines stored before chat was cleaned are cleaned on the way in; one left empty
    # is skipped (it still counts in the log).
    text = clean_line(event.text)
    if not text:
        return
    line = ChatLine(
        event.channel,
        event.seat,
        clean_line(event.name) or "?",
        text,
        event.at,
        table.chat_lines,
    )
    audience = tuple(sorted(event.to))
    table.chat.setdefault(audience, deque(maxlen=CHAT_KEPT)).append(line)
