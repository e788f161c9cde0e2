"""Information-Set Monte Carlo Tree Search, for any game of :mod:`sahrat.game`.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012): every iteration
deals the cards the searching seat cannot see at random
(:meth:`~sahrat.game.GameState.determinize`), walks one shared tree of
actions with UCB1 counted over the iterations in which an action was
available, plays a short rollout with the game's cheap policy, and scores the
end with the game's static evaluation. The real state is read only through
what the seat may see: its legal actions and its determinizations.

Where the game's kit sets :attr:`~sahrat.bots.kits.GameKit.root_width`, the
root is searched as a duel instead of by UCB1: the heuristic's own choice
against its next best few, each played in *the same* determinization with
the same random numbers every round, so that the difference between two
moves is measured without the luck of the deal (common random numbers; it
takes several times fewer rollouts to see the same difference). Below each
root move the tree is walked as usual. The heuristic's choice stands unless
a rival beats it by more than the noise of the measurement, and rivals that
fall clearly behind stop being played.

With an iteration budget the result depends only on the state and the seed;
with a time budget, on how many iterations the machine fits in. A time budget
is kept: an iteration starts only if it can end before the deadline, and one
that runs past it all the same (a rollout into a new deal, say) is abandoned.

>>> from sahrat.bots.kits import KITS
>>> from sahrat.games.jackaroo import from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t70", "b", "b", "b"], "1": ["t73", "b", "b", "b"],
...                 "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["3S", "9H"], "1": 4, "2": 4, "3": 4}})
>>> bot = IsmctsBot(KITS["jackaroo"], Budget(iterations=200), seed=1)
>>> str(bot.choose(state))          # land on the opponent, not past him
'3S t70-t73'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from sahrat.bots.kits import GameKit, resolve
from sahrat.game import CHANCE, GameState
from sahrat.simulation import SimSource

#: UCB1's exploration constant, for rewards in [-1, 1].
EXPLORATION = 0.7
#: Weight of the heuristic's opinion at the root, fading as ``1 / (visits + 1)``
#: (progressive bias: it orders the first visits, then the statistics take over).
PRIOR_WEIGHT = 1.0
#: In a root duel, a rival replaces the heuristic's choice when it is ahead by more
#: than this many standard errors of the paired difference, and stops being
#: played once it is behind the leader by more than :data:`DROP_Z` of them
#: (after :data:`DROP_AFTER` rounds, so that a few lucky rounds decide nothing).
OVERRIDE_Z = 1.0
DROP_Z = 2.5
DROP_AFTER = 12


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may think: milliseconds, iterations, or both (whichever ends first)."""

    ms: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.ms is None and self.iterations is None:
            raise ValueError("a budget needs milliseconds or iterations")
        if (self.ms is not None and self.ms <= 0) or (
            self.iterations is not None and self.iterations <= 0
        ):
            raise ValueError("a budget must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``100ms``, ``0.5s`` or ``2000it``."""
        try:
            if text.endswith("ms"):
                return cls(ms=float(text[:-2]))
            if text.endswith("it"):
                return cls(iterations=int(text[:-2]))
            if text.endswith("s"):
                return cls(ms=1000 * float(text[:-1]))
        except ValueError:
            pass
        raise ValueError(f"not a budget: {text!r} (use 100ms, 0.5s or 2000it)")

    def __str__(self) -> str:
        if self.iterations is not None and self.ms is None:
            return f"{self.iterations}it"
        return f"{self.ms:g}ms"


class _OutOfTime(Exception):
    """An iteration reached the deadline before its end: its result is dropped."""


class _Clock:
    """A decision's time budget, kept rather than overrun.

    A step (one iteration) starts only when the longest step so far, and twice
    the average one, still end before the deadline: stopping at the deadline
    would overrun it by a step every time, and a decision's time is what the
    player waits. Steps vary (a rollout may run into a new deal), so a step
    still running at the deadline is stopped there (:meth:`check`).
    """

    __slots__ = ("_deadline", "_first", "_last", "_longest", "_start", "_ticks")

    def __init__(self, ms: float | None) -> None:
        self._start = time.perf_counter()
        self._deadline = None if ms is None else self._start + ms / 1000
        self._first = self._last = self._start
        self._longest = 0.0
        self._ticks = 0

    def tick(self) -> None:
        """One step has ended."""
        now = time.perf_counter()
        if self._ticks == 0:
            self._first = now
        else:
            self._longest = max(self._longest, now - self._last)
        self._last = now
        self._ticks += 1

    def has_room(self) -> bool:
        if self._deadline is None:
            return True
        if self._ticks > 1:
            step = (self._last - self._first) / (self._ticks - 1)
        else:
            step = self._last - self._start
        return time.perf_counter() + max(2 * step, self._longest) <= self._deadline

    def check(self) -> None:
        """Raise :class:`_OutOfTime` once the deadline has passed."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _OutOfTime


class Node:
    """Statistics of one action sequence, from the view of the seat that chose its last action."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.reward = 0.0
        #: How many times this node's action was legal when its parent was visited.
        self.available = 0


class IsmctsBot:
    """A search bot for one game; ``choose`` is called for the seat to move."""

    def __init__(
        self,
        kit: GameKit,
        budget: Budget,
        seed: int | random.Random | None = None,
        rollout_depth: int | None = None,
    ) -> None:
        self.kit = kit
        self._evaluate: Callable[[Any, int], float] = resolve(kit.evaluator)
        self._policy: Callable[[Any, random.Random], Any] = resolve(kit.rollout_policy)
        self._prior: Callable[[Any, Any], list[float]] | None = (
            resolve(kit.prior_scores) if kit.prior_scores else None
        )
        self.budget = budget
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.rollout_depth = kit.rollout_depth if rollout_depth is None else rollout_depth
        # The heuristic that suggests a root candidate has a generator of its own,
        # drawn from the search's, so a seed still fixes every decision.
        self._hint_bot = (
            kit.heuristic(random.Random(self.rng.getrandbits(64))) if kit.hint_weight > 0 else None
        )
        self.name = f"ismcts:{budget}"
        #: Iterations of the last search (for benchmarks and tests).
        self.last_iterations = 0
        self._last_hint: Any = None

    def choose(self, state: Any) -> Any:
        # The budget covers the whole decision, the listing of moves included.
        clock = _Clock(self.budget.ms)
        candidates = self.root_actions(state)
        if not candidates:
            raise ValueError("no seat is to move")
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        if self.kit.root_width and self._prior is not None:
            return self.duel(state, candidates, clock).choice
        root = self.search(state, candidates, clock)
        # The most visited action is the most trusted (ties: the order the engine lists).
        children = root.children
        return max(candidates, key=lambda a: children[a].visits if a in children else -1)

    def root_actions(self, state: GameState) -> list[Any]:
        """The listed legal actions, and the heuristic's own choice where the kit asks for it.

        The seat's own hand is the same in every determinization, so an action
        legal in the real state is legal in each of them.
        """
        legal = list(state.legal_actions())
        if self._hint_bot is not None and len(legal) > 1:
            hint = self._hint_bot.choose(state)
            if hint not in legal:
                legal.append(hint)
            self._last_hint = hint
        return legal

    def root_priors(self, state: GameState, candidates: list[Any]) -> dict[Hashable, float]:
        """Each root action's rank in the heuristic's opinion in [0, 1], plus the hint's weight."""
        priors: dict[Hashable, float] = {}
        if self._prior is not None and len(candidates) > 1:
            scores = self._prior(state, candidates)
            order = sorted(range(len(candidates)), key=scores.__getitem__)
            priors = {candidates[i]: rank / (len(candidates) - 1) for rank, i in enumerate(order)}
        if self._hint_bot is not None:
            hint = self._last_hint
            priors[hint] = priors.get(hint, 0.0) + self.kit.hint_weight
        return priors

    def duel(self, state: GameState, candidates: list[Any], clock: _Clock | None = None) -> Duel:
        """Search the root as a duel between the heuristic's few best moves (see above)."""
        budget = self.budget
        clock = clock or _Clock(budget.ms)
        assert self._prior is not None
        seat = state.current_player()
        default = self._default_bot().choose(state)
        scores = self._prior(state, candidates)
        # The best few by the heuristic's score; moves of equal score (two cards of
        # one rank, both orders of a split) leave the same board and count once.
        ranked = sorted(range(len(candidates)), key=lambda i: -scores[i])
        rivals: list[Any] = [default]
        seen_scores = {scores[candidates.index(default)]} if default in candidates else set()
        for i in ranked:
            if len(rivals) >= self.kit.root_width:
                break
            if scores[i] not in seen_scores and candidates[i] != default:
                seen_scores.add(scores[i])
                rivals.append(candidates[i])
        duel = Duel(rivals)
        if len(rivals) == 1:
            self.last_iterations = 0
            return duel
        rng = self.rng
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        iterations = 0
        while iterations < limit:
            if iterations and not clock.has_room():
                break
            world = state.determinize(seat, SimSource(rng))
            seed = rng.getrandbits(64)
            playing = duel.active[: limit - iterations]
            values: list[float] = []
            late = False
            for action in playing:
                if values and not clock.has_room():
                    break
                # The same world and the same random numbers for every rival.
                here = world.clone()
                here_rng = random.Random(seed)
                here.apply_action(action)
                node = duel.nodes[action]
                try:
                    values.append(
                        self._descend(node, here, seat, here_rng, SimSource(here_rng), clock)
                    )
                except _OutOfTime:
                    late = True
                    break
                clock.tick()
            # A round cut short still compares the rivals it reached.
            playing = playing[: len(values)]
            iterations += len(playing)
            duel.record(playing, values)
            if late:
                break
        self.last_iterations = iterations
        return duel

    def _default_bot(self) -> Any:
        if self._hint_bot is None:
            self._hint_bot = self.kit.heuristic(random.Random(self.rng.getrandbits(64)))
        return self._hint_bot

    def _descend(
        self,
        node: Node,
        world: GameState,
        seat: int,
        rng: random.Random,
        source: SimSource,
        clock: _Clock,
    ) -> float:
        """One ISMCTS iteration below a root move already played in ``world``; its value."""
        kit = self.kit
        node.visits += 1
        path: list[tuple[Node, int]] = []
        while not world.is_terminal():
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(world.sample_chance(source))
                continue
            if player < 0:
                break
            clock.check()
            legal = world.legal_actions()
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action] = Node()
                child.available = 1
                world.apply_action(action)
                path.append((child, kit.side(world, player)))
                break
            action = _ucb_pick(children, legal, None)
            node = children[action]
            world.apply_action(action)
            path.append((node, kit.side(world, player)))
        value = self._rollout(world, seat, rng, source, clock)
        root_side = kit.side(world, seat)
        for child, side in path:
            child.visits += 1
            child.reward += value if side == root_side else -value
        return value

    def search(
        self,
        state: GameState,
        candidates: list[Any] | None = None,
        clock: _Clock | None = None,
    ) -> Node:
        budget = self.budget
        # The clock starts before anything else: the heuristic's opinion counts too.
        clock = clock or _Clock(budget.ms)
        seat = state.current_player()
        root = Node()
        if candidates is None:
            candidates = self.root_actions(state)
        priors = self.root_priors(state, candidates)
        rng = self.rng
        source = SimSource(rng)
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        iterations = 0
        while iterations < limit:
            if iterations and not clock.has_room():
                break
            world = state.determinize(seat, source)
            try:
                self._iterate(root, world, seat, rng, source, priors, candidates, clock)
            except _OutOfTime:
                break
            clock.tick()
            iterations += 1
        self.last_iterations = iterations
        return root

    def _iterate(
        self,
        root: Node,
        world: GameState,
        seat: int,
        rng: random.Random,
        source: SimSource,
        priors: dict[Hashable, float],
        candidates: list[Any],
        clock: _Clock,
    ) -> None:
        kit = self.kit
        path: list[tuple[Node, int]] = []  # (node, side that chose its action)
        node = root
        # Selection and expansion in this determinization.
        while not world.is_terminal():
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(world.sample_chance(source))
                continue
            if player < 0:
                break
            clock.check()
            legal = candidates if node is root else world.legal_actions()
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                if node is root and priors:
                    action = max(untried, key=lambda a: priors.get(a, 0.0))
                else:
                    action = untried[int(rng.random() * len(untried))]
                child = children[action] = Node()
                child.available = 1
                world.apply_action(action)
                path.append((child, kit.side(world, player)))
                break
            action = _ucb_pick(children, legal, priors if node is root else None)
            node = children[action]
            world.apply_action(action)
            path.append((node, kit.side(world, player)))
        value = self._rollout(world, seat, rng, source, clock)
        root_side = kit.side(world, seat)
        root.visits += 1
        for child, side in path:
            child.visits += 1
            child.reward += value if side == root_side else -value

    def _rollout(
        self, world: GameState, seat: int, rng: random.Random, source: SimSource, clock: _Clock
    ) -> float:
        """Play a few cheap moves, then score the position for ``seat``'s side."""
        policy = self._policy
        moves = 0
        while moves < self.rollout_depth and not world.is_terminal():
            clock.check()
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(world.sample_chance(source))
            elif player >= 0:
                world.apply_action(policy(world, rng))
                moves += 1
            else:
                break
        return self._evaluate(world, seat)


