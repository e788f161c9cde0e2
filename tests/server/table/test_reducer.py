"""The reducer alone: each event changes exactly its part of a table, and nothing else."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import os
import random
import re
import time
from typing import Any

import pytest

from sahrat.cards import CODES, card_label
from sahrat.games import GAMES
from sahrat.server.table import reducer
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
    from_stored,
)
from sahrat.server.table.state import (
    CHAT_KEPT,
    CLOSED,
    FINISHED,
    PLAYING,
    SEEDING,
    Seat,
    TableState,
)
from sahrat.simulation import SimSource
from tests.server.table.conftest import Played
from tests.server.table.fakes import RecordingHost, Row
from tests.server.table.tables import game_options

SERVER_SEED = "5a" * 32


def new_state(game: str = "jackaroo", seats: int = 2, kind: str = "free") -> TableState:
    row = {"id": "t1", "game": game, "options": game_options(game, seats), "kind": kind}
    return state_of(row)


def state_of(row: dict[str, Any]) -> TableState:
    """A table as its row leaves it, before any event."""
    return TableState.from_row(row, GAMES[row["game"]], 15.0)


def playing(game: str = "jackaroo", seats: int = 2) -> TableState:
    """A table whose game has just started, one person per seat."""
    table = new_state(game, seats)
    for number in table.seat_numbers:
        reducer.apply(table, Seated(number, f"p{number}", f"Player {number}", False), 1.0)
    reducer.apply(table, Committed(SERVER_SEED), 2.0)
    seeds = tuple(f"seed-{n}" for n in table.seat_numbers)
    reducer.apply(table, Started("g1", seeds), 3.0)
    return table


def snapshot(table: TableState) -> dict[str, Any]:
    """Every field of a table, in a form that compares by value (the game by its full view)."""
    out: dict[str, Any] = {}
    for spec in dataclasses.fields(table):
        value = getattr(table, spec.name)
        if spec.name == "rules":
            value = id(value)
        elif spec.name == "seats":
            value = {n: None if s is None else dataclasses.asdict(s) for n, s in value.items()}
        elif spec.name == "chat":
            value = {audience: list(lines) for audience, lines in value.items()}
        elif spec.name == "last":
            value = copy.deepcopy(list(value))
        elif spec.name == "recorder" and value is not None:
            value = (copy.deepcopy(value.log), table.rules.full_view(value.state))
        else:
            value = copy.deepcopy(value)
        out[spec.name] = value
    return out


def changed_by(table: TableState, event: Event, at: float = 500.0) -> set[str]:
    """The fields of ``table`` that applying ``event`` changes."""
    before = snapshot(table)
    reducer.apply(table, event, at)
    after = snapshot(table)
    return {name for name in before if before[name] != after[name]}


def first_legal(table: TableState) -> tuple[int, str]:
    assert table.recorder is not None
    state = table.recorder.state
    return state.current_player(), str(state.legal_actions()[0])


def replay(created: dict[str, Any], rows: list[Row]) -> TableState:
    """A table built from its row, then every stored event applied in order."""
    table = state_of(created)
    for stored in rows:
        table.seq = stored.seq
        reducer.apply(table, from_stored(stored.kind, stored.data), stored.at)
    return table


def replay_played(played: Played) -> TableState:
    return replay(played.table.row, played.table.rows)


def scripted_rows(game: str, seats: int, seed: int) -> list[Row]:
    """A whole game's log written by hand from events (seeded bots, fixed seeds and times)."""
    table = new_state(game, seats)
    rng = random.Random(seed)
    events: list[Event] = [
        *(Seated(n, f"p{n}", f"Player {n}", False) for n in table.seat_numbers),
        Committed(f"{seed:064x}"),
        Started("g1", tuple(f"seed-{seed}-{n}" for n in table.seat_numbers)),
    ]
    rows: list[Row] = []

    def store(event: Event) -> None:
        row = Row(
            len(rows) + 1, event.KIND, json.loads(json.dumps(event.data())), 1000.0 + len(rows)
        )
        rows.append(row)
        reducer.apply(table, from_stored(row.kind, row.data), row.at)

    for event in events:
        store(event)
    assert table.recorder is not None
    bots = {n: GAMES[game].bots.heuristic(random.Random(seed + n)) for n in table.seat_numbers}
    while not table.recorder.state.is_terminal():
        state = table.recorder.state
        seat = state.current_player()
        action = bots[seat].choose(state.determinize(seat, SimSource(rng)))
        store(Moved(seat, str(action), auto=False))
        if table.moves % 25 == 0:
            store(Chatted("table", seat, f"Player {seat}", f"line {table.moves}", (0, 1), 7.0))
    outcome = table.recorder.state.outcome()
    assert outcome is not None
    store(Ended(outcome.winners))
    return rows


