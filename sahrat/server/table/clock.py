"""The game in play: moves, the turn clock, bots and the autopilot, the end.

Every seat's turn has a deadline (the table's turn time); a bot plays after
a short delay; when a person's clock runs out the server plays for them
(the autopilot, computed off the event loop), turn after turn until they
act again, and marks them away after a few. A move is checked by the engine
before it is stored; once the game is over its end and its record (the
seed revealed) are stored together.

A move that ends a scored hand (a Buraco hand: the seats' views list one more
result) holds the next hand for ``hand_pause_seconds``, while the people read
the hand's summary: the next turn's clock starts and a bot plays only after
it, and the seats are sent a ``pause`` message with the moment play resumes.
The pause is worked out from the stored moves, never stored itself: after a
restart a table whose new hand has no move yet simply pauses again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

from sahrat.server import metrics
from sahrat.server.ledger.transfers import settle, settlement_transfer
from sahrat.server.protocol import ProtocolError
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import Ended, Moved
from sahrat.server.table.host import SeatResult
from sahrat.server.table.inbox import AutopilotChose, BotDue, ClockRanOut, Finish, LingerOver
from sahrat.server.table.state import FINISHED, PLAYING
from sahrat.simulation import SimSource

log = logging.getLogger("sahrat.table")


class Clock(TableCore):
    """The playing part of a table actor."""

    async def act(self, seat_number: int, text: str, moves: int | None) -> None:
        table = self.table
        if table.status != PLAYING or table.recorder is None:
            raise ProtocolError("wrong_phase", "the game is not running")
        if moves is not None and moves != table.moves:
            raise ProtocolError("stale", f"the position has moved on (moves {table.moves})")
        state = table.recorder.state
        if state.current_player() != seat_number:
            raise ProtocolError("not_your_turn")
        try:
            action = state.parse_action(text)
        except Exception:
            raise ProtocolError(
                "illegal_move", reason={"code": "not_an_action", "params": {}}
            ) from None
        # The engine checks it before anything is stored; the player is told why in words
        # of their own language (a reason code), never the engine's English.
        reason = state.why_illegal(action)
        if reason is not None:
            raise ProtocolError("illegal_move", reason=reason.to_json())
        await self.play(seat_number, str(action), auto=False)

    async def play(self, seat_number: int, action: str, auto: bool) -> None:
        turn_start = auto and not self.expired_counted
        if turn_start:
            self.expired_counted = True
        recorder = self.table.recorder
        deals = -1 if recorder is None else len(recorder.deals)
        await self.commit(Moved(seat_number, action, auto, turn_start))
        metrics.MOVES.inc()
        # Only a move that brought a new deal can have ended a hand: the views are read
        # then, not after every move.
        if recorder is not None and len(recorder.deals) > deals and self.between_hands():
            self.pause_for_the_summary()
        self.after_change(new_turn=False)

    def between_hands(self) -> bool:
        """Has a scored hand ended, with no move yet in the next one?

        Only games that score hands list ``results`` in their views; a Jackaroo
        reshuffle is no end of a hand.
        """
        recorder = self.table.recorder
        if recorder is None or not recorder.deals or recorder.state.is_terminal():
            return False
        dealt = recorder.deals[-1]["after"]
        if any(entry["seat"] is not None for entry in recorder.log[dealt:]):
            return False
        state = recorder.state
        results = state.view(state.seats[0]).to_json().get("results")
        return isinstance(results, list) and len(results) > 0

    def pause_for_the_summary(self, restarted: bool = False) -> None:
        """Hold the next hand while the people at the table read the last one's summary.

        Nobody watching, nobody to wait for; but after a restart nobody is connected
        yet, and the people seated are waited for as they come back.
        """
        pause = self.settings.hand_pause_seconds
        people = self.table.humans() if restarted else any(self.watchers.values())
        if pause <= 0 or not people:
            return
        self.resumes_at = time.time() + pause
        message = self.pause_message()
        assert message is not None  # the pause has just begun
        for clients in (*self.watchers.values(), *self.spectators.values()):
            for client in clients:
                client.send(message)

    def paused_for(self) -> float:
        """What is left of the pause after a hand, in seconds (0 when there is none)."""
        if self.resumes_at is None:
            return 0.0
        left = self.resumes_at - time.time()
        if left <= 0:
            self.resumes_at = None
            return 0.0
        return left

    def after_change(self, new_turn: bool) -> None:
        recorder = self.table.recorder
        if recorder is None:
            self.broadcast()
            return
        state = recorder.state
        if state.is_terminal():
            self.cancel_timers()
            self.deadline = None
            self.broadcast()
            self.post(Finish())
            return
        current = state.current_player()
        turn = state.turn_count()
        if new_turn or current != self.turn_seat or turn != self.turn_number:
            self.new_turn(current, turn)
        if self.table.played_by_server(current):
            # Paced for the people watching. A coin table nobody watches any more is played
            # out at once: it must still end, to be settled.
            delay = 0.0 if self.table.stake and not self.watchers else self.settings.bot_delay
            self.later(self.paused_for() + delay, BotDue(self.table.moves))
        elif self.expired:
            self.request_autopilot()
        self.broadcast()

    def new_turn(self, current: int, number: int) -> None:
        self.turn_token += 1
        self.turn_seat = current
        self.turn_number = number
        self.expired = False
        self.expired_counted = False
        if self.table.seats.get(current) is None or self.table.played_by_server(current):
            self.deadline = None
            return
        # After a hand, the first turn's clock starts when the pause ends.
        seconds = self.paused_for() + self.table.turn_seconds
        self.deadline = time.time() + seconds
        self.later(seconds, ClockRanOut(self.turn_token))

    def clock_ran_out(self, token: int) -> None:
        if token != self.turn_token or self.table.status != PLAYING:
            return
        self.expired = True
        self.request_autopilot()

    def request_autopilot(self) -> None:
        assert self.table.recorder is not None
        state = self.table.recorder.state.clone()
        task = asyncio.create_task(self._think(state, self.table.moves))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _think(self, state: Any, moves: int) -> None:
        try:
            action = await self.host.autopilot(self.game, state)
        except Exception:
            log.exception("table %s: autopilot failed", self.id)
            action = state.legal_actions()[0]
        self.post(AutopilotChose(moves, str(action)))

    async def autopilot_chose(self, moves: int, action: str) -> None:
        recorder = self.table.recorder
        if moves != self.table.moves or not self.expired or recorder is None:
            return  # the player moved in the meantime
        await self.play(recorder.state.current_player(), action, auto=True)

    async def bot_due(self, moves: int) -> None:
        table = self.table
        if moves != table.moves or table.recorder is None or table.status != PLAYING:
            return
        state = table.recorder.state
        seat_number = state.current_player()
        if not table.played_by_server(seat_number):
            return
        bot = self.bots.get(seat_number)
        if bot is None:
            seed = random.Random(self.rng.getrandbits(64))
            bot = self.bots[seat_number] = table.rules.bots.heuristic(seed)
        # The bot sees what its seat may see: the hidden cards are dealt again at random.
        world = state.determinize(seat_number, SimSource(self.rng))
        action = bot.choose(world)
        await self.play(seat_number, str(action), auto=False)

    async def finish(self) -> None:
        """Store the end, the record (seed revealed), the status, the players' results and,
        at a coin table, the pot's settlement, in one transaction."""
        table = self.table
        recorder = table.recorder
        if recorder is None or table.status == FINISHED:
            return
        record = recorder.to_json()
        winners = tuple(record["result"]["winners"]) if record["result"] else ()
        people = {n: s for n, s in table.seats.items() if s is not None and not s.bot}
        settlement = None
        transfer = None
        if table.stake:
            left = {n for n, s in people.items() if s.left}
            settlement = settle(table.stake, table.seat_numbers, winners, left)
            transfer = settlement_transfer(
                table.id, settlement, {n: s.player for n, s in people.items()}
            )
            record["coins"] = settlement.to_json()
        results = [
            SeatResult(n, s.player, n in winners, s.left, table.stake,
                       settlement.net(n) if settlement else 0)
            for n, s in people.items()
        ]  # fmt: skip
        event = Ended(winners, None if settlement is None else settlement.to_json())
        at = time.time()
        with self.log_refusals():
            await self.log.finish(self.id, table.seq + 1, event, at, record, results, transfer)
        table.seq += 1
        self.apply(event, at)
        self.broadcast()
        # The players stay at the table a while (the result, the record link, a last word
        # in the chat); a new table takes them at once.
        self.later(self.settings.finished_linger, LingerOver())
        self.host.lobby_changed()

    def resume_play(self) -> None:
        """After a restart: the clock starts afresh, bots go on; a pause after a hand that
        was under way starts again."""
        recorder = self.table.recorder
        if recorder is not None and recorder.state.is_terminal():
            self.post(Finish())
            return
        self.turn_seat = None
        if self.between_hands():
            self.pause_for_the_summary(restarted=True)
        self.after_change(new_turn=True)
