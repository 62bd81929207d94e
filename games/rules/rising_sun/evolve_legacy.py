"""evolve of rules versions 2 and 3 (games recorded before events stated facts):
one small function per event type, re-applying the recorded command with the
rules code. Never validates on purpose and never draws: public events replay
their recorded draws (Steps), hidden ones park a secret deck order
in state["secret_draws"] for the next public event to consume."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base import Event
from ..kit import UnknownEvent
from . import battle, politics, tea
from . import events as ev
from .flow import apply_input, run
from .frames import Steps, push
from .setup import build
from .state import State, clone, version

Payload = Mapping[str, Any]


def _setup(state: State, payload: Payload) -> State:
    state = build(state, payload)
    push(state, "season_start")
    run(Steps(state, draws=payload["draws"]))
    return state


def _shuffled(state: State, payload: Payload) -> State:
    state["secret_draws"] = state.get("secret_draws", []) + [list(o) for o in payload["orders"]]
    return state


def _noop(state: State, payload: Payload) -> State:
    return state


def _command(state: State, payload: Payload) -> State:
    apply_input(Steps(state, draws=payload.get("draws", [])), payload["seat"], dict(payload["cmd"]))
    return state


def _gift(state: State, payload: Payload) -> State:
    tea.apply_gift(state, payload["seat"], payload["cmd"])
    return state


def _proposal(state: State, payload: Payload) -> State:
    state["commit_count"] += 1
    to = (
        payload["choice"]["to"] if isinstance(payload["choice"], dict) else payload["choice"]
    )  # v3: {from, to}; v2: to
    tea.store_proposal(state, payload["seat"], to, payload["key"], payload["salt"])
    return state


def _tile(state: State, payload: Payload) -> State:
    state["commit_count"] += 1
    politics.choose_tile(state, payload["seat"], payload["choice"], payload["key"], payload["salt"])
    return state


def _played(state: State, payload: Payload) -> State:
    politics.play_mandate(state, payload["seat"], payload["declared"])
    run(Steps(state, draws=payload["draws"]))
    return state


def _bid(state: State, payload: Payload) -> State:
    state["commit_count"] += 1
    battle.store_bid(state, payload["seat"], dict(payload["choice"]), payload["key"], payload["salt"])
    return state


def _revealed(state: State, payload: Payload) -> State:
    battle.reveal(state)
    run(Steps(state, draws=payload["draws"]))
    return state


HANDLERS: dict[str, Callable[[State, Payload], State]] = {
    ev.SETUP: _setup,
    ev.MANDATES_SHUFFLED: _shuffled,
    ev.TILES_SEEN: _noop,
    ev.PROPOSAL_RECEIVED: _noop,
    ev.COMMAND_APPLIED: _command,
    ev.GIFT_GIVEN: _gift,
    ev.PROPOSAL_DECLINED: _command,
    ev.PROPOSAL_WITHDRAWN: _command,
    ev.PROPOSAL_MADE: _proposal,
    ev.MANDATE_CHOSEN: _tile,
    ev.MANDATE_PLAYED: _played,
    ev.BID_PLACED: _bid,
    ev.BIDS_REVEALED: _revealed,
}


def evolve_legacy(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.type)
    if handler is None:
        raise UnknownEvent(
            f"rising-sun (rules version {version(state)}) has no handler for event {event.type!r}"
        )
    if handler is _noop:
        return state
    return handler(clone(state), event.payload)
