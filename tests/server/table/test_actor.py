"""The table actor alone, in memory: its inbox, its log, what it tells its host and seats."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from sahrat.server.table import actor as actor_module
from sahrat.server.table import views
from sahrat.server.table.events import Moved
from sahrat.server.table.inbox import Attach
from sahrat.server.table.state import FINISHED, PLAYING, WAITING, TableState
from tests.server.table.conftest import Played
from tests.server.table.fakes import FakeClient, RecordingHost, Row, settings
from tests.server.table.tables import (
    Table,
    as_client,
    open_table,
    play_to_end,
    seated,
    settle,
    started,
    to_move,
    until,
)


def run(scenario: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(scenario, 20))


async def against_a_bot(
    tmp_path: Path, game: str = "jackaroo", **changes: Any
) -> tuple[Table, FakeClient]:
    """A public 2-seat table: one person, a bot in the other seat, the game started."""
    table = await open_table(game, settings(tmp_path, **changes))
    client = FakeClient("p1", "Salem")
    await seated(table, client)
    table.send(client, "bots")
    await started(table, client)
    return table, client


async def two_people(tmp_path: Path, **changes: Any) -> tuple[Table, FakeClient, FakeClient]:
    """A public 2-seat Jackaroo table of two people, the game started."""
    table = await open_table("jackaroo", settings(tmp_path, **changes))
    first, second = FakeClient("p1", "Salem"), FakeClient("p2", "Huda")
    await seated(table, first, second)
    await started(table, first, second)
    return table, first, second


async def turn_of(table: Table, *clients: FakeClient) -> tuple[FakeClient, dict[str, Any]]:
    """The client to move once the table waits for a person, and its ``table`` message."""

    def waiting_for() -> tuple[FakeClient, dict[str, Any]] | None:
        for client in clients:
            message = to_move(client)
            if message is not None and message["moves"] == table.actor.table.moves:
                return client, message
        return None

    await until(waiting_for, "a person's turn")
    found = waiting_for()
    assert found is not None
    return found


def move_rows(table: Table) -> list[Row]:
    return [row for row in table.rows if row.kind == "move"]


# -- whole games ----------------------------------------------------------------------------


def test_a_whole_game_against_a_bot_plays_to_the_end(played: Played) -> None:
    table = played.table
    state = table.actor.table
    assert state.status == FINISHED and state.recorder is not None
    assert state.recorder.state.is_terminal()
    record = table.log.records[table.actor.id]
    winners = record["result"]["winners"]
    assert winners and table.rows[-1].kind == "end" and table.rows[-1].data["winners"] == winners
    final = played.client.last("table")
    assert final is not None and final["table"]["status"] == FINISHED
    assert final["server_seed"] == record["server_seed"]
    assert played.client.errors() == []


def test_a_buraco_match_is_played_to_its_target(buraco_game: Played) -> None:
    record = buraco_game.table.log.records[buraco_game.table.actor.id]
    assert record["options"]["target"] == 1000
    recorder = buraco_game.table.actor.table.recorder
    assert recorder is not None
    outcome = recorder.state.outcome()
    assert outcome is not None and list(outcome.winners) == record["result"]["winners"]
    [won] = [side for side in outcome.sides if side.result == 1]
    assert won.points is not None and won.points >= 1000


def test_the_log_holds_every_event_in_order_without_a_gap(played: Played) -> None:
    table = played.table
    rows = table.rows
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    assert [row.at for row in rows] == sorted(row.at for row in rows)
    kinds = [row.kind for row in rows]
    assert kinds[:3] == ["turn_time", "seat", "seat"]
    assert kinds[-1] == "end"
    assert kinds.index("commit") < kinds.index("start") < kinds.index("move")
    assert kinds.count("chat") == 1
    # Every seat's action the game applied is in the log, in the order it was played.
    recorder = table.actor.table.recorder
    assert recorder is not None
    played_actions = [(e["seat"], e["action"]) for e in recorder.log if e["seat"] is not None]
    assert [(r.data["seat"], r.data["action"]) for r in move_rows(table)] == played_actions
    assert table.actor.table.seq == len(rows)


def test_the_table_is_closed_once_the_linger_is_over_and_nobody_watches(played: Played) -> None:
    host = played.table.host
    assert host.count("closed") == 1
    assert ("closed", None) not in host.calls[: played.calls_at_end]
    assert host.calls[-1] == ("closed", None) and host.tables[-1] is played.table.actor
    assert played.client.table is None and played.table.actor.watchers == {}


def test_the_host_hears_of_a_player_when_they_sit_and_when_the_linger_is_over(
    played: Played,
) -> None:
    host = played.table.host
    assert host.seat_calls() == [("player_seated", "p1"), ("player_unseated", "p1")]
    unseated = host.calls.index(("player_unseated", "p1"))
    assert unseated >= played.calls_at_end  # not when the game ended: when the linger did


# -- who sits where -------------------------------------------------------------------------


def test_joining_seats_the_player_and_tells_the_host(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path))
        client = FakeClient("p1", "Salem")
        await seated(table, client)
        assert table.host.seat_calls() == [("player_seated", "p1")]
        assert table.rows[-1].kind == "seat" and table.rows[-1].data["player"] == "p1"
        assert [m["type"] for m in client.sent] == ["chat_history", "table"]
        message = client.last("table")
        assert message is not None and message["you"] == 0
        assert client.table is table.actor
        await table.actor.stop()

    run(scenario())


def test_a_refused_join_releases_the_players_reservation(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path))
        await seated(table, FakeClient("p1"), FakeClient("p2"))
        late = FakeClient("p3")
        table.sit(late)
        await until(late.errors, "the join to be refused")
        assert late.errors() == ["wrong_phase"]
        assert table.host.seat_calls()[-1] == ("player_unseated", "p3")
        assert ("player_seated", "p3") not in table.host.calls
        await table.actor.stop()

    run(scenario())


def test_leaving_a_waiting_table_frees_the_seat_and_closes_an_empty_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path))
        client = FakeClient("p1")
        await seated(table, client)
        table.send(client, "leave")
        await until(lambda: table.host.count("closed"), "the table to be closed")
        assert table.log.kinds(table.actor.id)[-2:] == ["unseat", "close"]
        assert table.log.closed == [table.actor.id]
        assert client.last("left") is not None and client.table is None
        await table.actor.stop()

    run(scenario())


def test_leaving_a_waiting_table_tells_the_host_once(tmp_path: Path) -> None:
    """One departure, one ``player_unseated``: a host that counts or publishes who
    leaves (a cluster's) must not hear of it twice."""

    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path), seats=4)
        leaving, staying = FakeClient("p1"), FakeClient("p2")
        await seated(table, leaving, staying)
        table.send(leaving, "leave")
        await until(lambda: leaving.last("left"), "the player to leave")
        await settle()
        assert table.host.seat_calls() == [
            ("player_seated", "p1"),
            ("player_seated", "p2"),
            ("player_unseated", "p1"),
        ]
        assert table.actor.status == WAITING
        await table.actor.stop()

    run(scenario())


