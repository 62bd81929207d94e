"""What each seat may see: other seats' hands (except cards known to be there),
picks and commitment salts are hidden until the game ends."""

from __future__ import annotations

from typing import Any

from . import data
from .state import State, copy, income, lands_of


def view(state: State, seat: int | None) -> dict[str, Any]:
    s = copy(state)
    if s.get("stage") != "play":
        return {"stage": "new"}
    over = s.get("result") is not None
    hands = []
    for x in range(s["n"]):
        hand = sorted(s["hands"][x])
        if over or x == seat:
            hands.append({"seat": x, "cards": hand, "hidden": 0})
        else:
            known = [g for g in hand if g not in s["secrets"][x]]
            hands.append({"seat": x, "cards": known, "hidden": len(hand) - len(known)})
        if not (over or x == seat):
            s["picks"][x] = len(s["picks"][x])
        if not (over or x == seat):  # at the end GameEnded has revealed every salt
            s["secrets"][x] = len(s["secrets"][x])
    s["hands"] = hands
    s["income"] = {side: income(state, side) for side in ("japan", "allies")}
    s["lands"] = {side: lands_of(state, side) for side in ("japan", "allies")}
    s["generals_hp"] = {g: data.generals()[g]["hp"] - r["damage"] for g, r in s["generals"].items()}
    s["seat"] = seat
    return s
