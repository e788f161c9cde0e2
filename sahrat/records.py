"""Game records that prove the shuffle (``fairness.md`` §4), and their verification.

A :class:`Recorder` runs a game's chance steps from the fair streams and
logs every action with its time; its JSON record holds the options, the
seats, the commitment, the client seeds, every shuffle (label, input and
output orders), every pick (label, n, value), the cards each seat was dealt,
the move log and the result, and, once the game is over, the server seed.

:func:`verify` checks a record as anyone could, with nothing but the record:

1. ``SHA-256(server_seed)`` equals the commitment;
2. every shuffle and pick recomputes from its label and input;
3. replaying the log, each chance step is the one the engine draws from
   those streams, and the cards each seat was dealt match;
4. the moves replay legally to the recorded result;
5. every seat that sent no seed of its own has its derived seed (§1): each
   client seed starting with ``bot-``, and the seed of every seat the record
   marks as a bot, is ``derived_seed(commitment, index)`` for its index in
   the list of client seeds.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from sahrat.cards import CODES, parse_cards
from sahrat.errors import SahratError
from sahrat.fairness import (
    DERIVED_PREFIX,
    FairSource,
    RandomSource,
    Seeds,
    Stream,
    derived_seed,
    parse_seed_hex,
)
from sahrat.game import CHANCE, GameState
from sahrat.games import game_named

RECORD_VERSION = 1
#: How many checks :func:`verify` makes when every one passes.
STEPS = 5


class RecordingSource:
    """A :class:`RandomSource` that remembers every draw it makes."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.shuffles: list[dict[str, Any]] = []
        self.picks: list[dict[str, Any]] = []

    def uniform(self, label: str, n: int) -> int:
        value = self.inner.uniform(label, n)
        self.picks.append({"label": label, "n": n, "value": value})
        return value

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        before = [CODES[c] for c in items]
        self.inner.shuffle(label, items)
        self.shuffles.append({"label": label, "input": before, "output": [CODES[c] for c in items]})


def start_state(game: str, options: dict[str, Any]) -> GameState:
    """The first state of a game of ``game`` with these options (as JSON)."""
    rules = game_named(game)
    return rules.new_game(rules.options_from_json(options))


def dealt_hands(state: GameState) -> dict[str, list[str]]:
    """Every seat's cards, as a record lists them after a deal."""
    return {str(s): [CODES[c] for c in state.hand(s)] for s in state.seats}


def winners_of(state: GameState) -> list[int]:
    outcome = state.outcome()
    return [] if outcome is None else list(outcome.winners)


