"""Random Buraco hands per second (2 and 4 players), meld validations per second, and the
cost of clone() and legal_actions().

A *random hand* runs from the shuffle to the end of the first hand with
every seat playing a uniformly random legal action; chance steps come from
a seeded Mersenne Twister (:class:`~sahrat.simulation.SimSource`), not from the fair
HMAC streams. The meld figure times :func:`~sahrat.games.buraco.melds.arrange`
(sets allowed) over a fixed corpus of candidate melds of 3 to 9 cards, about
half of them valid. Times are this process's CPU time. The figures are of the build
this process loaded (compiled or pure Python); ``--compare-pure`` measures the pure
build as well, in a child process.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from sahrat.bench.builds import (
    add_build_arguments,
    build_line,
    compare_header,
    nothing_to_compare,
    per_call_us,
    pure_figures,
    ratio_line,
)
from sahrat.cards import JOKER
from sahrat.cli.options import add_option_items_argument, option_items, option_text
from sahrat.game import CHANCE
from sahrat.games import GAMES
from sahrat.games.buraco.melds import arrange
from sahrat.games.buraco.options import BuracoOptions
from sahrat.games.buraco.state import BuracoState
from sahrat.simulation import SimSource

BURACO = GAMES["buraco"]

#: Candidate melds in the validation corpus.
CORPUS_SIZE = 20_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    parser.add_argument("--hands", type=int, default=0, help="hands per table size instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", action="store_true", help="random hands allow sets")
    parser.add_argument("--closed", action="store_true", help="random hands with a closed pile")
    add_option_items_argument(parser)
    add_build_arguments(parser)


def options_for(seats: int, args: argparse.Namespace) -> BuracoOptions:
    """The table of ``seats`` seats that ``--sets``, ``--closed`` and ``--option`` ask for."""
    raw = {name: True for name in ("sets", "closed") if getattr(args, name)}
    raw.update(option_items(args.option))
    options: BuracoOptions = BURACO.options_from_json(raw, seats)
    return options


def random_hand(options: BuracoOptions, rng: random.Random, source: SimSource) -> int:
    """Play the first hand of a match at random; returns its number of player actions."""
    state = BURACO.new_game(options)
    assert isinstance(state, BuracoState)
    uniform = rng.random  # faster than rng.choice, and as uniform for a few dozen actions
    actions = 0
    while not state.results:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
            actions += 1
    return actions


def bench_hands(
    options: BuracoOptions, seconds: float, hands: int, seed: int
) -> tuple[int, int, float]:
    """(hands, actions, elapsed seconds) of random hands."""
    rng = random.Random(seed)
    source = SimSource(random.Random(seed + 1))
    played = actions = 0
    start = time.process_time()
    while True:
        actions += random_hand(options, rng, source)
        played += 1
        elapsed = time.process_time() - start
        if (hands and played >= hands) or (not hands and elapsed >= seconds):
            return played, actions, elapsed


def meld_corpus(count: int, seed: int) -> list[tuple[int, ...]]:
    """Candidate melds: runs and groups of one rank, some with wild or stray cards."""
    rng = random.Random(seed)
    corpus: list[tuple[int, ...]] = []
    wilds = (1, 14, 27, 40, JOKER)
    while len(corpus) < count:
        size = rng.randint(3, 8)
        if rng.random() < 0.7:
            suit = rng.randrange(4)
            low = rng.randint(1, 15 - size)
            cards = [suit * 13 + (slot - 1) % 13 for slot in range(low, low + size)]
        else:
            rank = rng.choice((0, *range(2, 13)))
            cards = [rng.randrange(4) * 13 + rank for _ in range(size)]
        roll = rng.random()
        if roll < 0.25:
            cards[rng.randrange(size)] = rng.choice(wilds)  # a wild in a gap
        elif roll < 0.4:
            cards.append(rng.choice(wilds))  # a wild at an end
        elif roll < 0.6:
            cards[:2] = (rng.choice(wilds), rng.choice(wilds))  # two wilds
        elif roll < 0.85:
            cards[rng.randrange(size)] = rng.randrange(JOKER)  # a stray card
        rng.shuffle(cards)
        corpus.append(tuple(cards))
    return corpus


def bench_melds(seconds: float, seed: int) -> tuple[int, int, float]:
    """(validations, valid ones among the corpus, elapsed seconds)."""
    corpus = meld_corpus(CORPUS_SIZE, seed)
    valid = sum(arrange(cards, sets=True) is not None for cards in corpus)
    done = 0
    start = time.process_time()
    while True:
        for cards in corpus:
            arrange(cards, sets=True)
        done += len(corpus)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done, valid, elapsed


def sample_states(options: BuracoOptions, count: int, seed: int) -> list[BuracoState]:
    """States met in random hands, at every player decision, ``count`` of them."""
    rng = random.Random(seed)
    source = SimSource(random.Random(seed + 1))
    states: list[BuracoState] = []
    while len(states) < count:
        state = BURACO.new_game(options)
        assert isinstance(state, BuracoState)
        while not state.results and len(states) < count:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(source))
                continue
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def fresh_legal_actions(state: BuracoState) -> object:
    state._legal = None  # measure generation, not the cache
    return state.legal_actions()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure: random hands per table size, meld validations, per-call costs."""
    tables = [options_for(seats, args) for seats in sorted(BURACO.seat_counts)]
    defaults = BURACO.options_from_json(None).to_json()
    del defaults[BURACO.catalogue()["seat_option"]]
    hands: list[dict[str, Any]] = []
    for options in tables:
        # The options that differ from the game's defaults, as --option would give them.
        changed = "".join(
            f", {name}={option_text(value)}"
            for name, value in options.to_json().items()
            if name in defaults and value != defaults[name]
        )
        played, actions, elapsed = bench_hands(options, args.seconds, args.hands, args.seed)
        hands.append(
            {"seats": options.seats, "changed": changed, "hands": played, "actions": actions}
            | {"elapsed": elapsed, "hands_per_s": played / elapsed}
        )
    done, valid, elapsed = bench_melds(args.seconds, args.seed)
    states = sample_states(tables[-1], 5000, args.seed)
    return {
        "build": build_line(),
        "tables": hands,
        "melds_per_s": done / elapsed,
        "valid_share": valid / CORPUS_SIZE,
        "seats": tables[-1].seats,
        "states": len(states),
        "clone_us": per_call_us(states, BuracoState.clone),
        "legal_actions_us": per_call_us(states, fresh_legal_actions),
        "mean_legal": sum(len(s.legal_actions()) for s in states) / len(states),
    }


