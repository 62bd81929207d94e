"""The `heuristic` bot: one-ply lookahead on one determinization, scored by the
ruleset's evaluation (its scoring plus what wins points later: see README.md).

Per ruleset a module `games.bots.<ruleset>.evaluate` gives:
- ``evaluate(state, seat) -> float``: how good the position is for the seat
  (relative to the best opponent; a finished game is worth +-1000);
- ``AVOID`` (optional): command types never chosen while anything else is legal
  (e.g. a `cancel` that undoes a declaration: a bot that picks it can loop forever);
- ``extra(view, seat, legal, rng) -> list[command]`` (optional): commands worth trying
  that a template's random sample would rarely produce (e.g. a war bid sized to
  win the battle);
- ``CANDIDATES`` (optional): how many commands a decision looks at (default below);
- ``decide(view, seat, legal, rng, worlds) -> command | None`` (optional): the
  ruleset's own choice for decisions a one-ply lookahead prices badly (e.g. a
  plan whose worth shows only when it resolves); None leaves it to the lookahead.
Rulesets without a module (test rulesets) fall back to the outcome's score.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from games.rules.base import LegalSet, Ruleset, canonical_json

from . import simulate
from .base import Budget, Command

CANDIDATES = 8  # commands looked at per decision: keeps a decision near 20 ms (bench/bots.py)


@cache
def module_for(ruleset_id: str) -> ModuleType | None:
    name = ruleset_id.replace("-", "_")
    try:
        return importlib.import_module(f"games.bots.{name}.evaluate")
    except ModuleNotFoundError:
        return None


def evaluator(rules: Ruleset) -> Callable[[Any, int], float]:
    mod = module_for(rules.id)
    return mod.evaluate if mod is not None else _outcome_only(rules)


def _outcome_only(rules: Ruleset) -> Callable[[Any, int], float]:
    def value(state: Any, seat: int) -> float:
        out = rules.outcome(state)
        if out is None:
            return 0.0
        return 1000.0 if seat in out.winners else -1000.0

    return value


def options(
    rules: Ruleset, view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random
) -> list[Command]:
    mod = module_for(rules.id)
    cands = simulate.candidates(legal, rng, getattr(mod, "CANDIDATES", CANDIDATES))
    avoid = getattr(mod, "AVOID", ())
    if avoid and any(c.get("type") not in avoid for c in cands):
        cands = [c for c in cands if c.get("type") not in avoid]
    if mod is not None and hasattr(mod, "extra"):
        seen = {canonical_json(c) for c in cands}
        for c in mod.extra(view, seat, legal, rng):
            if canonical_json(c) not in seen:
                seen.add(canonical_json(c))
                cands.append(simulate.as_json(c))
    return cands


def choose(view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget) -> Command | None:
    if budget.worlds is None:
        raise ValueError("the heuristic bot needs the seat's information set (budget.worlds)")
    rules, seat = budget.worlds.rules, budget.worlds.seat
    mod = module_for(rules.id)
    if mod is not None and hasattr(mod, "decide"):
        own = mod.decide(view, seat, legal, rng, budget.worlds)
        if own is not None:
            return simulate.as_json(own)
    cands = options(rules, view, seat, legal, rng)
    if len(cands) <= 1:
        return cands[0] if cands else None
    world = budget.worlds.sample(rng)
    value = evaluator(rules)
    best: list[tuple[float, Command]] = []
    for cmd in cands:
        after = simulate.apply(rules, world, seat, cmd, rng)
        if after is None:
            continue
        best.append((value(after, seat) + rng.random() * 1e-3, cmd))  # noise breaks ties
    if not best:
        return cands[0]  # every candidate is legal on the real table; the world refused them all
    return max(best, key=lambda x: x[0])[1]
