"""The `random` bot: a uniformly random legal command, or (where the engine
lists templates instead of every command) one of its samples."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Ruleset

SAMPLE_SHARE = 0.2  # how often a sample is tried even when concrete commands are listed


def choose(rules: Ruleset, state: Any, seat: int, rnd: random.Random) -> dict | None:
    legal = rules.legal_commands(state, seat)
    options = list(legal.commands)
    if legal.sample is not None and (not options or rnd.random() < SAMPLE_SHARE):
        return dict(legal.sample(rnd))
    return dict(rnd.choice(options)) if options else None
