"""The `heuristic` bot: one-ply lookahead on one determinization, scored by the
ruleset's evaluation (its scoring plus what wins points later: see README.md).

Why, with the measurements and history: docs/modules.md, `games/bots/heuristic.py`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rules.base import LegalSet, Ruleset, canonical_json

from . import simulate
from .base import BotParts, Budget, Command, Evaluate, InfoSet

CANDIDATES = 8  # commands looked at per decision: keeps a decision near 20 ms (bench/bots.py)


def evaluator(rules: Ruleset, parts: BotParts) -> Evaluate:
    """The ruleset's evaluation, else the outcome's score."""
    return parts.evaluation.evaluate if parts.evaluation is not None else _outcome_only(rules)


def _outcome_only(rules: Ruleset) -> Evaluate:
    def value(state: Any, seat: int) -> float:
        out = rules.outcome(state)
        if out is None:
            return 0.0
        return 1000.0 if seat in out.winners else -1000.0

    return value


def options(
    parts: BotParts, view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random
) -> list[Command]:
    hooks = parts.evaluation
    wanted = hooks.candidates if hooks is not None and hooks.candidates is not None else CANDIDATES
    cands = simulate.candidates(legal, rng, wanted)
    avoid = hooks.avoid if hooks is not None else frozenset()
    if avoid and any(c.get("type") not in avoid for c in cands):
        cands = [c for c in cands if c.get("type") not in avoid]
    if hooks is not None and hooks.extra is not None:
        seen = {canonical_json(c) for c in cands}
        for c in hooks.extra(view, seat, legal, rng):
            if canonical_json(c) not in seen:
                seen.add(canonical_json(c))
                cands.append(simulate.as_json(c))
    return cands


def choose(view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget) -> Command | None:
    if budget.worlds is None:
        raise ValueError("the heuristic bot needs the seat's information set (budget.worlds)")
    rules, seat, parts = budget.worlds.rules, budget.worlds.seat, budget.worlds.parts
    own = ruled_choice(parts, view, seat, legal, rng, budget.worlds)
    if own is not None:
        return own
    cands = options(parts, view, seat, legal, rng)
    if len(cands) <= 1:
        return cands[0] if cands else None
    world = budget.worlds.sample(rng)
    value = evaluator(rules, parts)
    best: list[tuple[float, Command]] = []
    for cmd in cands:
        after = simulate.apply(rules, world, seat, cmd, rng)
        if after is None:
            continue
        best.append((value(after, seat) + rng.random() * 1e-3, cmd))  # noise breaks ties
    if not best:
        return cands[0]  # every candidate is legal on the real table; the world refused them all
    return max(best, key=lambda x: x[0])[1]


def ruled_choice(
    parts: BotParts,
    view: Mapping[str, Any],
    seat: int,
    legal: LegalSet,
    rng: random.Random,
    worlds: InfoSet,
) -> Command | None:
    """The ruleset's own `decide` where it has one and answers, else None."""
    hooks = parts.evaluation
    if hooks is None or hooks.decide is None:
        return None
    own = hooks.decide(view, seat, legal, rng, worlds)
    return simulate.as_json(own) if own is not None else None