class Duel:
    """The root's rivals and what the rounds have measured; the heuristic's choice first."""

    __slots__ = ("active", "diffs", "nodes", "rivals", "rounds")

    def __init__(self, rivals: list[Any]) -> None:
        self.rivals = rivals
        self.active = list(rivals)
        self.nodes: dict[Hashable, Node] = {action: Node() for action in rivals}
        #: Per rival: rounds played with the default, sum and sum of squares of the
        #: difference of their values (rival minus default).
        self.diffs: dict[Hashable, list[float]] = {action: [0, 0.0, 0.0] for action in rivals}
        self.rounds = 0

    def record(self, playing: list[Any], values: list[float]) -> None:
        self.rounds += 1
        if not playing or playing[0] != self.rivals[0]:
            return
        base = values[0]
        for action, value in zip(playing[1:], values[1:], strict=True):
            stats = self.diffs[action]
            d = value - base
            stats[0] += 1
            stats[1] += d
            stats[2] += d * d
        if self.rounds >= DROP_AFTER and len(self.active) > 2:
            leader = max(self.active, key=self.mean)
            self.active = [
                action
                for action in self.active
                if action == self.rivals[0]
                or self.mean(leader) - self.mean(action) <= DROP_Z * self.error(action, leader)
            ]

    def mean(self, action: Any) -> float:
        """Mean advantage of ``action`` over the default (0 for the default itself)."""
        n, total, _ = self.diffs[action]
        return total / n if n else 0.0

    def error(self, action: Any, other: Any = None) -> float:
        """Standard error of ``action``'s advantage (of the gap to ``other``, roughly)."""
        spread = self._variance(action) + (self._variance(other) if other is not None else 0.0)
        n = self.diffs[action][0]
        return math.sqrt(spread / n) if n else math.inf

    def _variance(self, action: Any) -> float:
        n, total, squares = self.diffs[action]
        if n < 2:
            return 1.0 if action != self.rivals[0] else 0.0
        return max(squares - total * total / n, 0.0) / (n - 1)

    @property
    def choice(self) -> Any:
        """The rival furthest ahead of the default if it is clearly ahead, else the default."""
        default = self.rivals[0]
        best = max(self.rivals[1:], key=self.mean, default=default)
        if best != default and self.mean(best) > OVERRIDE_Z * self.error(best):
            return best
        return default


def _ucb_pick(
    children: dict[Hashable, Node], legal: Any, priors: dict[Hashable, float] | None
) -> Hashable:
    best_action: Hashable = None
    best = -math.inf
    for action in legal:
        child = children[action]
        score = child.reward / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if priors:
            score += PRIOR_WEIGHT * priors.get(action, 0.0) / (child.visits + 1)
        if score > best:
            best, best_action = score, action
    return best_action
