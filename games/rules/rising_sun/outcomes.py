"""Rules version 4: turn a batch computed by `decide` (or `start`) into events
that state their outcome (facts.py) instead of the command's draws.

Why, with the measurements and history: docs/modules.md, `games/rules/rising_sun/outcomes.py`.
"""

from __future__ import annotations

from ..base import Event, RngFactory
from . import events as ev
from .facts import Outcome, diff
from .state import State


def restate(old: State, new: State, out: list[Event], rng: RngFactory, purpose: str) -> list[Event]:
    public, secret = diff(old, new)
    events: list[Event] = []
    carried = False
    for e in out:
        if e.type == ev.MANDATES_SHUFFLED:
            continue
        if e.type in ev.FACT_EVENTS and e.visible_to is None:
            fields = {k: v for k, v in e.payload.items() if k != "draws"}
            events.append(ev.FACTS[e.type](**fields, outcome=public).event())
            carried = True
        else:
            events.append(e)
    hidden = secret if carried else merge(public, secret)
    if hidden or tea_ended(old, new):
        salt = rng(f"salt:hidden-state:{purpose}").salt()
        at = next(
            (i for i, e in enumerate(events) if e.type in ev.FACT_EVENTS and e.visible_to is None),
            len(events),
        )
        events.insert(at, ev.HiddenStateChanged(outcome=hidden, salt=salt).event())
    return events


def tea_ended(old: State, new: State) -> bool:
    """Whether the batch ended the Tea Ceremony (open proposals lapse: a secret change)."""

    def tea(state: State) -> bool:
        return any(f["kind"] == "tea" for f in state.get("position", []))

    return tea(old) and not tea(new)


def merge(first: Outcome, second: Outcome) -> Outcome:
    """One outcome doing both (their keys are disjoint: public vs secret)."""
    out: Outcome = {**first, **second}
    if "set" in first or "set" in second:
        out["set"] = {**first.get("set", {}), **second.get("set", {})}
    if "unset" in first or "unset" in second:
        out["unset"] = sorted(set(first.get("unset", [])) | set(second.get("unset", [])))
    return out
