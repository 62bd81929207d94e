"""Recruit/Reorganize action (§3.4) and the recruiting of events 援軍 / 大援軍."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from .context import Ctx
from .generals import owner_on_map
from .state import (
    State,
    controller,
    head_prompt,
    new_unit_room,
    reserve,
    side_in,
    timed_active,
    troop_cap,
    units_in,
)

YU = "yu_seongryong"


def begin(ctx: Ctx, seat: int) -> None:
    ctx.push(
        {"kind": "recruit", "seat": seat, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
        front=False,
    )


def total_cost(state: State, prompt: dict[str, Any], count: int) -> int:
    """Cost of n troops in this recruitment: 1 each, doubled under 逃避兵役, halved
    (total, rounded up) by 柳成龍 in his controller's own Recruit action (R #3)."""
    per = int(data.rules()["costs"]["recruit_per_troop"]) * (2 if timed_active(state, "draft_dodging") else 1)
    cost = count * per
    if prompt["mode"] == "action" and owner_on_map(state, prompt["seat"], YU):
        cost = math.ceil(cost / 2)
    return cost


def may_recruit_in(state: State, seat: int, area: str) -> bool:
    info = data.areas()[area]
    side = state["side"][seat]
    if not info.get("recruit_cap") or controller(state, area) != side:
        return False
    special = info.get("special")
    if special == "japan_home" and side != "japan":
        return False
    if special == "allied_home" and side != "allies":
        return False
    return side_in(state, area) in (None, side)  # an enemy presence blocks the owner (seed)


def area_room(state: State, prompt: dict[str, Any], area: str) -> int:
    cap = int(data.areas()[area]["recruit_cap"])
    return cap - int(prompt["areas"].get(area, 0))


def legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    seat = prompt["seat"]
    side = state["side"][seat]
    out: list[dict[str, Any]] = [{"type": "done"}]
    left = min(data.rules()["limits"]["recruit_per_action"] - prompt["count"], reserve(state, side))
    if left <= 0:
        return out
    taken = state["act"].get("event_areas", {}).get(side, []) if prompt.get("team_distinct") else []
    for area in sorted(data.areas()):
        if not may_recruit_in(state, seat, area) or area in taken:
            continue
        if (
            prompt["max_areas"] is not None
            and area not in prompt["areas"]
            and len(prompt["areas"]) >= prompt["max_areas"]
        ):
            continue
        room = min(left, area_room(state, prompt, area))
        here = units_in(state, area)
        targets: list[tuple[str | None, int]] = [
            (u, troop_cap(state, u) - state["units"][u]["troops"])
            for u in here
            if state["units"][u]["owner"] == seat
        ]
        if len(here) < data.rules()["limits"]["units_per_area"] and new_unit_room(state, seat) > 0:
            targets.append((None, data.rules()["limits"]["troops_per_unit"]))
        for uid, space in targets:
            for k in range(1, min(room, space) + 1):
                if (
                    total_cost(state, prompt, prompt["count"] + k)
                    - total_cost(state, prompt, prompt["count"])
                    <= state["supply"][seat]
                ):
                    out.append({"type": "recruit", "area": area, "unit": uid, "count": k})
    return out


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    if cmd["type"] == "done":
        ctx.pop()
        _after(ctx, seat, prompt)
        return
    norm: dict[str, Any] = {
        "type": "recruit",
        "area": commands.area(cmd, "area"),
        "unit": commands.unit(cmd, optional=True),
        "count": commands.integer(cmd, "count"),
    }
    if norm not in legal(s, prompt):
        raise IllegalCommand(
            "that recruitment breaks a cap (area, unit, 8 per action), "
            "a control rule, or costs more than your supply"
        )
    cost = total_cost(s, prompt, prompt["count"] + norm["count"]) - total_cost(s, prompt, prompt["count"])
    area, uid, k = norm["area"], norm["unit"], norm["count"]
    prompt["count"] += k
    prompt["areas"] = {**prompt["areas"], area: prompt["areas"].get(area, 0) + k}
    ctx.set_head(prompt)
    ctx.supply(seat, -cost, "recruit")
    if uid is None:
        ctx.form_unit(seat, area, k, "recruited")
    else:
        ctx.troops(uid, s["units"][uid]["troops"] + k, "recruited")


def _after(ctx: Ctx, seat: int, prompt: dict[str, Any]) -> None:
    s = ctx.state
    if prompt["mode"] == "event":
        if prompt.get("team_distinct"):
            side = s["side"][seat]
            ea = dict(s["act"].get("event_areas", {}))
            ea[side] = ea.get(side, []) + sorted(prompt["areas"])
            ctx.set_act(event_areas=ea)
        return
    areas = [
        a
        for a in sorted(prompt["areas"])
        if len([u for u in units_in(s, a) if s["units"][u]["owner"] == seat]) == 2
    ]
    if areas:
        ctx.push({"kind": "reorganize", "seat": seat, "areas": areas})


# ---------------------------------------------------------------------------
# Reorganize: in an area that received troops, set the split between your two
# units there in one command (each keeps ≥1 troop, A-21; caps respected).


def reorganize_legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    seat = prompt["seat"]
    out: list[dict[str, Any]] = [{"type": "done"}]
    for area in prompt["areas"]:
        a, b = [u for u in units_in(state, area) if state["units"][u]["owner"] == seat]
        total = state["units"][a]["troops"] + state["units"][b]["troops"]
        for x in range(1, total):
            if (
                x <= troop_cap(state, a)
                and total - x <= troop_cap(state, b)
                and x != state["units"][a]["troops"]
            ):
                out.append({"type": "reorganize", "area": area, "troops": [x, total - x]})
    return out


def reorganize_decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    if cmd["type"] == "done":
        ctx.pop()
        return
    norm: dict[str, Any] = {
        "type": "reorganize",
        "area": commands.area(cmd, "area"),
        "troops": commands.int_list(cmd, "troops"),
    }
    if norm not in reorganize_legal(s, prompt):
        raise IllegalCommand("that split is not allowed (area without recruits, caps, or ≥1 each)")
    area = norm["area"]
    prompt["areas"] = [a for a in prompt["areas"] if a != area]
    ctx.set_head(prompt)
    a, b = [u for u in units_in(s, area) if s["units"][u]["owner"] == seat]
    ctx.troops(a, norm["troops"][0], "reorganized")
    ctx.troops(b, norm["troops"][1], "reorganized")
    if not prompt["areas"]:
        ctx.pop()
