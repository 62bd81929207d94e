"""Bot policies, pure (they import the engines only; an import-linter contract
keeps Django, Celery and the services out). One interface for all of them:

    choose(view, legal, rng, budget) -> command | None

(see `base.py`). `play` is the door the platform, the benchmarks and the tests
use: it builds the seat's view, legal set and information set from the state
and asks the named policy; `answer` answers offers outside the seat's turn.
README.md says what each bot does per ruleset. A ruleset's own hooks (`BotParts`)
come from its record in games/plugins.py, above this package: callers pass them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.rules.base import Ruleset

from . import heuristic, mcts, random_bot, simulate
from .base import NO_PARTS, BotParts, Budget, Command, InfoSet, Policy

POLICIES: dict[str, Policy] = {
    "random": random_bot.choose,
    "heuristic": heuristic.choose,
    "mcts": mcts.choose,
}
NAMES: tuple[str, ...] = tuple(POLICIES)
ZOMBIE = "heuristic"  # who plays a seat after too many missed deadlines
DEFAULT_SECONDS = 1.0


def info_set(rules: Ruleset, parts: BotParts, state: Any, seat: int, players: int) -> InfoSet | None:
    """The seat's information set, or None for a ruleset without a sampler (the
    search bots then play as `random`: they have no secret-free world to search)."""
    sample = parts.worlds
    if sample is None:
        return None
    return InfoSet(rules, seat, players, lambda rng: sample(state, seat, rng), parts)


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
    *,
    parts: BotParts,
) -> Command | None:
    """The command the bot `name` plays for `seat` (None when it has none); a
    search bot's `seconds` are counted on `clock` (wall time unless told).
    `parts` are the ruleset's hooks (its record's `bots`; `NO_PARTS` for none)."""
    legal = rules.legal_commands(state, seat)
    if legal.empty:
        return None
    worlds = info_set(rules, parts, state, seat, players)
    policy = POLICIES[name] if worlds is not None else random_bot.choose
    budget = Budget(seconds=seconds, iterations=iterations, worlds=worlds, clock=clock)
    return policy(rules.view(state, seat), legal, rnd, budget)


def answer(rules: Ruleset, state: Any, seat: int, rnd: random.Random, *, parts: BotParts) -> Command | None:
    """The seat's answer to an offer waiting for it (an alliance proposal), whoever
    is to act and whichever bot plays the seat: the ruleset's `answer` hook reads
    the seat's view and legal set. None when nothing waits or the ruleset has none."""
    if parts.answer is None:
        return None
    legal = rules.legal_commands(state, seat)
    if not legal.commands:
        return None
    own = parts.answer(rules.view(state, seat), seat, legal, rnd)
    return simulate.as_json(own) if own is not None else None


def choose(rules: Ruleset, state: Any, seat: int, rnd: random.Random) -> Command | None:
    """The random bot through the state-level door (the audit driver and contract
    tests play random games with it)."""
    legal = rules.legal_commands(state, seat)
    return random_bot.choose(rules.view(state, seat), legal, rnd, Budget())


__all__ = [
    "DEFAULT_SECONDS",
    "NAMES",
    "NO_PARTS",
    "POLICIES",
    "ZOMBIE",
    "BotParts",
    "Budget",
    "InfoSet",
    "answer",
    "choose",
    "info_set",
    "play",
]
