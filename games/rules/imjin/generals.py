"""Generals entering and leaving the map, damage and death (§3.3, §3.6, §8)."""

from __future__ import annotations

from typing import Any

from games.rules.base import reveal_entry

from . import data
from . import events as ev
from .context import Ctx
from .state import State, copy, hp_left, other, reserve, troop_cap

MORI = "mori_hidemoto"
NONGAE = "nongae"


def info(gid: str) -> dict[str, Any]:
    return data.generals()[gid]


def on_map(state: State, gid: str) -> bool:
    rec = state["generals"].get(gid)
    return rec is not None and rec["where"] == "map"


def owner_on_map(state: State, seat: int, gid: str) -> bool:
    return on_map(state, gid) and state["generals"][gid]["owner"] == seat


def side_generals_on_map(state: State, side: str) -> list[str]:
    return sorted(
        g for g, r in state["generals"].items() if r["where"] == "map" and state["side"][r["owner"]] == side
    )


def reveals_for(state: State, seat: int, gid: str) -> list[dict[str, Any]]:
    sec = state["secrets"][seat].get(gid)
    return [] if sec is None else [reveal_entry(seat, sec["key"], gid, sec["salt"])]


def deploy(ctx: Ctx, seat: int, gid: str, uid: str, cost: int, how: str, damage: int = 0) -> None:
    """Play a general from hand onto a unit; entry effects follow (Mori +2 except at
    setup: Appendix R #4)."""
    s = ctx.state
    ctx.emit(
        ev.GENERAL_DEPLOYED,
        {
            "seat": seat,
            "general": gid,
            "unit": uid,
            "cost": cost,
            "how": how,
            "damage": damage,
            "reveals": reveals_for(s, seat, gid),
        },
    )
    if cost:
        ctx.supply(seat, -cost, f"{how}:{gid}")
    if gid == MORI and how != "setup":
        side = s["side"][seat]
        add = min(2, troop_cap(s, uid) - s["units"][uid]["troops"], reserve(s, side))
        if add > 0:
            ctx.troops(uid, s["units"][uid]["troops"] + add, "mori_enters")


def leave(ctx: Ctx, gid: str, to: str, killer_side: str | None = None) -> None:
    """A general leaves the map (to hand healed, or dead with its portrait to the
    enemy side). Mori's unit drops to 4 (A-38); taunt bookkeeping (Appendix R #5)."""
    s = ctx.state
    rec = s["generals"][gid]
    uid = rec["unit"]
    owner_side = s["side"][rec["owner"]]
    payload = {"general": gid, "to": to, "unit": uid}
    if to == "dead":
        payload["killer_side"] = killer_side or other(owner_side)
    if to == "dead" and ctx.facts():
        ctx.emit(ev.GENERAL_KILLED, {"general": gid, "unit": uid, "killer_side": payload["killer_side"]})
    else:
        ctx.emit(ev.GENERAL_LEFT_MAP, payload)
    if gid == MORI and uid in s["units"] and s["units"][uid]["troops"] > 4:
        ctx.troops(uid, 4, "mori_leaves")
    if gid == NONGAE and s["taunt"] is not None:
        taunted = s["taunt"]["general"]
        ctx.emit(ev.TAUNT_CHANGED, {"taunt": None})
        if to == "dead" and on_map(s, taunted):
            damage(ctx, taunted, 2, "allies")


def damage(ctx: Ctx, gid: str, amount: int, killer_side: str) -> None:
    """n HP of damage; at 0 HP or less the general dies."""
    s = ctx.state
    if amount <= 0 or not on_map(s, gid):
        return
    _set_damage(ctx, gid, s["generals"][gid]["damage"] + amount)
    if hp_left(s, gid) <= 0:
        leave(ctx, gid, "dead", killer_side)


def wound(ctx: Ctx, gid: str, net: int) -> None:
    """Net HP change of one exchange (hits minus heals; negative heals), without the
    death check: `kill_if_spent` follows once every general of the exchange is settled."""
    s = ctx.state
    if net == 0 or not on_map(s, gid):
        return
    _set_damage(ctx, gid, max(0, s["generals"][gid]["damage"] + net))


def kill_if_spent(ctx: Ctx, gid: str, killer_side: str) -> None:
    if on_map(ctx.state, gid) and hp_left(ctx.state, gid) <= 0:
        leave(ctx, gid, "dead", killer_side)


def heal(ctx: Ctx, gid: str, amount: int) -> None:
    _set_damage(ctx, gid, max(0, ctx.state["generals"][gid]["damage"] - amount))


def _set_damage(ctx: Ctx, gid: str, new: int) -> None:
    """A general's damage becomes `new`: `GeneralWounded`/`GeneralHealed` (version 4) or
    the record patch `GeneralsChanged` (versions 1–3)."""
    rec = copy(ctx.state["generals"][gid])
    old = rec["damage"]
    if new == old:
        return
    if ctx.facts():
        hp = int(info(gid)["hp"]) - new
        if new > old:
            ctx.emit(ev.GENERAL_WOUNDED, {"general": gid, "hits": new - old, "damage": new, "hp": hp})
        else:
            ctx.emit(ev.GENERAL_HEALED, {"general": gid, "healed": old - new, "damage": new, "hp": hp})
        return
    rec["damage"] = new
    ctx.emit(ev.GENERALS_CHANGED, {"generals": {gid: rec}, "reason": "damage" if new > old else "heal"})


def destroy_unit(ctx: Ctx, uid: str, reason: str) -> None:
    """A unit is removed; its living general returns to its owner's hand healed."""
    s = ctx.state
    if uid not in s["units"]:
        return
    gid = s["units"][uid]["general"]
    if gid is not None and on_map(s, gid):
        leave(ctx, gid, "hand")
    if s["taunt"] is not None and s["taunt"]["unit"] == uid:
        ctx.emit(ev.TAUNT_CHANGED, {"taunt": None})
    ctx.remove_unit(uid, reason)


def set_troops(ctx: Ctx, uid: str, troops: int, reason: str) -> None:
    if troops <= 0:
        destroy_unit(ctx, uid, reason)
    elif ctx.state["units"][uid]["troops"] != troops:
        ctx.troops(uid, troops, reason)


def in_hand(state: State, seat: int) -> list[str]:
    return sorted(state["hands"][seat])


def management_blocked(state: State) -> bool:
    return any(t["card"] == "infighting" for t in state["timed"])
