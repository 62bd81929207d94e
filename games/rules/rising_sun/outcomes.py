"""Rules version 4: turn a batch computed by `decide` (or `start`) into events
that state their outcome (facts.py) instead of the command's draws.

The public rising-sun event of the batch (at most one) gets `outcome` (the
public difference) and loses `draws`; `MandatesShuffled` is dropped (the deck
order is in the secret outcome); a hidden `HiddenStateChanged` (salted, like
every private event) precedes the public one (where `MandatesShuffled` stood,
so the secrets are in place when the public outcome lands) when a secret changed. Its presence must
say nothing: every secret change but one follows from public facts (a mandate
chosen, a bid, a shuffle, a new battle, a proposal or its answer, which have
private events anyway); the exception is open proposals lapsing when the Tea
Ceremony ends, so a batch that ends the ceremony always has the hidden event.
A batch without a public rising-sun event (a bid that is not the last, a
proposal, a decline) puts its whole outcome in the hidden event. Batches with
no hidden event (most moves) stay eligible for a takeback, which refuses a
batch holding an event some other seat cannot see."""

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
    if hidden or _tea_ended(old, new):
        salt = rng(f"salt:hidden-state:{purpose}").salt()
        at = next(
            (i for i, e in enumerate(events) if e.type in ev.FACT_EVENTS and e.visible_to is None),
            len(events),
        )
        events.insert(at, ev.HiddenStateChanged(outcome=hidden, salt=salt).event())
    return events


def _tea_ended(old: State, new: State) -> bool:
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
