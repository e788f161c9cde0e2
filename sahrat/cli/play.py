"""``sahrat play``: one whole Jackaroo game between bots, printed move by move."""

from __future__ import annotations

import argparse
import hashlib
import random

from sahrat.bots.jackaroo_greedy import GreedyJackarooBot
from sahrat.cards import format_cards
from sahrat.fairness import FairSource, Seeds, new_server_seed
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.jackaroo import JackarooState, Options
from sahrat.games.jackaroo.actions import DEALER, PICK, SHUFFLE, Chance
from sahrat.games.jackaroo.options import PRESETS

TEAMS = {0: "A", 1: "B", 2: "A", 3: "B"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("play", help="watch bots play one Jackaroo game")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="sahrat")
    parser.add_argument("--seats", type=int, choices=(2, 4), default=4)
    parser.add_argument("--seed", type=int, help="replay the same game (default: a fresh one)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    options = Options.preset(args.preset, args.seats)
    if args.seed is None:
        server_seed, game_id = new_server_seed(), "demo"
    else:
        server_seed = hashlib.sha256(f"sahrat-demo-{args.seed}".encode()).digest()
        game_id = f"demo-{args.seed}"
    state = JackarooState.new_game(options)
    seeds = Seeds(server_seed, game_id, tuple(f"bot{seat}" for seat in state.seats))
    source = FairSource(seeds)
    bots = {seat: GreedyJackarooBot(random.Random(f"{game_id}/{seat}")) for seat in state.seats}

    print(f"Jackaroo: {options.describe()}, game {game_id}")
    print(f"commitment {seeds.commitment}, client seeds {','.join(seeds.client_seeds)}")
    moves = 0
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            chance = state.sample_chance(source)
            burnt_from = state.rules.next_seat[state.actor]
            state.apply_action(chance)
            describe_chance(state, chance, burnt_from)
            continue
        move = bots[seat].choose(state)
        state.apply_action(move)
        moves += 1
        print(f"{moves:4}. seat {seat} ({TEAMS[seat]})  {move}")
    winners = state.winners()
    names = " and ".join(f"seat {s}" for s in winners)
    print(f"winner: {names} (team {TEAMS[winners[0]]}) after {moves} moves")
    print(f"server seed {server_seed.hex()} (check: sha256 = commitment)")
    return 0


def describe_chance(state: JackarooState, chance: Chance, burnt_from: int) -> None:
    if chance.kind == DEALER:
        print(f"first dealer: seat {state.dealer}")
    elif chance.kind == SHUFFLE:
        print(f"shuffle {state.shuffles - 1}; seat {state.dealer} deals:")
        for seat in state.seats:
            print(f"      seat {seat} holds {format_cards(state.hands[seat])}")
    elif chance.kind == PICK:
        print(f"      the T burns a card of seat {burnt_from}: {format_cards(state.discard[-1:])}")
