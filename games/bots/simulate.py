"""Playing commands on a sampled world with the engine's own decide/evolve."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from games.rules.base import LegalSet, RulesError, Ruleset, canonical_json, rng_factory

from .base import Command


def apply(rules: Ruleset, state: Any, seat: int, cmd: Mapping[str, Any], rng: random.Random) -> Any | None:
    """The state after `seat` plays `cmd` (None if the engine refuses it: a
    determinization can make a listed command illegal, e.g. a sampled bid)."""
    seed = f"sim-{rng.getrandbits(64):016x}"
    try:
        events = rules.decide(state, seat, cmd, rng_factory(seed, 1))
    except RulesError:
        return None
    for e in events:
        if not e.type.startswith("core."):
            state = rules.evolve(state, e)
    return state


def as_json(cmd: Mapping[str, Any]) -> Command:
    """Commands travel as JSON: tuples become lists, as the API would send them."""
    result: dict[str, Any] = json.loads(canonical_json(dict(cmd)))
    return result


def candidates(legal: LegalSet, rng: random.Random, limit: int, samples: int = 4) -> list[Command]:
    """Up to `limit` distinct commands: the listed ones (a random subset when there
    are more) plus a few samples where the engine offers templates."""
    listed = [as_json(c) for c in legal.commands]
    if len(listed) > limit:
        listed = rng.sample(listed, limit)
    seen = {canonical_json(c) for c in listed}
    if legal.sample is not None:
        for _ in range(samples if listed else max(samples, limit)):
            c = as_json(legal.sample(rng))
            key = canonical_json(c)
            if key not in seen:
                seen.add(key)
                listed.append(c)
    return listed
