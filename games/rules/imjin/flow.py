"""Turn sequencing: after every command, `settle` runs the automatic steps
(action start/end effects, queued automatic items, next turn) until some seat
must decide or the game is over."""

from __future__ import annotations

from typing import Any

from . import battle, data, event_cards, movement, recruit, resolution, supply, victory
from . import events as ev
from .context import Ctx
from .generals import damage, owner_on_map
from .state import State, adjacent, hp_left, reserve, timed_active, troop_cap, unit_of

KUKI, YU, YI_EOK, NONGAE = "kuki_yoshitaka", "yu_seongryong", "yi_eokgi", "nongae"
KOBAYAKAWA = "kobayakawa_takakage"


def settle(ctx: Ctx) -> None:
    for _ in range(500):
        s = ctx.state
        if victory.check_instant(ctx):
            return
        q = s["queue"]
        if q:
            if q[0]["kind"] == "choose_general" and not event_cards.choose_options(s, q[0]):
                ctx.pop()  # nobody qualifies: that side's part has no effect (R #19)
                continue
            if q[0]["kind"] != "auto":
                return
            item = ctx.pop()
            AUTO[item["what"]](ctx, item)
            continue
        f = s["flow"]
        if f["stage"] != "turn":
            return
        step = f["step"]
        if step == "wheel":
            ctx.push({"kind": "advance_wheel", "seat": f["turn"]})
            return
        if step == "begin":
            if ctx.facts():
                ctx.emit(ev.ACTION_STARTED, {"seat": f["turn"], "action": f["action"]})
            else:
                ctx.set_flow(step="act")
                ctx.flow(act={})
            BEGIN[f["action"]](ctx, f["turn"])
        elif step == "act":
            ctx.step(ev.ACTION_ENDED, "closing")
            if f["action"] == "move_battle":
                end_move_battle(ctx, f["turn"])
        else:
            end_turn(ctx)
    raise AssertionError("settle did not converge")


def end_turn(ctx: Ctx) -> None:
    s = ctx.state
    f = s["flow"]
    if f.get("ending"):
        winner, reason = victory.final(s)
        victory.end(ctx, winner, reason)
        return
    order = s["order"]
    nxt = order[(order.index(f["turn"]) + 1) % len(order)]
    ctx.begin_turn(nxt)


# ---------------------------------------------------------------------------
# Move/Battle action: start (九鬼, forced taunt attack), steps, end (柳成龍, 李億祺).


def begin_move_battle(ctx: Ctx, seat: int) -> None:
    ctx.push({"kind": "auto", "what": "kuki"}, front=False)
    ctx.push({"kind": "auto", "what": "taunt_check"}, front=False)
    ctx.push({"kind": "auto", "what": "kobayakawa_check"}, front=False)
    ctx.push({"kind": "auto", "what": "move_step"}, front=False)
    ctx.push({"kind": "declare", "seat": seat, "draft": None}, front=False)


def _kuki(ctx: Ctx, item: dict[str, Any]) -> None:
    s = ctx.state
    seat = s["flow"]["turn"]
    if owner_on_map(s, seat, KUKI):
        uid = unit_of(s, KUKI)
        if not data.is_land(s["units"][uid]["area"]):
            ctx.supply(seat, 5, "kuki")


def forced_taunt(s: State) -> dict[str, Any] | None:
    """論介's taunt: the taunted unit must attack her unit first, if it can and the
    attack is affordable and legal (A-41, R #5, R #22)."""
    t = s["taunt"]
    seat = s["flow"]["turn"]
    if t is None or not owner_on_map(s, seat, t["general"]) or not owner_on_map_any(s, NONGAE):
        return None
    uid = t["unit"]
    her = unit_of(s, NONGAE)
    if uid not in s["units"] or s["units"][uid]["general"] != t["general"]:
        return None
    if timed_active(s, "peace_talks") or not adjacent(s["units"][uid]["area"], s["units"][her]["area"]):
        return None
    if timed_active(s, "typhoon") and not data.is_land(s["units"][uid]["area"]):
        return None
    if s["units"][uid]["troops"] * battle.mult(s) > s["supply"][seat]:
        return None
    return {"target": her, "main": uid, "via": None, "mode": "normal", "supports": [], "forced": True}


