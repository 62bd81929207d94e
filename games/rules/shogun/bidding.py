"""Special cards and turn order (reference section 6): in bid order each player takes one
of the face-up special cards; the slot (1..5) it lay on is his place in the turn order
this season. With 3-4 players the unused slots are skipped."""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand

from . import events as ev
from .context import Ctx
from .state import State, phase_of, round_of


def chooser(state: State) -> int | None:
    q = round_of(state)["queue"]
    return q[0] if phase_of(state) == "special" and q else None


def free_slots(state: State) -> list[int]:
    taken = set(x for x in round_of(state)["chosen"] if x is not None)
    return [slot for slot in range(1, len(round_of(state)["specials"]) + 1) if slot not in taken]


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    if chooser(state) != seat:
        return []
    return [{"type": "special", "slot": slot} for slot in free_slots(state)]


def decide(ctx: Ctx, seat: int, slot: int) -> None:
    s = ctx.state
    if chooser(s) != seat:
        raise IllegalCommand("it is not your turn to choose a special card")
    if slot not in free_slots(s):
        raise IllegalCommand("that special card is not available")
    ctx.emit(ev.SPECIAL_CHOSEN, {"seat": seat, "slot": slot, "special": round_of(s)["specials"][slot - 1]})