@dataclass
class Recorder:
    """Runs one game's chance steps from the fair streams and keeps its record."""

    game: str
    options: dict[str, Any]
    seeds: Seeds
    #: Per seat: ``{"seat": n, "name": …, "bot": bool}``.
    players: list[dict[str, Any]]
    clock: Callable[[], float] = time.time
    #: Called after each chance step with the action and the state (to show deals).
    on_chance: Callable[[Any, GameState], None] | None = None
    state: GameState = field(init=False)
    log: list[dict[str, Any]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = start_state(self.game, self.options)
        self.source = RecordingSource(FairSource(self.seeds))

    def run_chance(self) -> None:
        """Play every chance step due now (first dealer, shuffles, picks)."""
        while self.state.current_player() == CHANCE:
            action = self.state.sample_chance(self.source)
            self.state.apply_action(action)
            self.log.append({"seat": None, "action": str(action), "time": self.clock()})
            if str(action).startswith("shuffle"):
                self.deals.append({"after": len(self.log) - 1, "hands": dealt_hands(self.state)})
            if self.on_chance is not None:
                self.on_chance(action, self.state)

    def play(self, seat: int, action: Any) -> None:
        """Apply a seat's action (checked by the engine) and log it."""
        if self.state.current_player() != seat:
            raise SahratError(f"seat {seat} is not to move")
        self.state.apply_action(action)
        self.log.append({"seat": seat, "action": str(action), "time": self.clock()})
        self.run_chance()

    def to_json(self) -> dict[str, Any]:
        """The record; the server seed appears only once the game is over."""
        record: dict[str, Any] = {
            "version": RECORD_VERSION,
            "game": self.game,
            "game_id": self.seeds.game_id,
            "options": self.options,
            "players": self.players,
            "commitment": self.seeds.commitment,
            "client_seeds": list(self.seeds.client_seeds),
            "shuffles": self.source.shuffles,
            "picks": self.source.picks,
            "deals": self.deals,
            "log": self.log,
            "result": {"winners": winners_of(self.state)} if self.state.is_terminal() else None,
        }
        if self.state.is_terminal():
            record["server_seed"] = self.seeds.server_seed.hex()
        else:
            # While the game runs, shuffles, deals and the shuffle steps of the log would
            # show every hand and the stock: they are published with the seed, at the end.
            record["shuffles"], record["picks"], record["deals"] = [], [], []
            record["log"] = [
                {**entry, "action": "shuffle"} if entry["action"].startswith("shuffle") else entry
                for entry in self.log
            ]
        return record


@dataclass(frozen=True, slots=True)
class Check:
    step: int
    ok: bool
    message: str


class _Failed(Exception):
    pass


def verify(record: dict[str, Any]) -> list[Check]:
    """Steps 1–5 (see the module's docstring); stops at the first failed step."""
    checks: list[Check] = []

    def step(number: int, run: Callable[[], str]) -> bool:
        try:
            checks.append(Check(number, True, run()))
            return True
        except _Failed as failure:
            checks.append(Check(number, False, str(failure)))
        except (KeyError, TypeError, ValueError, SahratError) as error:
            checks.append(Check(number, False, f"malformed record: {error}"))
        return False

    seeds_box: list[Seeds] = []

    def commitment() -> str:
        seed_hex = record.get("server_seed")
        if not isinstance(seed_hex, str):
            raise _Failed("the record has no server seed yet (the game is not over)")
        seed = parse_seed_hex(seed_hex)
        digest = hashlib.sha256(seed).hexdigest()
        if digest != record["commitment"]:
            raise _Failed(f"SHA-256 of the server seed is {digest}, not the commitment "
                          f"{record['commitment']}")  # fmt: skip
        seeds_box.append(Seeds(seed, record["game_id"], tuple(record["client_seeds"])))
        return "the server seed matches the commitment"

    def recompute() -> str:
        seeds = seeds_box[0]
        for i, entry in enumerate(record["shuffles"]):
            deck = parse_cards(entry["input"], joker=True)
            Stream(seeds, entry["label"]).shuffle(deck)
            if [CODES[c] for c in deck] != entry["output"]:
                raise _Failed(f"shuffle {i} ({entry['label']}) does not recompute from its input")
        for i, entry in enumerate(record["picks"]):
            if Stream(seeds, entry["label"]).uniform(entry["n"]) != entry["value"]:
                raise _Failed(f"pick {i} ({entry['label']}) does not recompute")
        return f"{len(record['shuffles'])} shuffles and {len(record['picks'])} picks recompute"

    replay_box: list[GameState] = []

    def deals() -> str:
        state = start_state(record["game"], record["options"])
        source = RecordingSource(FairSource(seeds_box[0]))
        deals_by_entry = {d["after"]: d["hands"] for d in record["deals"]}
        for i, entry in enumerate(record["log"]):
            if entry["seat"] is not None:
                if state.current_player() != entry["seat"]:
                    raise _Failed(f"log entry {i}: seat {entry['seat']} is not to move")
                try:
                    state.apply_action(state.parse_action(entry["action"]))
                except SahratError as error:
                    raise _Failed(f"log entry {i}: {error}") from None
                continue
            if state.current_player() != CHANCE:
                raise _Failed(f"log entry {i} is a chance step where a seat must act")
            drawn = state.sample_chance(source)
            if str(drawn) != entry["action"]:
                raise _Failed(f"log entry {i}: the streams give {str(drawn)[:40]}…, "
                              f"the record has {entry['action'][:40]}…")  # fmt: skip
            state.apply_action(drawn)
            if str(drawn).startswith("shuffle") and deals_by_entry.get(i) != dealt_hands(state):
                raise _Failed(f"the cards dealt after log entry {i} differ from the record")
        if source.shuffles != record["shuffles"] or source.picks != record["picks"]:
            raise _Failed("the record's shuffles or picks are not the ones the game drew")
        replay_box.append(state)
        return f"{len(record['deals'])} deals follow from the shuffles"

    def result() -> str:
        state = replay_box[0]
        if not state.is_terminal():
            raise _Failed("replaying the log does not reach the end of the game")
        winners = winners_of(state)
        if record.get("result") != {"winners": winners}:
            raise _Failed(f"replaying the log gives the winners {winners}, "
                          f"the record says {record.get('result')}")  # fmt: skip
        return f"the log replays to the recorded result (winners {winners})"

    def derived() -> str:
        # The derived seeds hang on the commitment, which step 1 tied to the server seed.
        commitment_hex = record["commitment"]
        client_seeds = list(record["client_seeds"])
        seats = start_state(record["game"], record["options"]).seats
        if len(client_seeds) != len(seats):
            raise _Failed(f"the record has {len(client_seeds)} client seeds for {len(seats)} seats")
        index = {seat: i for i, seat in enumerate(seats)}
        bots: set[int] = set()
        for player in record.get("players") or []:
            seat = player["seat"]
            if player["bot"] is True:
                if seat not in index:
                    raise _Failed(
                        f"the record marks seat {seat} as a bot; the table has no such seat"
                    )
                bots.add(index[seat])

        def seat_name(i: int) -> str:
            # A two-seat Jackaroo table plays seats 0 and 2: name both the seat and its place.
            return f"seat {seats[i]}" if seats[i] == i else f"seat {seats[i]} (client seed {i})"

        problems: list[str] = []
        matched: list[str] = []
        for i, seed in enumerate(client_seeds):
            expected = derived_seed(commitment_hex, i)
            if seed == expected:
                matched.append(str(seats[i]))
            elif i in bots:
                why = "is a bot, but its client seed"
                problems.append(f"{seat_name(i)} {why} {seed} is not its derived seed {expected}")
            elif seed.startswith(DERIVED_PREFIX):
                why = f"has the client seed {seed}, which starts with {DERIVED_PREFIX} but"
                problems.append(f"{seat_name(i)} {why} is not its derived seed {expected}")
        if problems:
            raise _Failed("; ".join(problems))
        if not matched:
            return "no seat has a derived seed: every client seed was sent by its player"
        if len(matched) == 1:
            return f"1 derived seed matches the commitment (seat {matched[0]})"
        return f"{len(matched)} derived seeds match the commitment (seats {', '.join(matched)})"

    steps = ((1, commitment), (2, recompute), (3, deals), (4, result), (5, derived))
    for number, run in steps:
        if not step(number, run):
            break
    return checks
