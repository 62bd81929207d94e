"""Timing conflicts (rulebook "Otras reglas": "Si alguna vez hay un conflicto en
el momento de la ejecución de una habilidad, el jugador involucrado con mayor
Honor decide si va primero o último"; Appendix R 3 and 20a).

Why, with the measurements and history: docs/modules.md, `games/rules/rising_sun/timing.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .frames import Steps, pop, prompt, push
from .state import Frame, State, by_honor


def simultaneous(state: State, what: str, seats: Iterable[int]) -> None:
    order = by_honor(state, set(seats))
    if not order:
        return
    push(state, "simul", what=what, order=order, step=0)
    if len(order) >= 2:
        prompt(state, order[0], f"{what}_timing", ["first", "last"])


def next_seat(state: State, frame: Frame) -> int | None:
    """The next player of a "simul" frame (None: all done, the frame is popped)."""
    if frame["step"] >= len(frame["order"]):
        pop(state)
        return None
    seat: int = frame["order"][frame["step"]]
    frame["step"] += 1
    return seat


def on_timing(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    """`<what>_timing`: the highest-Honor player goes first or last."""
    f = state["position"][-1]
    if choice == "last":
        f["order"] = f["order"][1:] + f["order"][:1]


def own_order(state: State, seat: int, what: str, todo: list[str]) -> None:
    if todo:
        push(state, "own", seat=seat, what=what, todo=list(todo))


def next_own(state: State, frame: Frame) -> str | None:
    """The next card of an "own" frame when it needs no choice (None: the frame is
    popped, or the player is asked to order 2+ different cards)."""
    todo = frame["todo"]
    if not todo:
        pop(state)
        return None
    distinct = list(dict.fromkeys(todo))
    if len(distinct) >= 2:
        prompt(state, frame["seat"], f"{frame['what']}_order", distinct)
        return None
    card: str = todo.pop(0)
    return card


def take_own(state: State, choice: str) -> Frame:
    """`<what>_order`: the player picked `choice`; the "own" frame it came from."""
    f = state["position"][-1]
    f["todo"].remove(choice)
    return f
