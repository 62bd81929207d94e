"""What each seat may see: other seats' hands (except cards known to be there),
picks and commitment salts are hidden until the game ends. Every view, the one
before setup included, starts with the kit's common header (`kit.view_header`)."""

from __future__ import annotations

from typing import Any

from games.rules.kit import ViewHeader, position, view_header

from . import data, flow
from .state import State, copy, income, lands_of, rules_version

RULESET = "imjin"


def header(state: State, seat: int | None, version: int) -> ViewHeader:
    """The common header. `phase` is the kind of the position's top frame: the
    decision asked now (e.g. "advance_wheel", "declare"), or the stage ("setup",
    "turn") when nothing is asked; "setup" before the game is set up, when the
    rules version is the engine's (`version`) instead of the state's. Imjin keeps no
    score per seat: `scores` is each seat's side's count of controlled land territories
    (what wins the game, see victory.py); `order` the play order."""
    if state.get("stage") != "play":
        return view_header(
            ruleset=RULESET,
            rules_version=version,
            phase="setup",
            to_act=[],
            seat=seat,
            ended=False,
            scores=[],
            order=[],
            private=[],
        )
    return view_header(
        ruleset=RULESET,
        rules_version=rules_version(state),
        phase=position.kind(state),
        to_act=flow.pending_seats(state),
        seat=seat,
        ended=state.get("result") is not None,
        scores=[lands_of(state, side) for side in state["side"]],
        order=state["order"],
        private=[]
        if seat is None or state.get("result") is not None
        else [f"hands.{seat}", f"picks.{seat}", f"secrets.{seat}"],
    )


def view(state: State, seat: int | None, version: int) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of `state`; `version` is the engine's rules
    version, which the header names before the game's state carries its own."""
    if state.get("stage") != "play":
        return {"header": header(state, seat, version), "stage": "new"}
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
    s["header"] = header(state, seat, version)
    return s
