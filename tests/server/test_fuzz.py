"""Hostile frames at a live table, drawn by Hypothesis, for a bounded time.

Four people play one Jackaroo game with legal moves. One of them (the
*heckler*) also sends hostile frames between its moves; a fifth connection
that said hello and sits nowhere (the *guest*) and a sixth that never says
hello (the *anonymous* one) send hostile frames too. Every hostile frame is
followed by a probe (an always-refused ``sit``, carrying an id) that goes the
same way through the server, so whatever arrives before the probe's error is
the answer to that frame. ``tests/server/fuzzing.py`` says what docs/protocol.md
requires for each frame.

The run lasts ``SAHRAT_FUZZ_SECONDS`` (45 by default) of fuzzing. Problems are
collected, not raised inside Hypothesis (a failing example would be shrunk for
minutes against a live server), and reported together at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect

from tests.server import fuzzing
from tests.server.fuzzing import DOCUMENTED_CODES, ENVELOPE_CODES, Context, Expect, Frame
from tests.server.harness import Server, running

#: Among the longest files: started first, so the parallel run ends together.
pytestmark = pytest.mark.long

BUDGET = float(os.environ.get("SAHRAT_FUZZ_SECONDS", "45"))
#: Exchanges per second, each at most two frames per hostile socket: far below the FAST
#: limit of 1000 a second, so the rate limit never refuses a frame it should answer.
STEPS_PER_SECOND = 70
#: Examples per Hypothesis run; runs repeat until the budget is spent.
BATCH = 150
#: A random game lasts about 400 moves: paced so that it outlasts the fuzzing.
MOVE_DELAY = max(0.02, 1.3 * BUDGET / 400)
#: Server messages a connection may receive besides answers (§3).
SERVER_TYPES = frozenset(
    {"welcome", "ping", "pong", "left", "lobby", "lobby_changes", "table", "chat", "chat_history",
     "seed_request", "error", "unwatched", "presence", "pause"}
)  # fmt: skip
PROBE = "probe-"
SEAT_CHANGES = ("leave", "create", "play_now", "join")
BAD_ID = "an invalid id"


class Problems:
    """Distinct failures: (what was sent, what happened) with a count and one example."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], tuple[int, str]] = {}

    def add(self, what: str, happened: str, example: str = "") -> None:
        count, first = self.seen.get((what, happened), (0, example))
        self.seen[(what, happened)] = (count + 1, first)

    def report(self) -> str:
        lines = []
        for (what, happened), (count, example) in sorted(self.seen.items()):
            lines.append(f"- {what} -> {happened} (x{count}); e.g. {example[:300]}")
        return "\n".join(lines)


def _short(data: str | bytes) -> str:
    text = repr(data)
    return text if len(text) <= 200 else f"{text[:160]}... ({len(data)} long)"


class Conn:
    """One socket: answers pings, keeps the table state, queues everything else."""

    def __init__(self, server: Server, role: str, problems: Problems) -> None:
        self.server = server
        self.role = role
        self.problems = problems
        self.ws: ClientConnection | None = None
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.closed = False
        self.close_code: int | None = None
        self.token: str | None = None
        self.player_id = ""
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        #: For each move count this seat was to move at, the legal moves it was offered.
        self.legal_at: dict[int, set[str]] = {}
        #: Every seat action seen in ``last``, by its index in the game.
        self.observed: dict[int, tuple[int, str, bool]] = {}
        self.play_errors: list[dict[str, Any]] = []
        self.routes_tables = role == "seat"

    async def open(self, hello: bool = True) -> None:
        self.inbox = asyncio.Queue()  # nothing from an earlier socket is an answer
        # No keepalive pings from the client: websockets draws their payload from the
        # global ``random`` in the loop's thread, which Hypothesis, drawing frames in
        # this one at the same moment, reports as a strategy using ``random`` (a rare
        # flaky failure). The server's own pings keep the connection checked.
        self.ws = await connect(self.server.ws_url, max_size=2**22, ping_interval=None)
        self.closed = False
        self.reader = asyncio.create_task(self._read(self.ws))
        if hello:
            message: dict[str, Any] = {"v": 1, "type": "hello", "name": self.role}
            if self.token:
                message["token"] = self.token
            await self.ws.send(json.dumps(message))
            welcome = await self.expect(lambda m: m["type"] == "welcome")
            self.token = welcome["token"]
            self.player_id = welcome["player"]["id"]

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode()
                try:
                    message = json.loads(text)
                    assert isinstance(message, dict) and message.get("v") == 1
                    assert message.get("type") in SERVER_TYPES
                except Exception:
                    self.problems.add(f"a frame to the {self.role}", "not a protocol message",
                                      _short(text))  # fmt: skip
                    continue
                if message["type"] == "ping":
                    with contextlib.suppress(Exception):
                        await ws.send('{"v":1,"type":"pong"}')
                    continue
                if message["type"] == "table" and self.routes_tables:
                    self._table(message)
                    continue
                ref = message.get("id")
                if message["type"] == "error" and isinstance(ref, str) and ref.startswith("play-"):
                    self.play_errors.append(message)
                    continue
                await self.inbox.put(message)
        if ws is self.ws:
            self.closed = True
            self.close_code = ws.close_code
            await self.inbox.put({"type": "_closed", "code": ws.close_code})
            self.changed.set()

    def _table(self, message: dict[str, Any]) -> None:
        self.state = message
        moves = message["moves"]
        if message.get("legal") and message.get("to_move") == message["you"]:
            self.legal_at.setdefault(moves, set()).update(message["legal"])
        last = message.get("last") or []
        for offset, entry in enumerate(last):
            index = moves - len(last) + offset
            seen = (entry["seat"], entry["action"], bool(entry.get("auto")))
            if self.observed.setdefault(index, seen) != seen:
                self.problems.add("the table's history", f"move {index} changed", str(seen))
        self.changed.set()

    async def send(self, data: str | bytes) -> bool:
        assert self.ws is not None
        try:
            await self.ws.send(data)
        except Exception:
            return False
        return True

    async def expect(self, where: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.role}: no such message")
            message = await asyncio.wait_for(self.inbox.get(), left)
            if where(message):
                return message
            if message["type"] == "_closed":
                raise ConnectionError(f"{self.role}: closed")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


