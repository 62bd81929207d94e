"""A small working context for `decide`: emits events, folds them into a working state
(so the next automatic step sees their effect) and hands out distinct rng streams."""

from __future__ import annotations

import json
from typing import Any

from games.rules.base import Event, Rng, RngFactory

from . import data
from .evolve import evolve
from .state import State


class Ctx:
    def __init__(self, state: State, rng: RngFactory, version: int = data.RULES_VERSION) -> None:
        self.s = state
        self.version = version  # the rules version the game was started under
        self._rng = rng
        self.factory = rng  # the platform's factory, for base.commit salts
        self._n = 0
        self.events: list[Event] = []

    def emit(self, type_: str, payload: dict[str, Any], visible_to: tuple[int, ...] | None = None) -> None:
        # Normalise through JSON now so the working state equals what a replay from the
        # store will compute (tuples become lists, keys become strings).
        payload = json.loads(json.dumps(payload))
        self.add(Event(type_, payload, visible_to=visible_to))

    def add(self, event: Event) -> None:
        self.events.append(event)
        if not event.type.startswith("core."):
            self.s = evolve(self.s, event)

    def rng(self, purpose: str) -> Rng:
        """A fresh stream per use: one decision may run several automatic steps."""
        self._n += 1
        return self._rng(f"{purpose}:{self._n}")
