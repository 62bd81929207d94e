"""Bot policies, pure (they import the engines only; an import-linter contract
keeps Django, Celery and the services out). One interface for all of them:

    choose(view, legal, rng, budget) -> command | None

(see `base.py`). `play` is the door the platform, the benchmarks and the tests
use: it builds the seat's view, legal set and information set from the state
and asks the named policy. README.md says what each bot does per ruleset.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from games.rules.base import Ruleset

from . import heuristic, mcts, random_bot
from .base import Budget, Command, InfoSet, Policy

POLICIES: dict[str, Policy] = {
    "random": random_bot.choose,
    "heuristic": heuristic.choose,
    "mcts": mcts.choose,
}
NAMES: tuple[str, ...] = tuple(POLICIES)
ZOMBIE = "heuristic"  # who plays a seat after too many missed deadlines
DEFAULT_SECONDS = 1.0


@cache
def _sampler(ruleset_id: str) -> Any:
    try:
        return importlib.import_module(f"games.bots.{ruleset_id.replace('-', '_')}.worlds").sample
    except ModuleNotFoundError:
        return None


def info_set(rules: Ruleset, state: Any, seat: int, players: int) -> InfoSet | None:
    """The seat's information set, or None for a ruleset without a sampler (the
    search bots then play as `random`: they have no secret-free world to search)."""
    sample = _sampler(rules.id)
    if sample is None:
        return None
    return InfoSet(rules, seat, players, lambda rng: sample(state, seat, rng))


def play(
    rules: Ruleset,
    state: Any,
    seat: int,
    name: str,
    rnd: random.Random,
    players: int,
    seconds: float = DEFAULT_SECONDS,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Command | None:
    """The command the bot `name` plays for `seat` (None when it has none); a
    search bot's `seconds` are counted on `clock` (wall time unless told)."""
    legal = rules.legal_commands(state, seat)
    if legal.empty:
        return None
    worlds = info_set(rules, state, seat, players)
    policy = POLICIES[name] if worlds is not None else random_bot.choose
    budget = Budget(seconds=seconds, iterations=iterations, worlds=worlds, clock=clock)
    return policy(rules.view(state, seat), legal, rnd, budget)


def choose(rules: Ruleset, state: Any, seat: int, rnd: random.Random) -> Command | None:
    """The random bot through the state-level door (the audit driver and contract
    tests play random games with it)."""
    legal = rules.legal_commands(state, seat)
    return random_bot.choose(rules.view(state, seat), legal, rnd, Budget())


__all__ = [
    "DEFAULT_SECONDS",
    "NAMES",
    "POLICIES",
    "ZOMBIE",
    "Budget",
    "InfoSet",
    "choose",
    "info_set",
    "play",
]