# -- one event, one change ------------------------------------------------------------------


def test_a_seat_event_puts_the_player_in_the_seat() -> None:
    table = new_state()
    assert changed_by(table, Seated(2, "p1", "Salem", False)) == {"seats", "event_time"}
    assert table.seats == {0: None, 2: Seat("p1", "Salem")}


def test_a_seat_event_for_a_bot_marks_the_seat_a_bot() -> None:
    table = new_state()
    reducer.apply(table, Seated(0, "bot:0", "Bot", True), 1.0)
    assert table.seats[0] == Seat("bot:0", "Bot", bot=True)
    assert table.humans() == []


def test_an_unseat_event_frees_the_seat() -> None:
    table = new_state()
    reducer.apply(table, Seated(0, "p1", "Salem", False), 1.0)
    assert changed_by(table, Unseated(0)) == {"seats", "event_time"}
    assert table.free_seats() == [0, 2]


def test_an_assign_event_moves_players_with_their_connections() -> None:
    table = new_state("jackaroo", 4)
    reducer.apply(table, Seated(0, "p1", "Salem", False), 1.0)
    reducer.apply(table, Seated(1, "p2", "Huda", False), 1.0)
    moved = table.seats[0]
    assert moved is not None
    moved.connected = True
    assert changed_by(table, Assigned((None, "p2", "p1", None))) == {"seats", "event_time"}
    assert table.seats[2] is moved and moved.connected
    assert (table.seat_of("p1"), table.seat_of("p2"), table.free_seats()) == (2, 1, [0, 3])


def test_a_host_event_changes_the_host() -> None:
    table = new_state(kind="private")
    assert changed_by(table, HostChanged("p1")) == {"host", "event_time"}
    assert table.host == "p1"
    reducer.apply(table, HostChanged(None), 1.0)
    assert table.host is None


def test_a_turn_time_event_sets_the_turn_time() -> None:
    table = new_state()
    assert changed_by(table, TurnTimeSet(42.0)) == {"turn_seconds", "event_time"}
    assert changed_by(table, SpectatorsSet(True, True)) == {"spectators_allowed", "spectator_chat"}
    assert table.turn_seconds == 42.0


def test_a_commit_event_keeps_the_server_seed_and_starts_seeding() -> None:
    table = new_state()
    assert changed_by(table, Committed(SERVER_SEED)) == {"server_seed", "status", "event_time"}
    assert (table.status, table.server_seed) == (SEEDING, bytes.fromhex(SERVER_SEED))


def test_a_start_event_deals_from_the_seeds_and_starts_playing() -> None:
    table = new_state()
    for number in table.seat_numbers:
        reducer.apply(table, Seated(number, f"p{number}", f"Player {number}", False), 1.0)
    reducer.apply(table, Committed(SERVER_SEED), 2.0)
    fields = changed_by(table, Started("g1", ("seed-a", "seed-b")), at=3.0)
    assert fields == {"seeds", "recorder", "status", "event_time"}
    assert table.status == PLAYING and table.recorder is not None and table.seeds is not None
    assert table.seeds.client_seeds == ("seed-a", "seed-b")
    # The deal is made: a seat is to move, and the record names the players.
    assert table.recorder.state.current_player() in table.seat_numbers
    assert [p["name"] for p in table.recorder.players] == ["Player 0", "Player 2"]
    assert table.moves == 0 and not table.last


