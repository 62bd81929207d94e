"""The one interface every bot implements, and what the platform hands it.

    choose(view, legal, rng, budget) -> command | None

`view` is `rules.view(state, seat)` (the redacted table of that seat) and `legal`
its own `LegalSet`: a bot never receives the full state. Search bots need whole
states to simulate with the engine; they get them from `budget.worlds`, an
`InfoSet` that samples *determinizations*: full states whose every secret the
seat may not see is redrawn at random (`games/bots/<ruleset>/worlds.py`). A
sampler's output depends only on what the seat knows (the property test in
tests/bots/test_no_cheating.py changes other seats' secrets and checks the
choice does not move), so a bot that reads worlds still cannot cheat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.rules.base import LegalSet, Ruleset

Command = dict[str, Any]


@dataclass(frozen=True)
class InfoSet:
    """The seat's information set: the engine to simulate with, and a sampler of
    full states consistent with what the seat knows."""

    rules: Ruleset
    seat: int
    players: int
    sample: Callable[[random.Random], Any]


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