def test_leaving_a_game_gives_the_seat_to_a_bot(tmp_path: Path) -> None:
    async def scenario() -> None:
        # Someone else is still there: the game goes on (else the table closes).
        table, client, _ = await two_people(tmp_path, bot_delay=5.0)
        seat = table.actor.table.seat_of("p1")
        table.send(client, "leave")
        await until(lambda: client.last("left"), "the player to leave")
        taken = table.actor.table.seats[seat or 0]
        assert seat is not None and taken is not None and taken.bot
        assert table.rows[-1].kind == "seat" and table.rows[-1].data["bot"] is True
        assert table.actor.status == PLAYING and client.table is None
        await table.actor.stop()

    run(scenario())


def test_leaving_a_game_tells_the_host_once(tmp_path: Path) -> None:
    """One departure, one ``player_unseated``: a host that counts or publishes who
    leaves (a cluster's) must not hear of it twice."""

    async def scenario() -> None:
        table, client, _ = await two_people(tmp_path, bot_delay=5.0)
        table.send(client, "leave")
        await until(lambda: client.last("left"), "the player to leave")
        await settle()
        assert table.host.seat_calls() == [
            ("player_seated", "p1"),
            ("player_seated", "p2"),
            ("player_unseated", "p1"),
        ]
        await table.actor.stop()

    run(scenario())


def test_leaving_a_finished_table_tells_the_host_once(tmp_path: Path) -> None:
    """One departure, one ``player_unseated``: a host that counts or publishes who
    leaves (a cluster's) must not hear of it twice."""

    async def scenario() -> None:
        table, first, second = await two_people(tmp_path, finished_linger=0.5)
        await play_to_end(table, first, second)
        table.send(first, "leave")
        await until(lambda: table.host.count("closed"), "the linger to end", timeout=5)
        assert table.host.seat_calls().count(("player_unseated", "p1")) == 1
        assert table.host.seat_calls().count(("player_unseated", "p2")) == 1
        await table.actor.stop()

    run(scenario())


