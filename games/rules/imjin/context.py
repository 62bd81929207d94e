"""The scratch of one decision: a private copy of the state that every emitted
event is folded into at once, so later steps of the same decision see its effects."""

from __future__ import annotations

from typing import Any

from games.rules.base import RngFactory
from games.rules.kit import Context

from . import data
from . import events as ev
from .evolve import fold_in_place
from .state import State, copy, flow_record, head_prompt, prompts, rules_version, stage


class Ctx(Context[State]):
    """The kit's `Context` over a private deep copy of the state (folded in place),
    with Imjin's shorthands for the facts its rules emit."""

    def __init__(self, state: State, rng: RngFactory):
        super().__init__(copy(state), rng, fold_in_place)

    @property
    def version(self) -> int:
        """The rules version of this game (read from the state: old games keep old rules)."""
        return rules_version(self.state)

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
            self.emit(
                ev.TROOPS_CHANGED, {"unit": uid, "troops": troops, "delta": troops - before, "reason": reason}
            )
            return
        u = dict(self.state["units"][uid])
        u["troops"] = troops
        self.unit(uid, u, reason)

    def form_unit(self, seat: int, area: str, troops: int, reason: str) -> str:
        uid = f"u{self.state['next_uid']}"
        if self.facts():
            self.emit(
                ev.UNIT_FORMED, {"unit": uid, "owner": seat, "area": area, "troops": troops, "reason": reason}
            )
        else:
            self.unit(uid, {"owner": seat, "area": area, "troops": troops, "general": None}, reason)
        return uid

    def remove_unit(self, uid: str, reason: str) -> None:
        if self.facts():
            u = self.state["units"][uid]
            self.emit(
                ev.UNIT_DESTROYED, {"unit": uid, "owner": u["owner"], "area": u["area"], "reason": reason}
            )
        else:
            self.unit(uid, None, reason)

    def move_units(self, moves: list[tuple[str, str]], reason: str) -> None:
        """Version 4: one `UnitsMoved` for the (unit, destination) pairs (a swap is one fact)."""
        units = self.state["units"]
        self.emit(
            ev.UNITS_MOVED,
            {"moves": [{"unit": u, "from": units[u]["area"], "to": to} for u, to in moves], "reason": reason},
        )

    # -- the decision queue and the turn: facts since rules version 4, FlowChanged
    # (whole queue / flow / act records) before --------------------------------

    def flow(self, **parts: Any) -> None:
        """Versions 1–3: replace the queue, the flow record or the action scratch."""
        self.emit(ev.FLOW_CHANGED, parts)

    def push(self, prompt: dict[str, Any], front: bool = True) -> None:
        if self.facts():
            self.emit(ev.DECISION_QUEUED, {"prompt": prompt, "at": "front" if front else "back"})
            return
        queue = prompts(self.state)
        queue = [prompt] + queue if front else queue + [prompt]
        self.flow(queue=queue)

    def queue_all(self, queued: list[dict[str, Any]]) -> None:
        """Queue these decisions after the (empty) queue: setup's rounds of prompts."""
        if self.facts():
            for prompt in queued:
                self.push(prompt, front=False)
            return
        self.flow(queue=prompts(self.state) + queued)

    def pop(self) -> dict[str, Any]:
        head = head_prompt(self.state)
        if self.facts():
            self.emit(ev.DECISION_TAKEN, {"kind": head["kind"], "seat": head.get("seat")})
            return head
        self.flow(queue=prompts(self.state)[1:])
        return head

    def set_head(self, prompt: dict[str, Any]) -> None:
        if self.facts():
            self.emit(ev.DECISION_UPDATED, {"prompt": prompt})
            return
        self.flow(queue=[prompt, *prompts(self.state)[1:]])

    def set_act(self, **changes: Any) -> None:
        if self.facts():
            self.emit(ev.ACTION_NOTED, {"changes": changes})
            return
        act = dict(self.state["act"])
        act.update(changes)
        self.flow(act=act)

    def set_flow(self, **changes: Any) -> None:
        self.flow(flow={**flow_record(self.state), **changes})

    def begin_turn(self, seat: int, first: bool = False) -> None:
        """A new turn: the seat's wheel step comes first; no action is under way (the
        first turn's legacy record left the still empty scratch out)."""
        if self.facts():
            self.emit(ev.TURN_BEGAN, {"seat": seat})
        elif first:
            self.flow(flow={"stage": "turn", "turn": seat, "step": "wheel"})
        else:
            self.flow(flow={"stage": "turn", "turn": seat, "step": "wheel"}, act={})

    def step(self, fact: str, step: str, **extra: Any) -> None:
        """The turn reaches `step` (version 4: told by the fact `fact`, e.g. ActionChosen)."""
        if self.facts():
            self.emit(fact, {"seat": stage(self.state)["turn"], **extra})
        else:
            self.set_flow(step=step, **extra)
