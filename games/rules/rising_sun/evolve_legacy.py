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


def _setup(s: State, p: Payload) -> State:
    s = build(s, p)
    push(s, "season_start")
    run(Steps(s, draws=p["draws"]))
    return s


def _shuffled(s: State, p: Payload) -> State:
    s["secret_draws"] = s.get("secret_draws", []) + [list(o) for o in p["orders"]]
    return s


def _noop(s: State, p: Payload) -> State:
    return s


def _command(s: State, p: Payload) -> State:
    apply_input(Steps(s, draws=p.get("draws", [])), p["seat"], dict(p["cmd"]))
    return s


def _gift(s: State, p: Payload) -> State:
    tea.apply_gift(s, p["seat"], p["cmd"])
    return s


def _proposal(s: State, p: Payload) -> State:
    s["commit_count"] += 1
    to = p["choice"]["to"] if isinstance(p["choice"], dict) else p["choice"]  # v3: {from, to}; v2: to
    tea.store_proposal(s, p["seat"], to, p["key"], p["salt"])
    return s


def _tile(s: State, p: Payload) -> State:
    s["commit_count"] += 1
    politics.choose_tile(s, p["seat"], p["choice"], p["key"], p["salt"])
    return s


def _played(s: State, p: Payload) -> State:
    politics.play_mandate(s, p["seat"], p["declared"])
    run(Steps(s, draws=p["draws"]))
    return s


def _bid(s: State, p: Payload) -> State:
    s["commit_count"] += 1
    battle.store_bid(s, p["seat"], dict(p["choice"]), p["key"], p["salt"])
    return s


def _revealed(s: State, p: Payload) -> State:
    battle.reveal(s)
    run(Steps(s, draws=p["draws"]))
    return s


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
