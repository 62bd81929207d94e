"""What each seat may see: other seats' hands (except cards known to be there),
picks and commitment salts are hidden until the game ends."""

from __future__ import annotations

from typing import Any

from . import data
from .state import State, copy, income, lands_of


def view(state: State, seat: int | None) -> dict[str, Any]:
    if state.get("stage") != "play":
        return {"stage": "new"}
    s: dict[str, Any] = dict(copy(state))  # the view's own shape (counts for hidden parts)
    over = state.get("result") is not None
    hands: list[dict[str, Any]] = []
    picks: list[list[str] | int] = []
    secrets: list[dict[str, Any] | int] = []
    for x in range(state["n"]):
        hand = sorted(state["hands"][x])
        if over or x == seat:
            hands.append({"seat": x, "cards": hand, "hidden": 0})
            picks.append(list(state["picks"][x]))
            secrets.append(copy(dict(state["secrets"][x])))
        else:  # at the end GameEnded has revealed every salt
            known = [g for g in hand if g not in state["secrets"][x]]
            hands.append({"seat": x, "cards": known, "hidden": len(hand) - len(known)})
            picks.append(len(state["picks"][x]))
            secrets.append(len(state["secrets"][x]))
    s["hands"], s["picks"], s["secrets"] = hands, picks, secrets
    s["income"] = {side: income(state, side) for side in ("japan", "allies")}
    s["lands"] = {side: lands_of(state, side) for side in ("japan", "allies")}
    s["generals_hp"] = {g: data.generals()[g]["hp"] - r["damage"] for g, r in s["generals"].items()}
    s["seat"] = seat
    return s