def test_a_move_event_plays_the_action_and_says_it_in_words() -> None:
    table = playing()
    seat, action = first_legal(table)
    fields = changed_by(table, Moved(seat, action, auto=False), at=9.0)
    assert fields == {"recorder", "moves", "last", "event_time"}
    assert table.moves == 1
    last = table.last[-1]
    assert (last["seat"], last["action"], last["auto"], last["at"]) == (seat, action, False, 9.0)
    assert last["words"]["en"].startswith(f"Player {seat} ")
    assert set(last["words"]) == {"en", "ar"}
    assert table.recorder is not None and table.recorder.log[-1]["seat"] == seat


def test_three_turns_played_by_the_server_mark_a_seat_away() -> None:
    table = playing()
    assert table.recorder is not None
    watched = table.recorder.state.current_player()
    turns = 0
    while turns < 3:
        seat, action = first_legal(table)
        ours = seat == watched
        reducer.apply(table, Moved(seat, action, auto=ours, turn_start=ours), 1.0)
        turns += ours
        away = table.seats[watched]
        assert away is not None
        assert (away.autopiloted, away.away) == (turns, turns >= 3)


def test_server_moves_after_the_first_of_a_turn_are_not_counted() -> None:
    table = playing()
    seat, action = first_legal(table)
    reducer.apply(table, Moved(seat, action, auto=True, turn_start=False), 1.0)
    watched = table.seats[seat]
    assert watched is not None and (watched.autopiloted, watched.away) == (0, False)


def test_a_seats_own_move_clears_away() -> None:
    table = playing()
    seat, _ = first_legal(table)
    watched = table.seats[seat]
    assert watched is not None
    watched.autopiloted, watched.away = 5, True
    _, action = first_legal(table)
    reducer.apply(table, Moved(seat, action, auto=False), 1.0)
    assert (watched.autopiloted, watched.away) == (0, False)


def test_a_chat_event_keeps_the_line_for_its_audience_and_not_the_record_clock() -> None:
    table = new_state("jackaroo", 4)
    reducer.apply(table, Seated(0, "p1", "Salem", False), 1.0)
    fields = changed_by(table, Chatted("team", 0, "Salem", "  hello   there ", (2, 0), 4.0))
    assert fields == {"chat", "chat_lines"}
    assert table.event_time == 1.0
    [line] = table.chat[(0, 2)]
    assert (line.channel, line.seat, line.text, line.at, line.order) == (
        "team",
        0,
        "hello there",
        4.0,
        1,
    )
    assert table.chat_for(2) == [line] and table.chat_for(1) == []


def test_a_chat_line_cleaned_to_nothing_is_counted_but_not_kept() -> None:
    table = new_state()
    assert changed_by(table, Chatted("table", 0, "Salem", " \u200b\u0000 ", (0, 2), 4.0)) == {
        "chat_lines"
    }
    assert table.chat_lines == 1 and table.chat == {}


def test_a_close_event_closes_the_table() -> None:
    table = new_state()
    assert changed_by(table, Closed()) == {"status", "event_time"}
    assert table.status == CLOSED and table.over


def test_an_end_event_finishes_the_table() -> None:
    table = playing()
    assert changed_by(table, Ended((0,))) == {"status", "event_time"}
    assert table.status == FINISHED and table.over


def test_team_chat_never_pushes_table_lines_out_of_the_other_sides_history() -> None:
    table = new_state("jackaroo", 4)
    reducer.apply(table, Chatted("table", 1, "Huda", "for everyone", (0, 1, 2, 3), 1.0), 1.0)
    for i in range(CHAT_KEPT + 20):
        reducer.apply(table, Chatted("team", 0, "Salem", f"team {i}", (0, 2), 2.0), 2.0)
    assert [line.text for line in table.chat_for(1)] == ["for everyone"]
    ours = [line.text for line in table.chat_for(0)]
    assert len(ours) == CHAT_KEPT and ours[-1] == f"team {CHAT_KEPT + 19}"
    assert "for everyone" not in ours  # oldest first, the latest hundred


# -- a whole log ----------------------------------------------------------------------------


