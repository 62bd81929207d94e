"""`Context`: the scratch of one decision.

It keeps a private working state, folds every emitted event into it at once
(so the next automatic step of the same decision sees its effect), collects
the events for the platform, and hands out random streams by name."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from ..base import JSON, Event, Rng, RngFactory

S = TypeVar("S")
Fold = Callable[[S, Event], S]
"""The state after one event: a new one, or the context's own state mutated in place."""


class Context(Generic[S]):
    """Emit, fold and random streams for one call of `decide`.

    `fold` may return a new state (copy-on-write) or mutate and return the
    context's own copy (then `state` must be one).
    `normalise` sends every payload through JSON before it is folded, so the
    working state equals what a replay from the store computes."""

    def __init__(self, state: S, rng: RngFactory, fold: Fold[S], normalise: bool = False) -> None:
        """A context over `state` (owned), the platform's `rng` factory and the ruleset's `fold`."""
        self.state = state
        self.factory = rng  # the platform's factory: base.commit salts, fixed purposes
        self.events: list[Event] = []
        self._fold = fold
        self._normalise = normalise
        self._streams = 0

    def emit(
        self, type_: str, payload: Mapping[str, JSON], visible_to: tuple[int, ...] | None = None
    ) -> None:
        """Record the event `type_` with `payload` and fold it into the working state."""
        body = json.loads(json.dumps(payload)) if self._normalise else dict(payload)
        self.add(Event(type_, body, visible_to=visible_to))

    def add(self, event: Event) -> None:
        """Record an already-built event (e.g. from base.commit); `core.*` events are not folded."""
        self.events.append(event)
        if not event.type.startswith("core."):
            self.state = self._fold(self.state, event)

    def stream(self, purpose: str) -> Rng:
        """A fresh random stream named `purpose:<n>`: one decision may run several
        automatic steps that draw for the same purpose."""
        self._streams += 1
        return self.factory(f"{purpose}:{self._streams}")

    def salt(self, key: str) -> str:
        """A fresh secret salt (128 bits) for the private event named `key`."""
        return self.factory(f"salt:{key}").salt()