def test_a_player_away_past_the_grace_is_replaced_by_a_bot(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, client, _ = await two_people(tmp_path, bot_delay=5.0, grace_seconds=0.05)
        seat = table.actor.table.seat_of("p1")
        table.drop(client)
        await until(lambda: table.actor.table.seat_of("p1") is None, "a bot to take the seat")
        taken = table.actor.table.seats[seat or 0]
        assert taken is not None and taken.bot
        assert table.host.seat_calls()[-1] == ("player_unseated", "p1")
        assert table.host.seat_calls().count(("player_unseated", "p1")) == 1
        await table.actor.stop()

    run(scenario())


def test_a_table_nobody_watches_is_closed_as_soon_as_its_game_ends(tmp_path: Path) -> None:
    async def scenario() -> None:
        # The linger is long: only a table someone still watches waits for it.
        table, client = await against_a_bot(tmp_path, grace_seconds=0.0, finished_linger=60.0)
        table.drop(client)
        await until(lambda: table.host.count("closed"), "the table to be closed", timeout=15)
        # Its last person gone, a free table closes rather than let bots play for nobody.
        assert table.actor.table.over
        await table.actor.stop()

    run(scenario())


def test_a_player_away_past_the_grace_at_a_waiting_table_loses_the_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path), seats=4)
        away, staying = FakeClient("p1"), FakeClient("p2")
        await seated(table, away, staying)
        table.drop(away)
        await until(lambda: table.actor.table.seat_of("p1") is None, "the seat to be freed")
        assert table.host.seat_calls()[-1] == ("player_unseated", "p1")
        assert table.host.seat_calls().count(("player_unseated", "p1")) == 1
        assert table.log.kinds(table.actor.id)[-1] == "unseat"
        assert table.actor.status == WAITING
        await table.actor.stop()

    run(scenario())


def test_a_player_back_within_the_grace_keeps_the_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path, waiting_grace_seconds=0.05))
        first = FakeClient("p1")
        await seated(table, first)
        table.drop(first)
        again = FakeClient("p1")
        table.actor.post(Attach(as_client(again)))
        await until(lambda: again.last("table"), "the table to be sent again")
        await asyncio.sleep(0.15)
        assert table.actor.table.seat_of("p1") == 0
        assert table.host.seat_calls() == [("player_seated", "p1")]
        await table.actor.stop()

    run(scenario())


# -- restoring from the log -----------------------------------------------------------------


def seen(table: TableState) -> dict[str, Any]:
    """What a restore must give back: seats, stage, moves, chat, last moves, every view."""
    shared = views.shared(table, None)
    for seat in shared["seats"]:
        seat.pop("connected", None)  # a restored seat waits for its player to come back
    recorder = table.recorder
    return {
        "seats": {
            n: None if s is None else (s.player, s.name, s.bot, s.away)
            for n, s in table.seats.items()
        },
        "status": table.status,
        "seq": table.seq,
        "moves": table.moves,
        "chat": {n: [line.public() for line in table.chat_for(n)] for n in table.seat_numbers},
        "shared": shared,
        "own": {p: views.own(table, p) for p in table.humans()},
        "record": None if recorder is None else recorder.to_json(),
    }


async def a_game_under_way(tmp_path: Path) -> tuple[Table, FakeClient]:
    """A person against a bot, a few moves and a chat line in, the person to move."""
    table, client = await against_a_bot(tmp_path)
    table.send(client, "chat", text="مرحبا")
    while table.actor.table.moves < 6:
        _, message = await turn_of(table, client)
        table.send(client, "act", action=message["legal"][0], moves=message["moves"])
        await until(lambda m=message: table.actor.table.moves > m["moves"], "the move")
    await turn_of(table, client)
    return table, client


def test_a_restored_table_has_the_live_tables_seats_moves_and_views(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, _ = await a_game_under_way(tmp_path)
        restored = table.restored()
        assert seen(restored.table) == seen(table.actor.table)
        assert restored.record() == table.actor.record()
        assert [s.connected for s in restored.table.seats.values() if s and not s.bot] == [False]
        await table.actor.stop()

    run(scenario())


def test_restore_tells_the_host_nothing_and_announce_tells_it_of_each_human_once(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path), seats=4)
        people = [FakeClient("p1"), FakeClient("p2")]
        await seated(table, *people)
        table.send(people[0], "bots")
        await started(table, *people)
        host = RecordingHost()
        restored = table.restored(host)
        assert host.calls == []
        restored.announce()
        assert sorted(host.calls) == [("player_seated", "p1"), ("player_seated", "p2")]
        assert all(t is restored for t in host.tables)
        await table.actor.stop()

    run(scenario())


