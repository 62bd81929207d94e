"""Folding a game's log, takebacks included: written once for the services and the verifier.

A log is folded event by event through the engine's `evolve`; a platform
`core.TakebackAccepted` puts the state back to what it was before the undone
batch (the latest command's, games/services/undo.py). The services
(games/services/state.py) and the standalone verifier (games/verify/replay.py)
both fold through `Fold`. Each turns its own rows (stored rows, exported JSON
lines) into `Step`s, because the platform's event types sit above the engines.
A takeback of a batch this fold did not see (a snapshot sat inside it) cannot
be answered here: `Fold.step` names the version whose state it needs and the
caller, who can load states, puts it in `Fold.state`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Event, Ruleset


@dataclass(frozen=True)
class Step:
    """One row of a log, as the fold needs it."""

    seq: int
    event: Event | None = None  # the engine event to fold; None for a platform event
    starts_batch: bool = False  # the first row of a command's batch (its `cause` names the command)
    undoes_from: int | None = None  # a takeback of the batch that began at this seq


@dataclass
class Fold:
    """An engine state and the state before the latest command's batch."""

    rules: Ruleset
    state: Any
    before: tuple[int, Any] | None = None  # (first seq, state before) of the latest command's batch

    @classmethod
    def start(cls, rules: Ruleset, state: Any = None) -> Fold:
        """A fold from `state`, or from the engine's initial state when None."""
        return cls(rules, rules.initial_state() if state is None else state)

    def step(self, step: Step) -> int | None:
        """Fold one row. None when done; otherwise the version whose state a
        takeback needs (it undid a batch this fold did not see): the caller sets
        `state` to the state at that version and goes on with the next row."""
        if step.undoes_from is not None:
            held, self.before = self.before, None
            if held is None or held[0] != step.undoes_from:
                return step.undoes_from - 1
            self.state = held[1]
            return None
        if step.starts_batch:
            self.before = (step.seq, self.state)
        if step.event is not None:
            self.state = self.rules.evolve(self.state, step.event)
        return None
