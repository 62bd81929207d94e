"""Special cards and turn order (reference section 6): in bid order each player takes one
of the face-up special cards; the slot (1..5) it lay on is his place in the turn order
this season. With 3-4 players the unused slots are skipped."""

from __future__ import annotations

from games.rules.base import IllegalCommand

from . import events as E


def chooser(s: dict):
    q = s["round"]["queue"]
    return q[0] if s["phase"] == "special" and q else None


def free_slots(s: dict) -> list[int]:
    taken = set(x for x in s["round"]["chosen"] if x is not None)
    return [slot for slot in range(1, len(s["round"]["specials"]) + 1) if slot not in taken]


def legal(s: dict, seat: int) -> list[dict]:
    if chooser(s) != seat:
        return []
    return [{"type": "special", "slot": slot} for slot in free_slots(s)]


def decide(ctx, seat: int, slot: int) -> None:
    s = ctx.s
    if chooser(s) != seat:
        raise IllegalCommand("it is not your turn to choose a special card")
    if slot not in free_slots(s):
        raise IllegalCommand("that special card is not available")
    ctx.emit(E.SPECIAL_CHOSEN, {"seat": seat, "slot": slot, "special": s["round"]["specials"][slot - 1]})
