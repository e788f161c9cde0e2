"""``sahrat buraco meld``, ``score`` (``buraco.md`` §8) and ``demo`` (one bot-vs-bot hand)."""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from sahrat.cards import parse_card
from sahrat.cli.json_input import read_json
from sahrat.cli.options import add_option_arguments, options_of
from sahrat.errors import MalformedInput
from sahrat.fairness import FairSource, Seeds
from sahrat.game import CHANCE
from sahrat.games import GAMES
from sahrat.games.buraco.melds import Meld, arrange
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.points import points_of
from sahrat.games.buraco.scoring import SideScore, score_side
from sahrat.games.buraco.state import BuracoState

BURACO = GAMES["buraco"]

#: A side's record is a few kilobytes at most; refuse to read anything absurd.
MAX_RECORD_BYTES = 1 << 20


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("buraco", help="check melds, score a hand, watch a demo hand")
    commands = group.add_subparsers(dest="buraco_command", required=True, metavar="COMMAND")

    meld = commands.add_parser("meld", help="is this a valid meld? print its kind and points")
    meld.add_argument("--sets", action="store_true", help="sets of one rank are allowed")
    meld.add_argument("cards", nargs="+", metavar="CARD")
    meld.set_defaults(handler=run_meld)

    score = commands.add_parser("score", help="score one side's end-of-hand record (JSON)")
    score.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    score.set_defaults(handler=run_score)

    demo = commands.add_parser("demo", help="play one hand bot against bot and show it")
    demo.add_argument("--seed", type=int, default=0, help="shuffle and bot seed (default 0)")
    add_option_arguments(demo, BURACO)
    # The seat count's old name, before every command called it --seats.
    demo.add_argument("--players", type=int, help=argparse.SUPPRESS)
    demo.add_argument("--sets", action="store_true", help="allow sets (--option sets=true)")
    demo.add_argument("--closed", action="store_true", help="closed pile (--option closed=true)")
    demo.set_defaults(handler=run_demo)


def parse_card_arguments(codes: list[str]) -> list[int]:
    """One card per argument, in its exact code: an empty argument is a malformed card."""
    return [parse_card(code, joker=True) for code in codes]


def run_meld(args: argparse.Namespace) -> int:
    cards = parse_card_arguments(args.cards)
    meld = arrange(cards, sets=args.sets)
    result = {
        "valid": meld is not None,
        "kind": None if meld is None else meld.kind,
        "canasta": None if meld is None else meld.canasta,
        "points": points_of(cards),
    }
    print(json.dumps(result))
    return 0


def _card_list(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise MalformedInput(f"{what} must be a list of card codes", value)
    return [parse_card(code, joker=True) for code in value]


def _flag(record: dict[str, Any], key: str) -> bool:
    value = record.get(key, False)
    if not isinstance(value, bool):
        raise MalformedInput(f"{key} must be true or false", value)
    return value


def score_record(record: Any) -> SideScore:
    """Score one side's end-of-hand record (the input of ``sahrat buraco score``)."""
    if not isinstance(record, dict):
        raise MalformedInput("a side's record is a JSON object", record)
    sets = _flag(record, "sets")
    raw_melds = record.get("melds", [])
    if not isinstance(raw_melds, list):
        raise MalformedInput("melds must be a list of melds", raw_melds)
    melds: list[Meld] = []
    for raw in raw_melds:
        meld = arrange(_card_list(raw, "a meld"), sets=sets)
        if meld is None:
            raise MalformedInput(f"not a valid meld: {' '.join(raw)}", raw)
        melds.append(meld)
    hand = _card_list(record.get("hand", []), "hand")
    return score_side(
        melds, hand, went_out=_flag(record, "went_out"), took_morto=_flag(record, "took_morto")
    )


def run_score(args: argparse.Namespace) -> int:
    print(json.dumps(score_record(read_json(args.file, "record", MAX_RECORD_BYTES)).to_json()))
    return 0


def demo_source(seed: int, seats: int) -> FairSource:
    """The demo's shuffles: fair streams keyed by a seed derived from ``seed``."""
    server_seed = hashlib.sha256(f"sahrat-buraco-demo-{seed}".encode()).digest()
    clients = tuple(f"seat{seat}" for seat in range(seats))
    return FairSource(Seeds(server_seed, "buraco-demo", clients))


def demo_options(args: argparse.Namespace) -> BuracoOptions:
    """The demo's table: ``--seats`` (or the old ``--players``), ``--option``, the two flags."""
    if args.seats is None:
        args = argparse.Namespace(**{**vars(args), "seats": args.players})
    flags = {name: True for name in ("sets", "closed") if getattr(args, name)}
    options = options_of(BURACO, args, flags)
    assert isinstance(options, BuracoOptions)
    return options


def run_demo(args: argparse.Namespace) -> int:
    options = demo_options(args)
    state = BURACO.new_game(options)
    assert isinstance(state, BuracoState)
    source = demo_source(args.seed, options.seats)
    bot = BURACO.bots.greedy(random.Random(args.seed))
    seating = BURACO.seating(options)
    sides = [
        "+".join(str(seat) for seat in seating.seats if seating.side_of(seat) == side)
        for side in (0, 1)
    ]
    print(
        f"Buraco demo: {options.seats} seats, seed {args.seed}"
        f", sets {'on' if options.sets else 'off'}, pile {'closed' if options.closed else 'open'}"
    )
    while not state.results:
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(source)
            print(f"chance: {action}")
        else:
            action = bot.choose(state)
            print(f"seat {player}: {action}")
        state.apply_action(action)
    result = state.results[-1]
    if result.went_out >= 0:
        print(f"hand over: side {sides[result.went_out]} went out")
    else:
        print("hand over: the stock ran out")
    rows = [
        ("clean canastas", "canastas_clean"),
        ("dirty canastas", "canastas_dirty"),
        ("melded", "melded"),
        ("left in hand", "hand"),
        ("bonus", "bonus"),
        ("total", "total"),
    ]
    breakdown = [side.to_json() for side in result.sides]
    print(f"{'side':<16}{sides[0]:>8}{sides[1]:>8}")
    for label, key in rows:
        print(f"{label:<16}{breakdown[0][key]:>8}{breakdown[1][key]:>8}")
    took = ["yes" if side.took_morto else "no" for side in result.sides]
    print(f"{'morto taken':<16}{took[0]:>8}{took[1]:>8}")
    return 0
