"""evolve: apply an event to the state.

From rules version 4 events state facts: every event carrying an `outcome`
(the batch's public event and its hidden `HiddenStateChanged`) is applied with
`facts.apply`, which reads no rules; the other events (commitments, tiles seen,
proposals received, declines) change nothing, their effect being in the batch's
outcomes. Games of rules versions 2 and 3 keep their command-style events,
re-applied by `evolve_legacy` (the rules code of their version)."""

from __future__ import annotations

from ..base import Event
from .evolve_legacy import evolve_legacy
from .facts import apply
from .state import State, version


def evolve(state: State, event: Event) -> State:
    if version(state) < 4:
        return evolve_legacy(state, event)
    outcome = event.payload.get("outcome")
    if not isinstance(outcome, dict):
        return state
    return apply(state, outcome)