def child_argv(args: argparse.Namespace) -> list[str]:
    """This run's arguments, for the pure build's child process."""
    argv = ["--seconds", str(args.seconds), "--hands", str(args.hands), "--seed", str(args.seed)]
    argv += [f"--{name}" for name in ("sets", "closed") if getattr(args, name)]
    for item in args.option:
        argv += ["--option", item]
    return argv


def run(args: argparse.Namespace) -> int:
    if args.compare_pure and nothing_to_compare():
        return 1
    figures = measure(args)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(figures["build"])
    for row in figures["tables"]:
        print(
            f"buraco random hands, {row['seats']} players{row['changed']}:"
            f" {row['hands_per_s']:8.1f} hands/s"
            f"  ({row['actions'] / row['elapsed']:,.0f} actions/s,"
            f" {row['actions'] / row['hands']:.0f} actions per hand,"
            f" {row['hands']} hands in {row['elapsed']:.2f} s of CPU)"
        )
    print(
        f"buraco meld validations:      {figures['melds_per_s']:10,.0f} per second"
        f"  (3 to 9 cards, sets allowed, {100 * figures['valid_share']:.0f}% valid)"
    )
    print(
        f"clone():          {figures['clone_us']:6.2f} us"
        f"  ({figures['seats']} players, {figures['states']} states from random hands)"
    )
    print(
        f"legal_actions():  {figures['legal_actions_us']:6.2f} us"
        f"  (mean {figures['mean_legal']:.1f} actions per position)"
    )
    if args.compare_pure:
        pure = pure_figures("buraco", child_argv(args))
        print(compare_header())
        for row, pure_row in zip(figures["tables"], pure["tables"], strict=True):
            what = f"{row['seats']} players hands/s"
            print(ratio_line(what, row["hands_per_s"], pure_row["hands_per_s"], "hands/s"))
        print(ratio_line("meld validations/s", figures["melds_per_s"], pure["melds_per_s"], "/s"))
        for key, what in (("clone_us", "clone()"), ("legal_actions_us", "legal_actions()")):
            print(ratio_line(what, figures[key], pure[key], "us"))
    return 0
