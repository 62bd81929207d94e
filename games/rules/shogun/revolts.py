"""Collecting rice and taxes, unrest and peasant revolts (reference 9, Appendix R #11).

classic (default, [frsum]/[sbw]): gain the yield; if the province already had >= 1 revolt
marker the peasants revolt with as many green cubes as markers; if the province is still
his, add exactly one marker. marker_first ([imr]): add the marker first; revolt when the
province then has >= 2 markers (green = markers); a suppressed revolt adds one more.
Favour #4 kept by the owner cancels the next marker placed on one of his provinces.
"""

from __future__ import annotations

from typing import Any

from . import data
from . import events as ev
from . import state as shogun_state
from .battle import fight
from .context import Ctx
from .state import State
from .tower_secret import publish


def yield_of(state: State, seat: int, prov: str, what: str) -> int:
    """Province value, clamped by the season event, then + the special (after events)."""
    key = "tax" if what == "tax" else "rice"
    n = data.PROVINCES[prov][key]
    card = shogun_state.event(state)
    if card.get("effect") == f"{key}_max":
        n = min(n, card["value"])
    if card.get("effect") == f"{key}_min":
        n = max(n, card["value"])
    return int(n + shogun_state.special(state, seat).get(f"{key}_bonus", 0))


def place_marker(ctx: Ctx, prov: str) -> None:
    s = ctx.state
    owner = s["provinces"][prov]["owner"]
    cancelled = owner is not None and s["players"][owner]["fav4"]
    ctx.emit(ev.MARKER_PLACED, {"province": prov, "cancelled": cancelled})


def revolt(ctx: Ctx, prov: str, green: int, kind: str = "revolt") -> dict[str, Any]:
    payload = publish(
        ctx, fight(ctx.state, ctx.stream("tower"), kind, prov, green=green, version=ctx.version)
    )
    ctx.emit(ev.BATTLE_FOUGHT, payload)
    return payload


def collect(ctx: Ctx, seat: int, prov: str, what: str) -> None:
    s = ctx.state
    ctx.emit(
        ev.COLLECTED, {"seat": seat, "province": prov, "what": what, "amount": yield_of(s, seat, prov, what)}
    )
    if s["opts"]["revolt_order"] == "marker_first":
        place_marker(ctx, prov)
        markers = ctx.state["provinces"][prov]["markers"]
        if markers >= 2:
            res = revolt(ctx, prov, markers)
            if res["result"] == "suppressed":
                place_marker(ctx, prov)
        return
    markers = s["provinces"][prov]["markers"]
    if markers >= 1:
        revolt(ctx, prov, markers)
    if ctx.state["provinces"][prov]["owner"] == seat:
        place_marker(ctx, prov)
