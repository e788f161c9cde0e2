"""The baseline player: uniformly random among the listed legal actions."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """Uniformly random among the listed legal actions."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]
