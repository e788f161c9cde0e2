"""``sahrat play``: one whole Jackaroo game between bots, printed move by move."""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from sahrat.bots.jackaroo.greedy import GreedyJackarooBot
from sahrat.cards import format_cards
from sahrat.fairness import Seeds, commitment, derived_seed, new_server_seed
from sahrat.game import GameState
from sahrat.games.jackaroo import JackarooState, Options
from sahrat.games.jackaroo.actions import DEALER, PICK, SHUFFLE, Chance
from sahrat.games.jackaroo.options import PRESETS
from sahrat.records import Recorder

TEAMS = {0: "A", 1: "B", 2: "A", 3: "B"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("play", help="watch bots play one Jackaroo game")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="sahrat")
    parser.add_argument("--seats", type=int, choices=(2, 4), default=4)
    parser.add_argument("--seed", type=int, help="replay the same game (default: a fresh one)")
    parser.add_argument("--record", metavar="FILE", help="write the game's record (JSON) here")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    options = Options.preset(args.preset, args.seats)
    if args.seed is None:
        server_seed, game_id = new_server_seed(), "demo"
    else:
        server_seed = hashlib.sha256(f"sahrat-demo-{args.seed}".encode()).digest()
        game_id = f"demo-{args.seed}"
    seats = JackarooState(options).seats
    # Every seat is a bot, so every seed is derived from the commitment (fairness.md §1).
    committed = commitment(server_seed)
    seeds = Seeds(
        server_seed, game_id, tuple(derived_seed(committed, i) for i in range(len(seats)))
    )
    players = [{"seat": seat, "name": f"bot{seat}", "bot": True} for seat in seats]
    recorder = Recorder("jackaroo", options.to_json(), seeds, players, on_chance=describe_chance)
    bots = {seat: GreedyJackarooBot(random.Random(f"{game_id}/{seat}")) for seat in seats}

    print(f"Jackaroo: {options.describe()}, game {game_id}")
    print(f"commitment {seeds.commitment}, client seeds {','.join(seeds.client_seeds)}")
    recorder.run_chance()
    state: Any = recorder.state
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        move = bots[seat].choose(state)
        moves += 1
        print(f"{moves:4}. seat {seat} ({TEAMS[seat]})  {move}")
        recorder.play(seat, move)
    winners = state.winners()
    names = " and ".join(f"seat {s}" for s in winners)
    print(f"winner: {names} (team {TEAMS[winners[0]]}) after {moves} moves")
    print(f"server seed {server_seed.hex()} (check: sha256 = commitment)")
    if args.record:
        with open(args.record, "w", encoding="utf-8") as handle:
            json.dump(recorder.to_json(), handle)
        print(f"record written to {args.record} (check it with: sahrat verify {args.record})")
    return 0


def describe_chance(chance: Chance, game: GameState) -> None:
    state: Any = game
    if chance.kind == DEALER:
        print(f"first dealer: seat {state.dealer}")
    elif chance.kind == SHUFFLE:
        print(f"shuffle {state.shuffles - 1}; seat {state.dealer} deals:")
        for seat in state.seats:
            print(f"      seat {seat} holds {format_cards(state.hands[seat])}")
    elif chance.kind == PICK:
        victim = state.rules.next_seat[state.actor]
        print(f"      the T burns a card of seat {victim}: {format_cards(state.discard[-1:])}")
