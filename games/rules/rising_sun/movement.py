"""Moving figures (Marshal and Fujin): adjacency, Dragonfly flight, Turtle
Strongholds, and Path of the Serpent's toll on shipping routes."""

from __future__ import annotations

from typing import Any

from ..base import IllegalCommand
from .data import LAND, PROVINCES, SEA
from .figures import put
from .frames import Command, Steps, prompt
from .named import StrongholdMoved, emit
from .state import Frame, State, by_honor, clan, copies, figs_at, give_coins, kind_of


def destinations(state: State, seat: int, frm: str, toll_paid: bool) -> list[str]:
    if clan(state, seat) == "Dragonfly":
        return [p for p in PROVINCES if p != frm]
    out = set(LAND[frm])
    if toll_paid or state["players"][seat]["coins"] >= len(serpents(state, seat)):
        out |= SEA[frm]
    return [p for p in PROVINCES if p in out]


def serpents(state: State, seat: int) -> list[int]:
    """Other players owning Path of the Serpent: each MAY charge the mover 1 coin
    at his first shipping-route use of a movement instance (a whole Marshal
    execution, one Fujin activation). The mover must be able to pay every
    possible charge to use a route (a player with 0 coins cannot use it)."""
    return [
        q
        for q in by_honor(state, range(state["player_count"]))
        if q != seat and copies(state, q, "Path of the Serpent")
    ]


def movable(
    state: State, seat: int, moved: list[str] | None, sh_moved: list[str] | None
) -> dict[str, list[str]]:
    """province -> kinds that may still move from there."""
    out: dict[str, set[str]] = {}
    for fid in state["figures"]:
        f = state["figures"][fid]
        if f["owner"] == seat and f["at"] in PROVINCES and (moved is None or fid not in moved):
            out.setdefault(f["at"], set()).add(kind_of(f))
    if clan(state, seat) == "Turtle":
        strong = state["players"][seat]["strongholds"]
        for p in set(strong):
            if sh_moved is None or strong.count(p) > sh_moved.count(p):
                out.setdefault(p, set()).add("stronghold")
    return {p: sorted(k) for p, k in out.items()}


def move_commands(
    state: State, seat: int, moved: list[str] | None, sh_moved: list[str] | None, toll_paid: bool
) -> list[Command]:
    cmds: list[Command] = []
    for frm, kinds in sorted(movable(state, seat, moved, sh_moved).items()):
        for to in destinations(state, seat, frm, toll_paid):
            for k in kinds:
                cmds.append({"type": "move", "from": frm, "kind": k, "to": to})
    return cmds


def do_move(
    state: State, seat: int, cmd: Command, moved: list[str] | None, sh_moved: list[str] | None, frame: Frame
) -> None:
    frm, kind, to = str(cmd.get("from")), cmd.get("kind"), str(cmd.get("to"))
    kinds = movable(state, seat, moved, sh_moved).get(frm, [])
    if kind not in kinds:
        raise IllegalCommand(f"no {kind} of yours can move from {frm}")
    if to not in destinations(state, seat, frm, frame.get("toll", False)):
        raise IllegalCommand(f"{to} is not reachable from {frm}")
    tolls = []
    if clan(state, seat) != "Dragonfly" and to not in LAND[frm] and not frame.get("toll"):
        # first shipping-route use of this movement instance: each Serpent owner
        # decides whether to charge (after the move's own effects, before any
        # later step of the mover)
        tolls = serpents(state, seat)
        frame["toll"] = True
    if kind == "stronghold":
        emit(state, StrongholdMoved(seat=seat, source=frm, destination=to))
        if sh_moved is not None:
            sh_moved.append(to)
    else:
        fid = sorted(
            x
            for x in figs_at(state, frm, seat)
            if kind_of(state["figures"][x]) == kind and (moved is None or x not in moved)
        )[0]
        if moved is not None:
            moved.append(fid)
        put(state, fid, to, "Fujin" if frame["kind"] == "fujin" else "Marshal")
    for q in reversed(tolls):
        prompt(state, q, "path_of_the_serpent", ["waive", "charge"], mover=seat)


def on_path_of_the_serpent(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice != "charge":
        return
    if state["players"][prompted["mover"]]["coins"] > 0:
        give_coins(state, prompted["mover"], prompted["seat"], 1, "Path of the Serpent")