def owner_on_map_any(s: State, gid: str) -> bool:
    rec = s["generals"].get(gid)
    return rec is not None and rec["where"] == "map"


def _taunt_check(ctx: Ctx, item: dict[str, Any]) -> None:
    draft = forced_taunt(ctx.state)
    if draft is not None:
        ctx.push({"kind": "declare", "seat": ctx.state["flow"]["turn"], "draft": draft, "forced": True})


def _kobayakawa_check(ctx: Ctx, item: dict[str, Any]) -> None:
    """小早川隆景 (移動戰鬥時可選擇): his controller picks option 1 (normal; his side's
    徽 heal him) or option 2 (內訌 instead of his unit's attack) for this Move/Battle
    action, after the forced taunt attack (which precedes 移動戰鬥) and before moving.
    Not asked when nothing could come of option 2 (和談, or his unit already fought)."""
    s = ctx.state
    seat = s["flow"]["turn"]
    if not owner_on_map(s, seat, KOBAYAKAWA) or battle.peace(s):
        return
    uid = s["generals"][KOBAYAKAWA]["unit"]
    if uid in s["act"].get("used", []):
        return
    ctx.push({"kind": "kobayakawa", "seat": seat, "unit": uid})


def decide_kobayakawa(ctx: Ctx, seat: int, option: int) -> None:
    ctx.pop()
    if ctx.facts():
        ctx.emit(ev.KOBAYAKAWA_CHOSE, {"seat": seat, "option": option})
    else:
        ctx.set_act(kobayakawa=option)


def _move_step(ctx: Ctx, item: dict[str, Any]) -> None:
    seat = ctx.state["flow"]["turn"]
    if ctx.facts():  # the move prompt goes before the declare prompt
        movement.begin(ctx, seat, front=True)
        return
    movement.begin(ctx, seat)
    # begin appends the move prompt at the end; bring it before the declare prompt
    q = list(ctx.state["queue"])
    move = q.pop()
    ctx.flow(queue=[move] + q)


def end_move_battle(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    if owner_on_map(s, seat, YU):
        ctx.supply(seat, 5, "yu_seongryong")
    if owner_on_map(s, seat, YI_EOK):
        uid = unit_of(s, YI_EOK)
        if (
            not data.is_land(s["units"][uid]["area"])
            and hp_left(s, YI_EOK) >= 2
            and s["units"][uid]["troops"] < troop_cap(s, uid)
            and reserve(s, s["side"][seat]) > 0
        ):
            ctx.push({"kind": "sacrifice", "seat": seat, "unit": uid})


def decide_sacrifice(ctx: Ctx, seat: int, go: bool) -> None:
    s = ctx.state
    prompt = ctx.pop()
    if not go:
        return
    uid = prompt["unit"]
    damage(ctx, YI_EOK, 1, "japan")
    add = min(2, troop_cap(s, uid) - s["units"][uid]["troops"], reserve(s, s["side"][seat]))
    ctx.troops(uid, s["units"][uid]["troops"] + add, "yi_eokgi")


BEGIN = {
    "supply_general": supply.begin,
    "recruit_reorganize": recruit.begin,
    "move_battle": begin_move_battle,
}

AUTO = {
    "kuki": _kuki,
    "taunt_check": _taunt_check,
    "kobayakawa_check": _kobayakawa_check,
    "move_step": _move_step,
    "reset_after": lambda ctx, item: event_cards.reset_after(ctx),
    "offer_advance": resolution.offer_advance,
    "offer_taunt": resolution.offer_taunt,
    "offer_second": resolution.offer_second,
}
