"""evolve: apply an event to the state (the kit's `@evolves` registry: an unknown
event type raises `UnknownEvent`).

From rules version 4 events state facts: every event carrying an `outcome`
(the batch's public event and its hidden `HiddenStateChanged`) is applied with
`facts.apply`, which reads no rules; the other events (commitments, tiles seen,
proposals received, declines) change nothing, their effect being in the batch's
outcomes. Games of rules versions 2 and 3 keep their command-style events,
re-applied by `evolve_legacy` (the rules code of their version)."""

from __future__ import annotations

from typing import Any

from ..base import Event
from ..kit import Evolver
from . import events as ev
from .evolve_legacy import evolve_legacy
from .facts import apply
from .state import State, version

evolves: Evolver[State] = Evolver("rising-sun")


@evolves(*ev.TYPES)
def _facts(state: dict[str, Any], payload: dict[str, Any]) -> None:
    outcome = payload.get("outcome")
    if isinstance(outcome, dict):
        # facts.apply is itself copy-on-write: it returns a new state sharing
        # what the outcome does not touch; `state` is the kit's shallow copy
        new = apply(state, outcome)  # type: ignore[arg-type]
        state.clear()
        state.update(new)


def evolve(state: State, event: Event) -> State:
    if version(state) < 4:
        return evolve_legacy(state, event)
    return evolves.evolve(state, event)