def comparable(table: TableState) -> dict[str, Any]:
    """What a replay must reproduce: seats, stage, moves, chat, last moves, every seat's view."""
    assert table.recorder is not None
    state = table.recorder.state
    return {
        "seats": {
            n: None if s is None else (s.player, s.name, s.bot, s.away)
            for n, s in table.seats.items()
        },
        "status": table.status,
        "seq": table.seq,
        "moves": table.moves,
        "chat": {n: [line.public() for line in table.chat_for(n)] for n in table.seat_numbers},
        "last": list(table.last),
        "views": {n: state.view(n).to_json() for n in table.seat_numbers},
        "record": table.recorder.to_json(),
    }


def test_applying_a_stored_log_twice_from_scratch_gives_equal_states(played: Played) -> None:
    first, second = replay_played(played), replay_played(played)
    assert snapshot(first) == snapshot(second)
    assert comparable(first) == comparable(played.table.actor.table)
    assert first.status == FINISHED


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_applying_a_log_written_from_events_twice_gives_equal_states(game: str) -> None:
    rows = scripted_rows(game, 2, seed=7)
    row = {"id": "t1", "game": game, "options": game_options(game, 2), "kind": "free"}
    first, second = replay(row, rows), replay(row, rows)
    assert snapshot(first) == snapshot(second)
    assert first.status == FINISHED and first.chat_lines > 0


def test_the_records_times_are_the_logs_not_the_clock(played: Played) -> None:
    rows = [row._replace(at=float(row.seq)) for row in played.table.rows]
    table = replay(played.table.row, rows)
    assert table.recorder is not None
    times = {entry["time"] for entry in table.recorder.log}
    assert times <= {row.at for row in rows}
    assert {entry["at"] for entry in table.last} <= {row.at for row in rows}


# -- pure: it changes the table it is given, and nothing else --------------------------------


def test_the_reducer_takes_no_host() -> None:
    assert list(inspect.signature(reducer.apply).parameters) == [
        "table",
        "event",
        "at",
        "away_after",
    ]
    # Nor does it know of anything a host or a log could be reached through.
    reaches = {getattr(value, "__module__", "") for value in vars(reducer).values()}
    assert not reaches & {"sahrat.server.table.host", "sahrat.server.table.core", "asyncio"}


