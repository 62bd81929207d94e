"""evolve: apply an event to the state (the kit's `@evolves` registries: an
unknown event type raises `UnknownEvent`).

Version 6: one small handler per named fact (named.py: `FOLDS`, the same handlers
the rules emit through), plus the batch's other events below: the setup's board,
the position with public bookkeeping and the hidden outcome (`facts.apply`, rule-free);
the public event of a command and the commitments change nothing by themselves.
Versions 4-5: every event carrying an `outcome` is applied with `facts.apply`.
Versions 2-3 keep their command-style events, re-applied by `evolve_legacy`."""

from __future__ import annotations

from typing import Any, cast

from ..base import Event
from ..kit import Evolver
from . import events as ev
from .evolve_legacy import evolve_legacy
from .facts import STACK, apply
from .named import FOLDS, HEADERS, GameSetUp, PositionChanged
from .state import State, version

evolves: Evolver[State] = Evolver("rising-sun")


def _replace(state: dict[str, Any], outcome: dict[str, Any]) -> None:
    # facts.apply is itself copy-on-write: it returns a new state sharing
    # what the outcome does not touch; `state` is the kit's shallow copy
    new = apply(state, outcome)  # type: ignore[arg-type]
    state.clear()
    state.update(new)


@evolves(*ev.TYPES)
def _facts(state: dict[str, Any], payload: dict[str, Any]) -> None:
    outcome = payload.get("outcome")
    if isinstance(outcome, dict):
        _replace(state, outcome)


@FOLDS(GameSetUp.TYPE)
def _board(state: dict[str, Any], payload: dict[str, Any]) -> None:
    _replace(state, payload["board"])


@FOLDS(PositionChanged.TYPE)
def _position(state: dict[str, Any], payload: dict[str, Any]) -> None:
    outcome = dict(payload.get("outcome") or {})
    if "keep" in payload:
        outcome[STACK] = {"keep": payload["keep"], "push": payload["push"]}
    _replace(state, outcome)


@FOLDS(ev.HIDDEN_CHANGED)
def _hidden(state: dict[str, Any], payload: dict[str, Any]) -> None:
    _replace(state, payload["outcome"])


FOLDS.ignores(
    *(t for t in HEADERS if t != GameSetUp.TYPE),
    ev.TILES_SEEN,
    ev.MANDATE_CHOSEN,
    ev.BID_PLACED,
    ev.PROPOSAL_MADE,
    ev.PROPOSAL_RECEIVED,
    ev.PROPOSAL_DECLINED,
    ev.PROPOSAL_WITHDRAWN,
)


def evolve(state: State, event: Event) -> State:
    if version(state) < 4:
        return evolve_legacy(state, event)
    if version(state) < 6:
        return evolves.evolve(state, event)
    return cast(State, FOLDS.evolve(cast(dict[str, Any], state), event))
