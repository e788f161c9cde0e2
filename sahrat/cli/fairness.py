"""``sahrat fairness shuffle`` and ``sahrat fairness commit`` (fairness.md §5)."""

from __future__ import annotations

import argparse

from sahrat.cards import format_cards
from sahrat.fairness import Seeds, Stream, commitment, parse_seed_hex
from sahrat.games import GAMES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("fairness", help="recompute commitments and shuffles")
    commands = group.add_subparsers(dest="fairness_command", required=True, metavar="COMMAND")

    shuffle = commands.add_parser("shuffle", help="print a shuffled deck, top card first")
    shuffle.add_argument("--server-seed", required=True, metavar="HEX")
    shuffle.add_argument("--game-id", required=True, metavar="ID")
    shuffle.add_argument("--client-seeds", required=True, metavar="A,B,C,D")
    shuffle.add_argument("--label", required=True, metavar="LABEL")
    shuffle.add_argument("--deck", required=True, choices=sorted(GAMES), help="the game whose deck")
    shuffle.set_defaults(handler=run_shuffle)

    commit = commands.add_parser("commit", help="print the commitment of a server seed")
    commit.add_argument("server_seed", metavar="HEX")
    commit.set_defaults(handler=run_commit)


def run_shuffle(args: argparse.Namespace) -> int:
    seeds = Seeds(
        parse_seed_hex(args.server_seed), args.game_id, tuple(args.client_seeds.split(","))
    )
    deck = list(GAMES[args.deck].deck)
    Stream(seeds, args.label).shuffle(deck)
    print(format_cards(deck))
    return 0


def run_commit(args: argparse.Namespace) -> int:
    print(commitment(parse_seed_hex(args.server_seed)))
    return 0
