"""Supply/General action (§3.3): collect income, then deploy / replace / recall."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from .context import Ctx
from .generals import deploy, info, leave, management_blocked
from .state import (
    State,
    controller,
    head_prompt,
    hp_left,
    income,
    leader,
    new_unit_room,
    reserve,
    side_in,
    units_in,
)

GWAK = "gwak_jaeu"


def begin(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    side = s["side"][seat]
    gain = income(s, side)
    if s["n"] == 2:
        ctx.supply(seat, gain, "income")
    elif gain > 0:  # 4p: the turn player shares it, keeping at least half
        ctx.push(
            {
                "kind": "split",
                "seat": seat,
                "total": gain,
                "sign": 1,
                "min_mine": math.ceil(gain / 2),
                "reason": "income_share",
                "given": True,
            },
            front=False,
        )
    ctx.push(
        {"kind": "manage", "seat": seat, "deployed": False, "blocked_generals": [], "blocked_units": []},
        front=False,
    )


def own_units(state: State, seat: int) -> list[str]:
    return sorted((u for u, d in state["units"].items() if d["owner"] == seat), key=lambda uid: int(uid[1:]))


def deploy_targets(
    state: State, seat: int, blocked_g: set[str], blocked_u: set[str]
) -> list[tuple[str, str]]:
    gens = [g for g in sorted(state["hands"][seat]) if g not in blocked_g]
    units = [u for u in own_units(state, seat) if state["units"][u]["general"] is None and u not in blocked_u]
    return [(g, u) for g in gens for u in units]


def gwak_areas(state: State, seat: int) -> list[str]:
    side = state["side"][seat]
    if reserve(state, side) < 2 or new_unit_room(state, seat) < 1:
        return []
    cap = data.rules()["limits"]["units_per_area"]
    return [
        a
        for a in data.lands()
        if controller(state, a) == side
        and len(units_in(state, a)) < cap
        and side_in(state, a) in (None, side)
    ]


def legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    seat = prompt["seat"]
    out: list[dict[str, Any]] = [{"type": "done"}]
    if management_blocked(state):
        return out
    stock = state["supply"][seat]
    bg, bu = set(prompt["blocked_generals"]), set(prompt["blocked_units"])
    if not prompt["deployed"] and stock >= data.rules()["costs"]["deploy"]:
        out += [{"type": "deploy", "general": g, "unit": u} for g, u in deploy_targets(state, seat, bg, bu)]
        if GWAK in state["hands"][seat] and GWAK not in bg:
            out += [{"type": "deploy_gwak", "area": a} for a in gwak_areas(state, seat)]
    if stock >= data.rules()["costs"]["replace"]:
        for u in own_units(state, seat):
            old = state["units"][u]["general"]
            if old is None:
                continue
            out.append({"type": "recall", "unit": u})
            dmg = state["generals"][old]["damage"]
            for g in sorted(state["hands"][seat]):
                # no replacement into death; the seed bars only *deploying* a card
                # that was just replaced/recalled, so it may still replace (I-4)
                if info(g)["hp"] > dmg:
                    out.append({"type": "replace", "unit": u, "general": g})
    return out


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    t = cmd["type"]
    norm = _normalise(cmd)
    if norm not in legal(s, prompt):
        raise IllegalCommand(_why(s, prompt, t))
    if t == "done":
        ctx.pop()
        return
    costs = data.rules()["costs"]
    if t == "deploy":
        prompt["deployed"] = True
        ctx.set_head(prompt)
        deploy(ctx, seat, norm["general"], norm["unit"], costs["deploy"], "deploy")
    elif t == "deploy_gwak":
        prompt["deployed"] = True
        ctx.set_head(prompt)
        _gwak_entry(ctx, seat, norm["area"])
    elif t == "recall":
        old = leader(s, norm["unit"])
        prompt["blocked_generals"] = prompt["blocked_generals"] + [old]
        prompt["blocked_units"] = prompt["blocked_units"] + [norm["unit"]]
        ctx.set_head(prompt)
        leave(ctx, old, "hand")
        ctx.supply(seat, -costs["recall"], "recall")
    else:
        uid, new = norm["unit"], norm["general"]
        old = leader(s, uid)
        inherited = s["generals"][old]["damage"]
        prompt["blocked_generals"] = prompt["blocked_generals"] + [old]
        ctx.set_head(prompt)
        leave(ctx, old, "hand")
        deploy(ctx, seat, new, uid, costs["replace"], "replace", damage=inherited)


def _normalise(cmd: Mapping[str, Any]) -> dict[str, Any]:
    t = cmd["type"]
    if t == "deploy":
        return {"type": t, "general": commands.general(cmd), "unit": commands.unit(cmd)}
    if t == "deploy_gwak":
        return {"type": t, "area": commands.area(cmd, "area")}
    if t == "recall":
        return {"type": t, "unit": commands.unit(cmd)}
    if t == "replace":
        return {"type": t, "unit": commands.unit(cmd), "general": commands.general(cmd)}
    return {"type": t}


def _why(state: State, prompt: dict[str, Any], command_type: str) -> str:
    if management_blocked(state):
        return "Infighting (內鬥) forbids deploying, replacing and recalling generals now"
    if command_type in ("deploy", "deploy_gwak") and prompt["deployed"]:
        return "only one general may be deployed per Supply/General action"
    return f"that {command_type} is not allowed now (cost, hand, or unit)"


def _gwak_entry(ctx: Ctx, seat: int, area: str) -> None:
    """郭再佑 option 2: a new 2-troop unit under him in an allied land, which may at
    once make one free move or one free attack without supports (A-43)."""
    uid = ctx.form_unit(seat, area, 2, "gwak_enters")
    deploy(ctx, seat, GWAK, uid, data.rules()["costs"]["deploy"], "deploy")
    ctx.push({"kind": "gwak_action", "seat": seat, "unit": uid, "mode": "gwak", "moved": []})


def hp_ok(state: State, gid: str) -> bool:
    return hp_left(state, gid) > 0
