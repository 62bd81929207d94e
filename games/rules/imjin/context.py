"""The scratch of one decision: a private copy of the state that every emitted
event is folded into at once, so later steps of the same decision see its effects."""

from __future__ import annotations

from typing import Any

from games.rules.base import Event, RngFactory

from . import data
from . import events as ev
from .evolve import apply_in_place
from .state import State, copy, rules_version


class Ctx:
    def __init__(self, state: State, rng: RngFactory):
        self.state: State = copy(state)
        self.rng = rng
        self.events: list[Event] = []

    @property
    def version(self) -> int:
        """The rules version of this game (read from the state: old games keep old rules)."""
        return rules_version(self.state)

    def salt(self, key: str) -> str:
        """A fresh secret salt for a private event (128 bits from this decision's RNG;
        `key` names the event uniquely in the game, so no two streams coincide)."""
        return self.rng(f"salt:{key}").salt()

    def emit(self, etype: str, payload: dict[str, Any], visible_to: tuple[int, ...] | None = None) -> None:
        e = Event(etype, payload, visible_to=visible_to)
        if not etype.startswith("core."):
            apply_in_place(self.state, e)
        self.events.append(e)

    def raw(self, event: Event) -> None:
        """An already-built event (e.g. from base.commit)."""
        if not event.type.startswith("core."):
            apply_in_place(self.state, event)
        self.events.append(event)

    # -- common shorthands -------------------------------------------------

    def supply(self, seat: int, delta: int, reason: str) -> None:
        # the stock track runs 0–99: losses stop at 0, gains at 99; the
        # payload carries the change that really happened
        cur = self.state["supply"][seat]
        top = data.rules()["supply"]["max"]
        delta = max(0, min(top, cur + delta)) - cur
        if delta:
            self.emit(ev.SUPPLY_CHANGED, {"seat": seat, "delta": delta, "reason": reason})

    def unit(self, uid: str, unit: dict[str, Any] | None, reason: str) -> None:
        self.emit(ev.UNITS_CHANGED, {"units": {uid: unit}, "reason": reason})

    def troops(self, uid: str, troops: int, reason: str) -> None:
        u = dict(self.state["units"][uid])
        u["troops"] = troops
        self.unit(uid, u, reason)

    def flow(self, **parts: Any) -> None:
        self.emit(ev.FLOW_CHANGED, parts)

    def push(self, prompt: dict[str, Any], front: bool = True) -> None:
        q = list(self.state["queue"])
        q = [prompt] + q if front else q + [prompt]
        self.flow(queue=q)

    def pop(self) -> dict[str, Any]:
        q = list(self.state["queue"])
        head = q.pop(0)
        self.flow(queue=q)
        return head

    def set_head(self, prompt: dict[str, Any]) -> None:
        q = list(self.state["queue"])
        q[0] = prompt
        self.flow(queue=q)

    def set_act(self, **changes: Any) -> None:
        act = dict(self.state["act"])
        act.update(changes)
        self.flow(act=act)

    def set_flow(self, **changes: Any) -> None:
        f = dict(self.state["flow"])
        f.update(changes)
        self.flow(flow=f)