class Fuzz:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.problems = Problems()
        self.seats: list[Conn] = []
        self.heckler: Conn
        self.guest: Conn
        self.anonymous: Conn
        self.table_id = ""
        self.sent = 0
        self.answers: Counter[str] = Counter()
        self.skipped = 0
        self.rate_limited = 0
        self.probes = 0
        #: Every action string sent from a socket of each seat, well-behaved or hostile.
        self.acts_by_seat: dict[int, set[str]] = {}
        self.players: list[str] = []
        self.stop = False
        self.players_tasks: list[asyncio.Task[None]] = []
        self.auto_moves = 0

    # -- the table ------------------------------------------------------------------------

    async def setup(self) -> None:
        self.seats = [Conn(self.server, "seat", self.problems) for _ in range(4)]
        for seat in self.seats:
            await seat.open()
        creator = self.seats[0]
        await creator.send(json.dumps({"v": 1, "type": "create", "game": "jackaroo", "seats": 4}))
        await self._wait(creator, lambda s: s is not None)
        self.table_id = creator.state["table"]["id"]  # type: ignore[index]
        for seat in self.seats[1:]:
            await seat.send(json.dumps({"v": 1, "type": "join", "table": self.table_id}))
        for seat in self.seats:
            await seat.expect(lambda m: m["type"] == "seed_request")
            await seat.send(json.dumps({"v": 1, "type": "seed", "seed": f"s{id(seat)}"}))
        for seat in self.seats:
            await self._wait(seat, lambda s: s is not None and s["table"]["status"] == "playing")
        self.players = [s["player"] for s in self.seats[0].state["seats"]]  # type: ignore[index]
        self.heckler = self.seats[1]
        self.guest = Conn(self.server, "guest", self.problems)
        await self.guest.open()
        self.anonymous = Conn(self.server, "anonymous", self.problems)
        await self.anonymous.open(hello=False)
        for index, seat in enumerate(self.seats):
            rng = random.Random(index)
            self.players_tasks.append(asyncio.create_task(self._play(seat, rng)))

    async def _wait(self, conn: Conn, done: Any, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not done(conn.state):
            conn.changed.clear()
            await asyncio.wait_for(conn.changed.wait(), max(deadline - time.monotonic(), 0.01))

    def you(self, conn: Conn) -> int:
        return int(conn.state["you"])  # type: ignore[index]

    async def _play(self, conn: Conn, rng: random.Random) -> None:
        """A person: a legal move for each of its turns, after a pause to pace the game."""
        acted = -1
        count = 0
        while not self.stop:
            state = conn.state
            if (
                state is not None
                and state.get("legal")
                and state["to_move"] == state["you"]
                and state["moves"] > acted
            ):
                await asyncio.sleep(MOVE_DELAY * rng.uniform(0.5, 1.5))
                if conn.state is not state:
                    continue  # the position moved on while pausing
                acted = state["moves"]
                action = rng.choice(state["legal"])
                self.acts_by_seat.setdefault(state["you"], set()).add(action)
                count += 1
                message = {"v": 1, "type": "act", "action": action, "moves": acted,
                           "id": f"play-{count}"}  # fmt: skip
                if not await conn.send(json.dumps(message)) and conn is self.heckler:
                    await self._reopen(conn, "a move")
                continue
            conn.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.changed.wait(), 1.0)

    def phase(self) -> str:
        state = self.heckler.state or {}
        return "over" if "result" in state else "playing"

    def context(self, conn: Conn) -> Context:
        state = self.heckler.state or {}
        legal: list[str] = []
        if conn is self.heckler:
            legal = sorted(self.heckler.legal_at.get(max(self.heckler.legal_at, default=0), []))
        else:
            for seat in self.seats:
                if seat.state and seat.state.get("legal"):
                    legal = list(seat.state["legal"])
        # A real token in the anonymous socket's hello would make it someone's second tab;
        # the guest's token at least seats it nowhere.
        token = self.guest.token if conn is self.anonymous else conn.token
        return Context(
            table_id=self.table_id,
            moves=int(state.get("moves", 0)),
            legal=legal or ["AH b0-t0"],
            players=list(self.players),
            token=token or "",
            forged=f"{self.players[0]}.{'0' * 64}",
        )

    # -- one exchange -----------------------------------------------------------------------

    async def step(self, frames: tuple[Frame, Frame, Frame]) -> None:
        started = time.monotonic()
        await asyncio.gather(
            self.exchange(self.guest, "guest", frames[0]),
            self.exchange(self.anonymous, "anonymous", frames[1]),
            self.exchange(self.heckler, "seat", frames[2]),
        )
        pause = 1 / STEPS_PER_SECOND - (time.monotonic() - started)
        if pause > 0:
            await asyncio.sleep(pause)

    def _skip(self, sender: str, expect: Expect, data: str | bytes) -> bool:
        """Frames that would legitimately change who sits where: not what this test is about."""
        if sender == "anonymous":
            return expect.reply == "any"  # a valid hello: it would not be anonymous any more
        if sender == "seat":
            # Leaving, or moving to another table once the game is over. Judged by a loose
            # reading, so that a server reading the envelope more loosely than the document
            # (an id of null, say) does not take the seat away in the middle of the run.
            with contextlib.suppress(Exception):
                loose = json.loads(data)
                kind = loose.get("type") if isinstance(loose, dict) else None
                if kind in SEAT_CHANGES and (expect.reply != "error" or expect.why == BAD_ID):
                    return True
                if kind == "leave":
                    return not (expect.envelope_error or expect.codes <= {"not_seated"})
        return False

    async def exchange(self, conn: Conn, sender: str, frame: Frame) -> None:
        """One frame and its probe; a hang or a failure of the client itself is a problem
        to report, and the socket starts afresh rather than ending the run."""
        try:
            await asyncio.wait_for(self._exchange(conn, sender, frame), 25)
        except Exception as error:
            self.problems.add(f"{sender}: {frame.label}", f"the exchange failed: {error!r}")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)
            conn.closed = True

    async def _exchange(self, conn: Conn, sender: str, frame: Frame) -> None:
        if conn.closed:
            await self._reopen(conn, "the last frame")
        data = fuzzing.materialize(frame, self.context(conn))
        phase = self.phase()
        expect = fuzzing.expectation(data, sender, phase, self.table_id)
        if phase == "over":
            # The finished table is forgotten after its linger: then nothing is seated.
            expect.codes |= {"not_seated"}
        if self._skip(sender, expect, data):
            self.skipped += 1
            return
        message = expect.message or {}
        if sender == "seat" and message.get("type") == "act":
            action = message.get("action")
            if isinstance(action, str):
                self.acts_by_seat.setdefault(self.you(conn), set()).add(action)
        while not conn.inbox.empty():
            conn.inbox.get_nowait()  # messages about the table, not answers
        self.probes += 1
        probe = f"{PROBE}{self.probes}"
        self.sent += 1
        if not await conn.send(data):
            self.problems.add(f"{sender}: {frame.label}", "could not send: the socket is closed",
                              _short(data))  # fmt: skip
            return
        await conn.send(json.dumps({"v": 1, "type": "sit", "seat": -1, "id": probe}))
        replies: list[dict[str, Any]] = []
        deadline = time.monotonic() + 10
        while True:
            try:
                reply = await asyncio.wait_for(conn.inbox.get(), deadline - time.monotonic())
            except TimeoutError:
                replies.append({"type": "_timeout"})
                break
            if reply["type"] == "error" and reply.get("id") == probe:
                break
            replies.append(reply)
            if reply["type"] == "_closed":
                break
        self.judge(conn, sender, frame, data, expect, replies)
        if sender == "anonymous" and any(r["type"] == "welcome" for r in replies):
            # The server took a hello the document refuses: start anonymous again.
            await conn.close()
            await conn.open(hello=False)
        if sender == "guest" and any(r["type"] in ("table", "chat_history") for r in replies):
            # A valid create or play_now seated the guest: it stands up again at once.
            await conn.send('{"v":1,"type":"leave"}')
            with contextlib.suppress(TimeoutError, ConnectionError):
                await conn.expect(lambda m: m["type"] == "left", timeout=5)

    def judge(
        self,
        conn: Conn,
        sender: str,
        frame: Frame,
        data: str | bytes,
        expect: Expect,
        replies: list[dict[str, Any]],
    ) -> None:
        what = f"{sender}: {frame.label} ({expect.why or expect.reply})"
        example = _short(data)

        def fail(happened: str) -> None:
            self.problems.add(what, happened, example)

        errors = [r for r in replies if r["type"] == "error"]
        pongs = [r for r in replies if r["type"] == "pong"]
        for reply in replies:
            if reply["type"] == "_closed":
                fail(f"socket closed (code {reply['code']})")
                return
            if reply["type"] == "_timeout":
                fail("no answer to the probe within 10 s")
                return
        if any(e["code"] == "rate_limited" for e in errors):
            self.rate_limited += 1
            return
        for error in errors:
            self.answers[error["code"]] += 1
            if error["code"] not in DOCUMENTED_CODES:
                fail(f"undocumented error code {error['code']!r}")
            if error["code"] in ENVELOPE_CODES and "id" in error:
                fail(f"{error['code']} carries an id")
        message = expect.message or {}
        ref = message.get("id")
        for error in errors:
            echoes = error["code"] not in ENVELOPE_CODES and ref is not None
            if echoes and error.get("id") != ref:
                fail(f"{error['code']} without the message's id")
        codes = sorted(e["code"] for e in errors)
        if expect.reply == "error":
            if not errors:
                got = sorted({r["type"] for r in replies}) or ["nothing"]
                fail(f"no error (expected {'/'.join(sorted(expect.codes))}; got {got})")
            elif len(errors) > 1 or errors[0]["code"] not in expect.codes:
                fail(f"error {codes} (expected {'/'.join(sorted(expect.codes))})")
        elif expect.reply == "any":
            if len(errors) > 1 or (errors and errors[0]["code"] not in expect.codes):
                fail(f"error {codes} (allowed {'/'.join(sorted(expect.codes))})")
        elif expect.reply == "pong":
            if errors:
                fail(f"error {codes} instead of a pong")
            elif len(pongs) != 1:
                fail(f"{len(pongs)} pongs")
            elif pongs[0].get("id") != ref:
                fail(f"pong with id {pongs[0].get('id')!r}")
        elif errors or pongs:
            fail(f"an answer to a pong: {codes or 'pong'}")

    async def _reopen(self, conn: Conn, after: str) -> None:
        """A hostile socket the server closed comes back, so the run goes on."""
        self.problems.add(
            f"{conn.role} socket", f"closed by the server (code {conn.close_code})", after
        )
        await conn.open(hello=conn.role != "anonymous")

    # -- the end --------------------------------------------------------------------------

    async def finish(self) -> dict[str, Any]:
        problems = self.problems
        # The game goes on (or has ended): the moves keep coming for a moment.
        before = self.heckler.state["moves"]  # type: ignore[index]
        deadline = time.monotonic() + 10
        while (
            "result" not in (self.heckler.state or {})
            and self.heckler.state["moves"] <= before + 3  # type: ignore[index]
            and time.monotonic() < deadline
        ):
            await asyncio.sleep(0.1)
        state = self.heckler.state or {}
        if "result" not in state and state["moves"] <= before + 3:
            problems.add("the game", "stopped making progress", f"moves {state['moves']}")
        self.stop = True
        for task in self.players_tasks:
            task.cancel()
        await asyncio.gather(*self.players_tasks, return_exceptions=True)
        # Every person's socket stayed open and still answers.
        for number, seat in enumerate(self.seats):
            role = "the heckler" if seat is self.heckler else f"person {number}"
            if seat.closed:
                problems.add(role, f"socket closed (code {seat.close_code})")
                continue
            await seat.send(json.dumps({"v": 1, "type": "ping", "id": f"end-{number}"}))
            try:
                await seat.expect(lambda m, n=number: m.get("id") == f"end-{n}", timeout=5)
            except (TimeoutError, ConnectionError) as error:
                problems.add(role, f"no pong at the end: {error}")
            if seat is not self.heckler:
                for error in seat.play_errors:
                    problems.add(role, f"its legal move was refused: {error['code']}")
        self.check_moves()
        final = self.seats[0].state or {}
        for entry in final.get("seats", []):
            if entry.get("bot") or not entry.get("connected", False):
                problems.add("the seats", "a person was replaced or dropped", str(entry))
            elif entry.get("player") != self.players[entry["seat"]]:
                problems.add("the seats", "someone else sits there", str(entry))
        return final

    def check_moves(self) -> None:
        """Every move came from its own seat (or its clock), legal where it was played."""
        observed: dict[int, tuple[int, str, bool]] = {}
        for seat in self.seats:
            for index, move in seat.observed.items():
                if observed.setdefault(index, move) != move:
                    self.problems.add("the table's history", "seats saw different moves",
                                      f"move {index}")  # fmt: skip
        by_seat = {self.you(s): s for s in self.seats}
        final_moves = max((s.state or {}).get("moves", 0) for s in self.seats)
        for index in range(final_moves):
            if index not in observed:
                self.problems.add("the table's history", "a move nobody was shown", str(index))
                continue
            seat_number, action, auto = observed[index]
            legal = by_seat[seat_number].legal_at.get(index)
            if legal is None:
                self.problems.add("a move", "its seat was never offered that turn",
                                  f"move {index}: {seat_number} {action}")  # fmt: skip
            elif action not in legal:
                self.problems.add("a move", "not legal in its position",
                                  f"move {index}: {seat_number} {action}")  # fmt: skip
            if not auto and action not in self.acts_by_seat.get(seat_number, set()):
                self.problems.add("a move", "played for a seat that never sent it",
                                  f"move {index}: {seat_number} {action}")  # fmt: skip
        self.auto_moves = sum(1 for _, _, auto in observed.values() if auto)

    async def close(self) -> None:
        self.stop = True
        for task in self.players_tasks:
            task.cancel()
        await asyncio.gather(*self.players_tasks, return_exceptions=True)
        hostile = [getattr(self, name, None) for name in ("guest", "anonymous")]
        for conn in [*self.seats, *hostile]:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)  # type: ignore[union-attr]


