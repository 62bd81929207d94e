"""Movement (§3.5 step 1), also used by 調度 (redeploy) and 郭再佑's free move.

A move command names the unit and its path (one area, or two for the naval bonus
and 李如松's land double move); a swap names two adjacent own units."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from . import events as ev
from .context import Ctx
from .state import State, adjacent, head_prompt, side_in, timed_active, units_in

LI = "li_rusong"


def begin(ctx: Ctx, seat: int, front: bool = False) -> None:
    """Naval-bonus eligibility is judged at the start of the Move step (R #6)."""
    s = ctx.state
    sea = sorted(u for u, d in s["units"].items() if d["owner"] == seat and not data.is_land(d["area"]))
    ctx.set_act(sea_start=sea)
    ctx.push({"kind": "move", "seat": seat, "mode": "action", "moved": []}, front=front)


def rain(state: State, prompt: dict[str, Any]) -> int:
    return 2 if prompt["mode"] == "action" and timed_active(state, "torrential_rain") else 1


def can_enter(state: State, side: str, area: str) -> bool:
    return (
        side_in(state, area) in (None, side)
        and len(units_in(state, area)) < data.rules()["limits"]["units_per_area"]
    )


def movable(state: State, prompt: dict[str, Any], uid: str) -> bool:
    d = state["units"].get(uid)
    if d is None or d["owner"] != prompt["seat"] or uid in prompt["moved"]:
        return False
    if prompt["mode"] == "gwak":
        return bool(uid == prompt["unit"])
    if prompt["mode"] == "action" and uid in state["act"].get("used", []):
        return False  # a taunted unit that already fought (R #5)
    return not (timed_active(state, "typhoon") and not data.is_land(d["area"]))


def paths(state: State, prompt: dict[str, Any], uid: str) -> list[list[str]]:
    d = state["units"][uid]
    side = state["side"][d["owner"]]
    here = d["area"]
    typhoon = timed_active(state, "typhoon")
    out: list[list[str]] = []
    for b in sorted(data.adjacency()[here]):
        if typhoon and not data.is_land(b):
            continue
        if can_enter(state, side, b):
            out.append([b])
    if prompt["mode"] == "gwak":
        return out
    naval = (not data.is_land(here)) and (
        prompt["mode"] == "redeploy" or uid in state["act"].get("sea_start", [])
    )
    li = prompt["mode"] == "action" and d["general"] == LI and data.is_land(here)
    for b in sorted(data.adjacency()[here]):
        if side_in(state, b) not in (None, side):
            continue  # never pass through enemies
        out += _second_steps(state, side, here, b, naval, li)
    return out


def _second_steps(state: State, side: str, here: str, middle: str, naval: bool, li: bool) -> list[list[str]]:
    """Two-area paths through `b`: by sea (landing only on a land holding no units
    at all), or 李舜臣's land march."""
    out: list[list[str]] = []
    if naval and not data.is_land(middle):
        for c in sorted(data.adjacency()[middle]):
            if c == here or not can_enter(state, side, c):
                continue
            if data.is_land(c) and units_in(state, c):
                continue
            out.append([middle, c])
    if li and data.is_land(middle):
        for c in sorted(data.adjacency()[middle]):
            if c != here and data.is_land(c) and can_enter(state, side, c):
                out.append([middle, c])
    return out


def budget(state: State, prompt: dict[str, Any]) -> int:
    stock = state["supply"][int(prompt["seat"])]
    if prompt["mode"] == "redeploy":
        return min(stock, int(prompt["budget"]))
    return 0 if prompt["mode"] == "gwak" else stock


def cost(state: State, prompt: dict[str, Any], troops: int) -> int:
    return 0 if prompt["mode"] == "gwak" else troops * rain(state, prompt)


def legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "done"}]
    money = budget(state, prompt)
    mine = sorted((u for u in state["units"] if movable(state, prompt, u)), key=lambda uid: int(uid[1:]))
    for uid in mine:
        if cost(state, prompt, state["units"][uid]["troops"]) > money:
            continue
        out += [{"type": "move", "unit": uid, "path": p} for p in paths(state, prompt, uid)]
    if prompt["mode"] == "gwak":
        return out
    typhoon = timed_active(state, "typhoon")
    for i, a in enumerate(mine):
        for b in mine[i + 1 :]:
            da, db = state["units"][a], state["units"][b]
            if not adjacent(da["area"], db["area"]):
                continue
            if typhoon and not (data.is_land(da["area"]) and data.is_land(db["area"])):
                continue
            if cost(state, prompt, da["troops"] + db["troops"]) <= money:
                out.append({"type": "swap", "unit": a, "with": b})
    return out


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    t = cmd["type"]
    if t == "done":
        ctx.pop()
        return
    norm: dict[str, Any]
    if t == "move":
        norm = {"type": "move", "unit": commands.unit(cmd), "path": commands.area_list(cmd, "path")}
    else:
        norm = {"type": "swap", "unit": commands.unit(cmd), "with": commands.unit(cmd, "with")}
    if norm not in legal(s, prompt):
        raise IllegalCommand(
            "that move is not legal (adjacency, enemies, stacking, typhoon, already moved, or cost)"
        )
    units = [norm["unit"]] if t == "move" else [norm["unit"], norm["with"]]
    paid = cost(s, prompt, sum(s["units"][u]["troops"] for u in units))
    prompt["moved"] = prompt["moved"] + units
    if prompt["mode"] == "redeploy":
        prompt["budget"] -= paid
    ctx.set_head(prompt)
    ctx.supply(seat, -paid, "movement")
    if t == "move":
        dest = norm["path"][-1]
        one_land_step = (
            len(norm["path"]) == 1 and data.is_land(dest) and data.is_land(s["units"][units[0]]["area"])
        )
        relocate(ctx, units[0], dest, "moved")
        if prompt["mode"] == "action":
            mark_moved(ctx, units[0], li_can_fight=one_land_step and s["units"][units[0]]["general"] == LI)
    else:
        a, b = units
        pa, pb = s["units"][a]["area"], s["units"][b]["area"]
        if ctx.facts():  # one fact; both areas were already the swapper's
            ctx.move_units([(a, pb), (b, pa)], "swapped")
            _take(ctx, a, pb)
            _take(ctx, b, pa)
        else:
            relocate(ctx, a, pb, "swapped")
            relocate(ctx, b, pa, "swapped")
        if prompt["mode"] == "action":
            mark_moved(ctx, a)
            mark_moved(ctx, b)
    if prompt["mode"] == "gwak":
        ctx.pop()


def relocate(ctx: Ctx, uid: str, dest: str, reason: str) -> None:
    """Move a unit; entering an enemy-controlled land takes control (A-17)."""
    s = ctx.state
    if ctx.facts():
        ctx.move_units([(uid, dest)], reason)
    else:
        u = dict(s["units"][uid])
        u["area"] = dest
        ctx.unit(uid, u, reason)
    _take(ctx, uid, dest)


def _take(ctx: Ctx, uid: str, dest: str) -> None:
    s = ctx.state
    side = s["side"][s["units"][uid]["owner"]]
    if data.is_land(dest) and s["control"].get(dest) != side:
        ctx.emit(ev.CONTROL_CHANGED, {"area": dest, "side": side})


def mark_moved(ctx: Ctx, uid: str, li_can_fight: bool = False) -> None:
    """The unit moved in this action (it may not fight, except 李如松 after one land step)."""
    if ctx.facts():
        ctx.emit(ev.UNIT_MARKED_MOVED, {"unit": uid, "may_fight": li_can_fight})
        return
    act = ctx.state["act"]
    moved = act.get("moved", []) + [uid]
    li = act.get("li_fight", []) + ([uid] if li_can_fight else [])
    ctx.set_act(moved=moved, li_fight=li)
