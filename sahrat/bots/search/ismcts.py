"""Information-Set Monte Carlo Tree Search, for any game of :mod:`sahrat.game`.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012): every iteration
deals the cards the searching seat cannot see at random
(:meth:`~sahrat.game.GameState.determinize`), walks one shared tree of
actions with UCB1 counted over the iterations in which an action was
available, plays a short rollout with the game's cheap policy, and scores the
end with the game's static evaluation. The real state is read only through
what the seat may see: its legal actions and its determinizations.

Where the game's kit sets :attr:`~sahrat.game.BotKit.root_width`, the root
is searched as a duel instead of by UCB1 (:mod:`~sahrat.bots.search.duel`):
the heuristic's own choice against its next best few. Below each root move
the tree is walked as usual.

With an iteration budget the result depends only on the state and the seed;
with a time budget, on how many iterations the machine fits in. A time budget
is kept: an iteration starts only if it can end before the deadline, and one
that runs past it all the same (a rollout into a new deal, say) is abandoned.

>>> from sahrat.games import GAMES
>>> from sahrat.games.jackaroo import from_position
>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t70", "b", "b", "b"], "1": ["t73", "b", "b", "b"],
...                 "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["3S", "9H"], "1": 4, "2": 4, "3": 4}})
>>> bot = IsmctsBot(GAMES["jackaroo"].bots, Budget(iterations=200), seed=1)
>>> str(bot.choose(state))          # land on the opponent, not past him
'3S t70-t73'
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sahrat.bots.search.budget import Budget, Clock, OutOfTime
from sahrat.bots.search.duel import Duel
from sahrat.bots.search.source import SearchSource
from sahrat.bots.search.tree import Node, ucb_pick
from sahrat.game import CHANCE, Bot, BotKit, GameState


class IsmctsBot:
    """A search bot for one game; ``choose`` is called for the seat to move."""

    def __init__(
        self,
        kit: BotKit,
        budget: Budget,
        seed: int | random.Random | None = None,
        rollout_depth: int | None = None,
    ) -> None:
        self.kit = kit
        self.budget = budget
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.rollout_depth = kit.rollout_depth if rollout_depth is None else rollout_depth
        # The heuristic that suggests a root candidate has a generator of its own,
        # drawn from the search's, so a seed still fixes every decision.
        self._hint_bot: Bot | None = (
            kit.heuristic(random.Random(self.rng.getrandbits(64))) if kit.hint_weight > 0 else None
        )
        self.name = f"ismcts:{budget}"
        #: Iterations of the last search (for benchmarks and tests).
        self.last_iterations = 0
        self._last_hint: Any = None

    def choose(self, state: Any) -> Any:
        # The budget covers the whole decision, the listing of moves included.
        clock = Clock(self.budget.ms)
        self._last_hint = None
        candidates = self.root_actions(state)
        if not candidates:
            raise ValueError("no seat is to move")
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        if self.kit.root_width and self.kit.prior is not None:
            # The heuristic's choice, when listing the candidates already asked for it.
            return self.duel(state, candidates, clock, default=self._last_hint).choice
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
        prior = self.kit.prior
        if prior is not None and len(candidates) > 1:
            scores = prior(state, candidates)
            order = sorted(range(len(candidates)), key=scores.__getitem__)
            priors = {candidates[i]: rank / (len(candidates) - 1) for rank, i in enumerate(order)}
        if self._hint_bot is not None:
            hint = self._last_hint
            priors[hint] = priors.get(hint, 0.0) + self.kit.hint_weight
        return priors

    def duel(
        self,
        state: GameState,
        candidates: list[Any],
        clock: Clock | None = None,
        default: Any = None,
    ) -> Duel:
        """Search the root as a duel between the heuristic's few best moves; ``default``
        is the heuristic's choice (asked for here when not given)."""
        budget = self.budget
        clock = clock or Clock(budget.ms)
        prior = self.kit.prior
        assert prior is not None
        seat = state.current_player()
        if default is None:
            default = self._default_bot().choose(state)
        scores = prior(state, candidates)
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
            world = state.determinize(seat, SearchSource(rng))
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
                try:
                    values.append(
                        self._iterate(
                            duel.nodes[action], here, seat, here_rng, SearchSource(here_rng), clock
                        )
                    )
                except OutOfTime:
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

    def _default_bot(self) -> Bot:
        if self._hint_bot is None:
            self._hint_bot = self.kit.heuristic(random.Random(self.rng.getrandbits(64)))
        return self._hint_bot

    def search(
        self,
        state: GameState,
        candidates: list[Any] | None = None,
        clock: Clock | None = None,
    ) -> Node:
        """Search the root by UCB1 over ``candidates``; the root node with its statistics."""
        budget = self.budget
        # The clock starts before anything else: the heuristic's opinion counts too.
        clock = clock or Clock(budget.ms)
        seat = state.current_player()
        root = Node()
        if candidates is None:
            candidates = self.root_actions(state)
        priors = self.root_priors(state, candidates)
        rng = self.rng
        source = SearchSource(rng)
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        iterations = 0
        while iterations < limit:
            if iterations and not clock.has_room():
                break
            world = state.determinize(seat, source)
            try:
                self._iterate(root, world, seat, rng, source, clock, candidates, priors)
            except OutOfTime:
                break
            clock.tick()
            iterations += 1
        self.last_iterations = iterations
        return root

    def _iterate(
        self,
        top: Node,
        world: GameState,
        seat: int,
        rng: random.Random,
        source: SearchSource,
        clock: Clock,
        top_actions: Sequence[Any] | None = None,
        top_priors: dict[Hashable, float] | None = None,
    ) -> float:
        """One ISMCTS iteration from ``top`` in the determinization ``world``; its value.

        Selection and expansion walk the tree from ``top`` (whose candidate actions
        and priors may be given: the root's), one new node is added, a rollout plays
        on, and the value is backed up along the path for each node's chooser.
        """
        path: list[tuple[Node, int]] = []  # (node, side that chose its action)
        node = top
        while not world.is_terminal():
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(world.sample_chance(source))
                continue
            if player < 0:
                break
            clock.check()
            at_top = node is top
            legal = top_actions if at_top and top_actions is not None else world.legal_actions()
            priors = top_priors if at_top else None
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                if priors:
                    action = max(untried, key=lambda a: priors.get(a, 0.0))
                else:
                    action = untried[int(rng.random() * len(untried))]
                child = children[action] = Node()
                child.available = 1
                world.apply_action(action)
                path.append((child, world.side_of(player)))
                break
            action = ucb_pick(children, legal, priors)
            node = children[action]
            world.apply_action(action)
            path.append((node, world.side_of(player)))
        value = self._rollout(world, seat, rng, source, clock)
        root_side = world.side_of(seat)
        top.visits += 1
        for child, side in path:
            child.visits += 1
            child.reward += value if side == root_side else -value
        return value

    def _rollout(
        self, world: GameState, seat: int, rng: random.Random, source: SearchSource, clock: Clock
    ) -> float:
        """Play a few cheap moves, then score the position for ``seat``'s side."""
        policy = self.kit.rollout
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
        return self.kit.evaluate(world, seat)