class Loop:
    """An event loop in a thread of its own: Hypothesis drives the fuzzing from this one."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


GUEST_TYPES = fuzzing.CLIENT_TYPES
ANONYMOUS_TYPES = fuzzing.CLIENT_TYPES


def test_hostile_frames_at_a_live_table(tmp_path: Path) -> None:
    loop = Loop()
    try:
        with running(tmp_path) as server:
            fuzz = Fuzz(server)
            loop.run(fuzz.setup())
            started = time.monotonic()
            end = started + BUDGET

            @settings(
                max_examples=BATCH,
                deadline=None,
                database=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
                print_blob=False,
            )
            @given(st.tuples(fuzzing.frames(GUEST_TYPES), fuzzing.frames(ANONYMOUS_TYPES),
                             fuzzing.frames()))  # fmt: skip
            def batch(frames: tuple[Frame, Frame, Frame]) -> None:
                if time.monotonic() < end and server.process.poll() is None:  # type: ignore[union-attr]
                    loop.run(fuzz.step(frames), timeout=90)

            try:
                for frame in fuzzing.CORPUS:
                    loop.run(fuzz.step((frame, frame, frame)), timeout=90)
                while time.monotonic() < end and server.process.poll() is None:  # type: ignore[union-attr]
                    batch()
                duration = time.monotonic() - started
                alive = server.process.poll() is None  # type: ignore[union-attr]
                final = loop.run(fuzz.finish()) if alive else {}
                health = server.get("/api/health") if alive else {}
            finally:
                loop.run(fuzz.close())
            print(
                f"\nfuzz: {fuzz.sent} messages in {duration:.1f} s "
                f"({fuzz.skipped} drawn frames skipped, {fuzz.rate_limited} rate-limited, "
                f"{fuzz.auto_moves} clock moves); game at move {final.get('moves')}, "
                f"{'over' if 'result' in final else 'going on'}; "
                f"answers {dict(fuzz.answers.most_common())}"
            )
            report = fuzz.problems.report()
            if report:
                print(f"fuzz problems:\n{report}")
            assert alive and health.get("ok"), "the server went down"
            assert not report, f"hostile frames were mishandled:\n{report}"
    finally:
        loop.close()
