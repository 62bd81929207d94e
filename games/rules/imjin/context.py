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

    # -- units: facts since rules version 4, record patches (UnitsChanged) before ----

    def facts(self) -> bool:
        return self.version >= 4

    def unit(self, uid: str, unit: dict[str, Any] | None, reason: str) -> None:
        """Versions 1–3: the whole record of a unit (None: removed)."""
        self.emit(ev.UNITS_CHANGED, {"units": {uid: unit}, "reason": reason})

    def troops(self, uid: str, troops: int, reason: str) -> None:
        if self.facts():
            before = self.state["units"][uid]["troops"]
            self.emit(ev.TROOPS_CHANGED, {"unit": uid, "troops": troops, "delta": troops - before,
                                          "reason": reason})
            return
        u = dict(self.state["units"][uid])
        u["troops"] = troops
        self.unit(uid, u, reason)

    def form_unit(self, seat: int, area: str, troops: int, reason: str) -> str:
        uid = f"u{self.state['next_uid']}"
        if self.facts():
            self.emit(ev.UNIT_FORMED, {"unit": uid, "owner": seat, "area": area, "troops": troops,
                                       "reason": reason})
        else:
            self.unit(uid, {"owner": seat, "area": area, "troops": troops, "general": None}, reason)
        return uid

    def remove_unit(self, uid: str, reason: str) -> None:
        if self.facts():
            u = self.state["units"][uid]
            self.emit(ev.UNIT_DESTROYED, {"unit": uid, "owner": u["owner"], "area": u["area"],
                                          "reason": reason})
        else:
            self.unit(uid, None, reason)

    def move_units(self, moves: list[tuple[str, str]], reason: str) -> None:
        """Version 4: one `UnitsMoved` for the (unit, destination) pairs (a swap is one fact)."""
        units = self.state["units"]
        self.emit(ev.UNITS_MOVED, {"moves": [{"unit": u, "from": units[u]["area"], "to": to} for u, to in moves],
                                   "reason": reason})

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