def test_the_reducer_reads_no_clock_and_no_system_randomness(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def watched(name: str) -> Any:
        real = {
            "time": time.time,
            "monotonic": time.monotonic,
            "urandom": os.urandom,
        }[name]

        def call(*args: Any) -> Any:
            calls.append(name)
            return real(*args)

        return call

    monkeypatch.setattr(time, "time", watched("time"))
    monkeypatch.setattr(time, "monotonic", watched("monotonic"))
    monkeypatch.setattr(os, "urandom", watched("urandom"))
    replay_played(played)
    monkeypatch.undo()
    assert calls == []


class Untouchable:
    """Forwards reads to ``inner``; refuses every write, and remembers what was read."""

    def __init__(self, inner: Any) -> None:
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AssertionError(f"the reducer set {name} on the rules")

    def __delattr__(self, name: str) -> None:
        raise AssertionError(f"the reducer deleted {name} from the rules")


def test_the_reducer_leaves_the_rules_object_untouched(played: Played) -> None:
    rules = GAMES[played.table.row["game"]]
    before = copy.deepcopy(vars(rules))
    table = state_of(played.table.row)
    table.rules = Untouchable(rules)  # type: ignore[assignment]
    for stored in played.table.rows:
        reducer.apply(table, from_stored(stored.kind, stored.data), stored.at)
    assert vars(rules) == before
    assert table.status == FINISHED
    assert table.rules.read  # type: ignore[attr-defined]  # it was used, through the proxy


def test_applying_events_changes_no_other_table_of_the_same_row(played: Played) -> None:
    row = copy.deepcopy(played.table.row)
    table, other = state_of(row), state_of(row)
    untouched = snapshot(other)
    for stored in played.table.rows:
        reducer.apply(table, from_stored(stored.kind, stored.data), stored.at)
    assert snapshot(other) == untouched
    assert row == played.table.row


class StrictHost(RecordingHost):
    """A host that must not be called at all."""

    def _note(self, name: str, player: str | None, table: Any = None) -> None:
        raise AssertionError(f"the host was called: {name}({player})")


def test_restore_applies_the_log_through_the_reducer_alone(played: Played) -> None:
    actor = played.table.restored(StrictHost())
    assert comparable(actor.table) == comparable(played.table.actor.table)


# -- the stored form ------------------------------------------------------------------------

EVENTS: list[Event] = [
    Seated(0, "p1", "Salem", False),
    Seated(2, "bot:2", "بوت", True),
    Unseated(2),
    Assigned(("p1", None, "p2", None)),
    HostChanged("p1"),
    HostChanged(None),
    TurnTimeSet(20.0),
    SpectatorsSet(True, False),
    Committed(SERVER_SEED),
    Started("g1", ("seed-a", "seed-b")),
    Moved(0, "KC b2-t38", auto=False),
    Moved(2, "draw", auto=True, turn_start=True),
    Chatted("team", 0, "Salem", "مرحبا", (0, 2), 12.5),
    Closed(),
    Left(1),
    Ended((0, 2)),
    Ended(()),
    Ended((1, 3), {"stake": 100, "pot": 400, "fee": 40, "paid": {"1": 180}}),
    Rematched("t0123456789ab"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"{type(e).__name__}")
def test_an_event_round_trips_through_its_stored_form(event: Event) -> None:
    stored = json.loads(json.dumps(event.data()))
    again = from_stored(event.KIND, stored)
    assert type(again) is type(event) and again == event
    assert again.data() == stored


def test_every_kind_of_event_has_a_round_trip_case() -> None:
    kinds = {cls.KIND for cls in Event.__subclasses__()}
    assert kinds == {event.KIND for event in EVENTS}


def test_an_unknown_stored_kind_is_refused() -> None:
    with pytest.raises((KeyError, TypeError, ValueError)):
        from_stored("teleport", {})


def test_a_stored_event_missing_a_field_is_refused() -> None:
    with pytest.raises((KeyError, TypeError, ValueError)):
        from_stored("seat", {"seat": 0, "player": "p1"})


def test_a_chat_line_stored_without_its_newer_fields_is_read() -> None:
    assert from_stored("chat", {"text": "hi"}) == Chatted("table", -1, "", "hi", (), 0.0)


# -- what the last moves say ----------------------------------------------------------------

LABEL = re.compile(r"10[♠♥♦♣]|[A2-9JQK][♠♥♦♣]|★")
CODE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|JK)\b")
CODE_OF_LABEL = {card_label(card): CODES[card] for card in range(len(CODES))}


def cards_named(text: str) -> set[str]:
    return {CODE_OF_LABEL[label] for label in LABEL.findall(text)} | set(CODE.findall(text))


def public_cards(view: Any, hidden: tuple[str, ...] = ("hand", "hands")) -> set[str]:
    """The card codes a view shows outside any hand (discards, melds, the pile)."""
    if isinstance(view, dict):
        return {c for k, v in view.items() if k not in hidden for c in public_cards(v)}
    if isinstance(view, list):
        return {c for v in view for c in public_cards(v)}
    if isinstance(view, str) and CODE.fullmatch(view):
        return {view}
    return set()


def check_words(created: dict[str, Any], rows: list[Row]) -> int:
    """Replay ``rows``, checking each move's words name only cards every seat may know;
    the number of moves whose words name a card."""
    table = state_of(created)
    naming = 0
    for stored in rows:
        event = from_stored(stored.kind, stored.data)
        known: set[str] = set()
        if isinstance(event, Moved):
            assert table.recorder is not None
            before = table.recorder.state.view(event.seat).to_json()
            known = public_cards(before) | set(CODE.findall(event.action))
        reducer.apply(table, event, stored.at)
        if isinstance(event, Moved):
            words = table.last[-1]["words"]
            named = cards_named(words["en"]) | cards_named(words["ar"])
            assert named <= known, (event, words, named - known)
            naming += bool(named)
    return naming


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_a_moves_words_never_name_a_card_hidden_in_a_hand(game: str) -> None:
    row = {"id": "t1", "game": game, "options": game_options(game, 2), "kind": "free"}
    for seed in (1, 2, 3):
        assert check_words(row, scripted_rows(game, 2, seed)) > 0


def test_a_live_games_words_never_name_a_card_hidden_in_a_hand(played: Played) -> None:
    assert check_words(played.table.row, played.table.rows) > 0
