"""The `random` bot: a uniformly random legal command, or (where the engine
lists templates instead of every command) one of its samples."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rules.base import LegalSet

from .base import Budget, Command

SAMPLE_SHARE = 0.2  # how often a sample is tried even when concrete commands are listed


def choose(view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget) -> Command | None:
    options = list(legal.commands)
    if legal.sample is not None and (not options or rng.random() < SAMPLE_SHARE):
        return dict(legal.sample(rng))
    return dict(rng.choice(options)) if options else None
