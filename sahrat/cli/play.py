"""``sahrat play``: bots play one whole game of any registered game, printed move by move.

Everything here goes through the game's descriptor (:mod:`sahrat.games`) and
:class:`~sahrat.game.GameState`: the options, the seating, the bots, the
words of each move. The shuffles come from the fair streams through a
:class:`~sahrat.records.Recorder`, and every seat is a bot, so every client
seed is the one derived from the commitment (``fairness.md`` §1); ``--record``
writes a record that ``sahrat verify`` checks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections import Counter
from typing import Any

from sahrat.cards import CODES, format_cards
from sahrat.cli.options import add_option_arguments, option_text, options_of
from sahrat.errors import MalformedInput
from sahrat.fairness import Seeds, commitment, derived_seed, new_server_seed
from sahrat.game import Game, GameOptions, GameState, Outcome, Seating
from sahrat.games import GAMES, game_named
from sahrat.records import Recorder

DEFAULT_GAME = "jackaroo"
#: Side letters, by side number.
SIDES = "AB"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("play", help="watch bots play one whole game")
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        metavar="GAME",
        help=f"{' or '.join(GAMES)} (default {DEFAULT_GAME})",
    )
    add_option_arguments(parser)
    parser.add_argument("--seed", type=int, help="replay the same game (default: a fresh one)")
    parser.add_argument("--record", metavar="FILE", help="write the game's record (JSON) here")
    parser.set_defaults(handler=run)


def demo_seeds(game: Game[Any], seats: int, seed: int | None) -> Seeds:
    """The game's seeds: from ``seed`` when given (the same game every time), else fresh.

    Every seat is a bot, so every client seed is derived from the commitment.
    """
    if seed is None:
        server_seed, game_id = new_server_seed(), f"{game.name}-demo"
    else:
        server_seed = hashlib.sha256(f"sahrat-demo-{game.name}-{seed}".encode()).digest()
        game_id = f"{game.name}-demo-{seed}"
    committed = commitment(server_seed)
    return Seeds(server_seed, game_id, tuple(derived_seed(committed, i) for i in range(seats)))


def run(args: argparse.Namespace) -> int:
    game = game_named(args.game)
    options = options_of(game, args)
    seeds = demo_seeds(game, len(game.seating(options).seats), args.seed)
    if not args.record:
        play_game(game, options, seeds)
        return 0
    try:
        # Opened first, so a path that cannot be written is refused before the game.
        handle = open(args.record, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise MalformedInput(f"cannot write {args.record}: {error.strerror}", args.record) from None
    with handle:
        json.dump(play_game(game, options, seeds).to_json(), handle)
    print(f"record written to {args.record} (check it with: sahrat verify {args.record})")
    return 0


def play_game(game: Game[Any], options: GameOptions, seeds: Seeds) -> Recorder:
    """Play and print one whole game between the game's heuristic bots; returns its recorder."""
    seating = game.seating(options)
    players = [{"seat": seat, "name": f"bot{seat}", "bot": True} for seat in seating.seats]
    narrator = Narrator(seating)
    recorder = Recorder(game.name, options.to_json(), seeds, players, on_chance=narrator.on_chance)
    bots = {
        seat: game.bots.heuristic(random.Random(f"{seeds.server_seed.hex()}/{seat}"))
        for seat in seating.seats
    }

    print(f"{game.name.title()}: {describe_options(game, options.to_json())}, game {seeds.game_id}")
    print("sides: " + "; ".join(narrator.side_line(side) for side in sorted(set(seating.sides))))
    print(f"commitment {seeds.commitment}, client seeds {','.join(seeds.client_seeds)}")
    recorder.run_chance()
    state = recorder.state
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].choose(state)
        moves += 1
        words = game.describe(state, seat, action, narrator.names)
        print(f"{moves:4}. {SIDES[seating.side_of(seat)]}  {words.en}  [{action}]")
        # The hands as the move leaves them, to tell what a chance step after it took.
        after = state.clone()
        after.apply_action(action)
        narrator.remember(after)
        recorder.play(seat, action)
    outcome = state.outcome()
    assert outcome is not None
    for line in narrator.result_lines(outcome, moves):
        print(line)
    print(f"server seed {seeds.server_seed.hex()} (check: sha256 = commitment)")
    return recorder


def describe_options(game: Game[Any], options: dict[str, Any]) -> str:
    """``4 seats, preset sahrat`` or ``2 seats, target 1000, sets false, closed false``."""
    seat_option = game.catalogue()["seat_option"]
    words = [f"{options[seat_option]} seats"]
    for name, value in options.items():
        if name != seat_option:
            words.append(f"{name} {option_text(value)}")
    return ", ".join(words)


class Narrator:
    """Says what happens at the table: deals, other chance steps, the end."""

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        self.names = {seat: f"seat {seat}" for seat in seating.seats}
        self.hands: dict[int, list[int]] = {}
        self.shuffles = 0

    def side_line(self, side: int) -> str:
        seats = [
            s for s, d in zip(self.seating.seats, self.seating.sides, strict=True) if d == side
        ]
        return f"{SIDES[side]} = {' and '.join(self.names[s] for s in seats)}"

    def remember(self, state: GameState) -> None:
        self.hands = {seat: state.hand(seat) for seat in state.seats}

    def on_chance(self, action: Any, state: GameState) -> None:
        text = str(action)
        if text.startswith("shuffle"):
            # The deck order stays in the record; the table sees the deal it made.
            print(f"shuffle {self.shuffles}, the hands:")
            self.shuffles += 1
            for seat in state.seats:
                print(f"      {self.names[seat]} holds {format_cards(state.hand(seat))}")
        else:
            print(f"chance: {text}")
            for seat in state.seats:
                gone = Counter(self.hands.get(seat, ())) - Counter(state.hand(seat))
                if gone:
                    codes = " ".join(CODES[card] for card in gone.elements())
                    print(f"      {self.names[seat]} loses {codes}")
        self.remember(state)

    def result_lines(self, outcome: Outcome, moves: int) -> list[str]:
        winners = " and ".join(self.names[seat] for seat in outcome.winners)
        side = SIDES[self.seating.side_of(outcome.winners[0])] if outcome.winners else "-"
        lines = [f"winner: {winners or 'nobody'} (side {side}) after {moves} moves"]
        if any(result.points is not None for result in outcome.sides):
            totals = ", ".join(
                f"{SIDES[self.seating.side_of(result.seats[0])]} {result.points}"
                for result in outcome.sides
            )
            lines.append(f"match totals after {outcome.hands} hands: {totals}")
        return lines
