"""A fast :class:`~sahrat.fairness.RandomSource` for simulations.

Bots, benchmarks and tests play many games whose chance steps need no
proof; they draw them from Python's Mersenne Twister instead of HMAC
streams. Real games always use :class:`~sahrat.fairness.FairSource`.

This module is among the compiled ones (:mod:`sahrat.compiled`): a benchmark's
random game spends its time here as well as in the engine, and an interpreted
loop around a compiled engine would measure the interpreter.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence

from sahrat.fairness import RandomSource
from sahrat.game import CHANCE, TERMINAL, GameState


def shuffle_as_random(rng: random.Random, items: MutableSequence[int]) -> None:
    """Shuffle ``items`` into the very order ``rng.shuffle(items)`` gives: Fisher-Yates
    from the last item down, each index drawn by rejection from ``getrandbits`` as
    ``random.shuffle`` draws it, but as a loop that compiles (``random``'s interpreted
    loop, ten 53-card shuffles of about 10 µs each, was a twentieth of a compiled random
    game's time)."""
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
        i -= 1


class SimSource:
    """Chance outcomes from a seeded :class:`random.Random` (labels are ignored)."""

    __slots__ = ("rng",)

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def uniform(self, label: str, n: int) -> int:
        return self.rng.randrange(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        shuffle_as_random(self.rng, items)


class LabelledSource:
    """Chance outcomes that depend on their label and a seed only, not on their order.

    Two games with one seed are dealt the same cards, shuffle for shuffle, however
    differently they are played; the arena uses this to play every deal twice, with
    the teams' seats exchanged, so that the luck of the cards cancels out.
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _rng(self, label: str) -> random.Random:
        # String seeds are hashed with SHA-512: the same in every process.
        return random.Random(f"{self.seed}/{label}")

    def uniform(self, label: str, n: int) -> int:
        return self._rng(label).randrange(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        shuffle_as_random(self._rng(label), items)


def play_out(state: GameState, rng: random.Random, source: RandomSource) -> int:
    """Play ``state`` to its end, each seat choosing uniformly among its legal actions
    (with ``rng``) and chance drawn from ``source``; returns the number of player actions.

    ``int(random() * n)`` is faster than ``rng.choice`` and as uniform for a few dozen
    actions.
    """
    uniform = rng.random
    actions = 0
    while True:
        player = state.current_player()
        if player >= 0:
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
            actions += 1
        elif player == CHANCE:
            state.apply_action(state.sample_chance(source))
        elif player == TERMINAL:
            return actions
        else:
            raise RuntimeError("a game stopped without a winner")
