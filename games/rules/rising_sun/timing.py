"""Timing conflicts (rulebook "Otras reglas": "Si alguna vez hay un conflicto en
el momento de la ejecución de una habilidad, el jugador involucrado con mayor
Honor decide si va primero o último"; Appendix R 3 and 20a).

- `simultaneous(s, what, seats)`: abilities of several players that trigger at
  the same moment. The order is fixed when the step starts: descending Honor;
  if 2+ players are involved, the highest-Honor one is asked `first` / `last`
  (prompt `<what>_timing`, default `first`). Then `SIMUL[what](s, seat)` runs for
  each player in turn; whatever it pushes (prompts...) completes before the next
  player's effects.
- `own_order(s, seat, what, todo)`: one player's own simultaneous effects
  (several different cards): he orders them freely, picking the next one while 2+
  different cards remain (prompt `<what>_order`, default = the first listed).
  `OWN[what](s, seat, card)` resolves one copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .flow import AUTO, PROMPT, Ctx, pop, prompt, push
from .state import Frame, State, by_honor

SIMUL: dict[str, Callable[[State, int], None]] = {}
OWN: dict[str, Callable[[State, int, str], None]] = {}


def simultaneous(s: State, what: str, seats: Iterable[int]) -> None:
    order = by_honor(s, set(seats))
    if not order:
        return
    push(s, "simul", what=what, order=order, step=0)
    if len(order) >= 2:
        prompt(s, order[0], f"{what}_timing", ["first", "last"])


def _simul(s: State, f: Frame, ctx: Ctx) -> None:
    if f["step"] >= len(f["order"]):
        pop(s)
        return
    seat = f["order"][f["step"]]
    f["step"] += 1
    SIMUL[f["what"]](s, seat)


def _timing(s: State, p: Frame, choice: Any, ctx: Ctx) -> None:
    f = s["stack"][-1]
    if choice == "last":
        f["order"] = f["order"][1:] + f["order"][:1]


def own_order(s: State, seat: int, what: str, todo: list[str]) -> None:
    if todo:
        push(s, "own", seat=seat, what=what, todo=list(todo))


def _own(s: State, f: Frame, ctx: Ctx) -> None:
    todo = f["todo"]
    if not todo:
        pop(s)
        return
    distinct = list(dict.fromkeys(todo))
    if len(distinct) >= 2:
        prompt(s, f["seat"], f"{f['what']}_order", distinct)
        return
    OWN[f["what"]](s, f["seat"], todo.pop(0))


def _own_pick(s: State, p: Frame, choice: Any, ctx: Ctx) -> None:
    f = s["stack"][-1]
    f["todo"].remove(choice)
    OWN[f["what"]](s, f["seat"], choice)


AUTO["simul"] = _simul
AUTO["own"] = _own


def register(
    what: str,
    per_seat: Callable[[State, int], None] | None = None,
    own: Callable[[State, int, str], None] | None = None,
) -> None:
    if per_seat is not None:
        SIMUL[what] = per_seat
        PROMPT[f"{what}_timing"] = _timing
    if own is not None:
        OWN[what] = own
        PROMPT[f"{what}_order"] = _own_pick