def test_a_restored_table_plays_on_to_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, _ = await a_game_under_way(tmp_path)
        await table.actor.stop()
        restored = table.restored()
        restored.start()
        restored.resume()
        back = FakeClient("p1", "Salem")
        restored.post(Attach(as_client(back)))
        await play_to_end(Table(restored, table.row, table.settings, log=table.log), back)
        rows = table.rows
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        assert rows[-1].kind == "end" and restored.status == FINISHED
        await restored.stop()

    run(scenario())


# -- moves refused --------------------------------------------------------------------------


def test_an_illegal_act_answers_illegal_move_with_a_reason_and_stores_nothing(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, message = await turn_of(table, first, second)
        hand = message["view"]["hands"][str(message["you"])]
        card = next(c for c in ("AS", "2H", "3D", "4C", "5S", "6H") if c not in hand)
        action = f"{card} discard"  # well formed, whatever the hand; the card is not held
        stored = len(table.rows)
        table.send(mover, "act", action=action, id="bad")
        await until(mover.errors, "an answer")
        error = mover.last("error")
        assert error is not None and error["code"] == "illegal_move" and error["id"] == "bad"
        assert error["reason"] == {"code": "card_not_held", "params": {"card": card}}
        await settle()
        assert len(table.rows) == stored and table.actor.table.moves == message["moves"]
        await table.actor.stop()

    run(scenario())


def test_an_act_that_is_no_action_answers_not_an_action(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, _ = await turn_of(table, first, second)
        stored = len(table.rows)
        table.send(mover, "act", action="dance")
        await until(mover.errors, "an answer")
        error = mover.last("error")
        assert error is not None and error["code"] == "illegal_move"
        assert error["reason"] == {"code": "not_an_action", "params": {}}
        assert len(table.rows) == stored
        await table.actor.stop()

    run(scenario())


def test_an_act_out_of_turn_answers_not_your_turn(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, message = await turn_of(table, first, second)
        other = second if mover is first else first
        stored = len(table.rows)
        table.send(other, "act", action=message["legal"][0], id=7)
        await until(other.errors, "an answer")
        error = other.last("error")
        assert error is not None and (error["code"], error["id"]) == ("not_your_turn", 7)
        await settle()
        assert len(table.rows) == stored
        await table.actor.stop()

    run(scenario())


def test_an_act_for_an_earlier_position_answers_stale(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, message = await turn_of(table, first, second)
        stored = len(table.rows)
        table.send(mover, "act", action=message["legal"][0], moves=message["moves"] + 1)
        await until(mover.errors, "an answer")
        assert mover.errors() == ["stale"] and len(table.rows) == stored
        await table.actor.stop()

    run(scenario())


def test_a_turn_that_runs_out_is_played_by_the_autopilot(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, client = await against_a_bot(tmp_path, turn_seconds=0.02)
        seat = table.actor.table.seat_of("p1")

        def played_for_them() -> list[Row]:
            return [r for r in move_rows(table) if r.data["seat"] == seat and r.data["auto"]]

        await until(played_for_them, "the server to play the person's turn")
        first = played_for_them()[0]
        assert first.data["turn_start"] is True
        assert table.host.autopiloted and set(table.host.autopiloted) == {"jackaroo"}

        def shown() -> list[dict[str, Any]]:
            message = client.last("table")
            return [m for m in (message or {}).get("last", []) if m["seat"] == seat]

        await until(shown, "the person's turn in the last moves")
        assert all(m["auto"] for m in shown())
        await table.actor.stop()

    run(scenario())


# -- the log refusing -----------------------------------------------------------------------


def test_a_log_conflict_makes_the_table_report_divergence_and_stop(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, message = await turn_of(table, first, second)
        # Another writer stores the table's next event first.
        seq = table.actor.table.seq
        table.rows.append(Row(seq + 1, "chat", {"text": "written elsewhere"}, 0.0))
        table.send(mover, "act", action=message["legal"][0], id="first")
        await until(lambda: table.host.count("diverged"), "the host to be told")
        error = mover.last("error")
        assert error is not None and (error["code"], error["id"]) == ("unavailable", "first")
        assert table.host.tables[-1] is table.actor and table.host.count("diverged") == 1
        assert table.actor.table.seq == seq and table.actor.table.moves == message["moves"]
        # The actor has stopped: nothing more is handled.
        task = table.actor._task
        assert task is not None and task.done()
        sent = len(mover.sent)
        table.send(mover, "chat", text="anyone?")
        await settle()
        assert len(mover.sent) == sent
        await table.actor.stop()

    run(scenario())


def test_an_act_the_log_cannot_store_answers_unavailable_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        table, first, second = await two_people(tmp_path)
        mover, message = await turn_of(table, first, second)
        stored = len(table.rows)
        table.log.fail_next()
        table.send(mover, "act", action=message["legal"][0], id="a")
        await until(mover.errors, "an answer")
        assert mover.errors() == ["unavailable"] and len(table.rows) == stored
        assert table.actor.table.moves == message["moves"]
        table.send(mover, "act", action=message["legal"][0], id="b")
        await until(lambda: table.actor.table.moves == message["moves"] + 1, "the move again")
        assert len(table.rows) == stored + 1
        await table.actor.stop()

    run(scenario())


def test_a_bots_move_the_log_cannot_store_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor_module, "RETRY_SECONDS", 0.02)

    async def scenario() -> None:
        table, client = await against_a_bot(tmp_path)
        bot = next(n for n, s in table.actor.table.seats.items() if s is not None and s.bot)
        table.log.fail_next(lambda seq, event: isinstance(event, Moved) and event.seat == bot)
        acted = -1
        while not table.log.refused:  # the person plays until the bot's turn comes
            message = to_move(client)
            if message is not None and message["moves"] > acted:
                acted = message["moves"]
                table.send(client, "act", action=message["legal"][0], moves=acted)
            await asyncio.sleep(0.001)
        [(seq, kind)] = table.log.refused
        await until(lambda: len(table.rows) >= seq, "the bot's move to be stored")
        stored = table.rows[seq - 1]
        assert (stored.seq, stored.kind, stored.data["seat"]) == (seq, kind, bot)
        rows = table.rows
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        assert client.errors() == []
        await table.actor.stop()

    run(scenario())


# -- chat -----------------------------------------------------------------------------------


async def three_of_four(tmp_path: Path) -> tuple[Table, list[FakeClient]]:
    """Three people at a 4-seat table, in seats 0, 1 and 2 (0 and 2 are partners)."""
    table = await open_table("jackaroo", settings(tmp_path), seats=4)
    people = [FakeClient(f"p{n}") for n in range(3)]
    for n, person in enumerate(people):
        table.sit(person, n)
        await until(lambda p=person: p.last("table"), "the seat")
    return table, people


def test_team_chat_reaches_only_the_partners(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (us, rival, partner) = await three_of_four(tmp_path)
        table.send(us, "chat", text="psst", channel="team")
        await until(lambda: partner.of_type("chat"), "the partner to hear")
        await settle()
        for heard in (us, partner):
            [line] = heard.of_type("chat")
            assert (line["channel"], line["seat"], line["text"]) == ("team", 0, "psst")
        assert rival.of_type("chat") == []
        assert table.rows[-1].data["to"] == [0, 2]
        await table.actor.stop()

    run(scenario())


def test_chat_history_is_kept_per_audience(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, (us, rival, partner) = await three_of_four(tmp_path)
        table.send(us, "chat", text="psst", channel="team")
        table.send(rival, "chat", text="hello all")
        await until(lambda: len(partner.of_type("chat")) == 2, "both lines")
        histories = {}
        for person in (us, rival, partner):
            tab = FakeClient(person.player)  # a second tab opens
            table.actor.post(Attach(as_client(tab)))
            await until(lambda t=tab: t.last("chat_history"), "the history")
            history = tab.last("chat_history")
            assert history is not None
            histories[person.player] = [m["text"] for m in history["messages"]]
        assert histories == {
            "p0": ["psst", "hello all"],
            "p1": ["hello all"],
            "p2": ["psst", "hello all"],
        }
        await table.actor.stop()

    run(scenario())


def test_team_chat_at_a_two_seat_table_answers_no_partner(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = await open_table("jackaroo", settings(tmp_path))
        client = FakeClient("p1")
        await seated(table, client)
        stored = len(table.rows)
        table.send(client, "chat", text="psst", channel="team")
        await until(client.errors, "an answer")
        assert client.errors() == ["no_partner"] and len(table.rows) == stored
        await table.actor.stop()

    run(scenario())
