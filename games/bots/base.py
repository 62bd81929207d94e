"""The one interface every bot implements, and what the platform hands it.

    choose(view, legal, rng, budget) -> command | None

Why, with the measurements and history: docs/modules.md, `games/bots/base.py`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.rules.base import LegalSet, Ruleset

Command = dict[str, Any]
Sampler = Callable[[Any, int, random.Random], Any]  # (state, seat, rng) -> a determinization
Evaluate = Callable[[Any, int], float]  # (state, seat) -> worth for the seat


class Extra(Protocol):
    """Commands worth trying that a template's random sample would rarely produce."""

    def __call__(
        self, view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random
    ) -> list[Command]: ...


class OwnChoice(Protocol):
    """The ruleset's own choice for a decision a one-ply lookahead prices badly
    (None leaves it to the lookahead)."""

    def __call__(
        self, view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random, worlds: InfoSet
    ) -> Command | None: ...


class Variants(Protocol):
    """Up to `width - 1` alternatives to the rules' answer `own`, for the search to test."""

    def __call__(
        self, view: Any, seat: int, own: Command, width: int, rng: random.Random
    ) -> list[Command]: ...


class Answer(Protocol):
    """The seat's answer to an offer made to it that waits outside its turn
    (Rising Sun: an alliance proposal after it said tea_done), or None."""

    def __call__(
        self, view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random
    ) -> Command | None: ...


@dataclass(frozen=True)
class Evaluation:
    """The hooks of the `heuristic` bot (games/bots/heuristic.py): `evaluate` scores
    a position for a seat; `avoid` lists command types never chosen while anything
    else is legal; `extra`, `decide` and `candidates` as in heuristic.py."""

    evaluate: Evaluate
    avoid: frozenset[str] = frozenset()
    extra: Extra | None = None
    decide: OwnChoice | None = None
    candidates: int | None = None  # None: heuristic.CANDIDATES


@dataclass(frozen=True)
class Search:
    """The hooks of the `mcts` bot and its playouts (games/bots/playout.py, mcts.py):
    a playout's horizon is `stages` changes of `stage(state)`; `searched` command
    types have the rules' answer tested against up to `width - 1` alternatives."""

    stage: Callable[[Any], Any]
    stages: int
    searched: frozenset[str]
    width: int
    reward: Evaluate | None = None  # the seat's reward in [-1, 1] (else the evaluation squashed)
    variants: Variants | None = None


@dataclass(frozen=True)
class BotParts:
    """What one ruleset gives the generic bots. Empty (the test-only toy): the
    search bots play as `random` and the evaluation is the outcome's score."""

    worlds: Sampler | None = None
    evaluation: Evaluation | None = None
    search: Search | None = None
    answer: Answer | None = None  # every bot kind answers offers by it (games.bots.answer)


NO_PARTS = BotParts()


@dataclass(frozen=True)
class InfoSet:
    """The seat's information set: the engine to simulate with, and a sampler of
    full states consistent with what the seat knows."""

    rules: Ruleset
    seat: int
    players: int
    sample: Callable[[random.Random], Any]
    parts: BotParts = NO_PARTS  # the ruleset's hooks the policies read


@dataclass
class Budget:
    """How long a decision may take. `iterations` (if set) replaces the clock, so
    tests and the property test get reproducible searches. `clock` is wall time for
    the server (a seat waits in wall time); the bot benchmark passes the thread's CPU
    time, so a search on a shared machine gets as much work as on an idle one."""

    seconds: float = 1.0
    iterations: int | None = None
    worlds: InfoSet | None = None
    clock: Callable[[], float] = field(default=time.perf_counter)
    started: float | None = None  # the clock's reading when the decision began (None: now)

    def __post_init__(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def elapsed(self) -> float:
        """Seconds of the budget's clock since the decision began."""
        assert self.started is not None  # set by __post_init__
        return self.clock() - self.started

    def spent(self, done: int) -> bool:
        if self.iterations is not None:
            return done >= self.iterations
        return self.elapsed() >= self.seconds


class Policy(Protocol):
    def __call__(
        self, view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget
    ) -> Command | None: ...
