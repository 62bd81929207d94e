"""Battle declaration (§3.5 step 2): targets, main units, supports, 內訌, taunt.

Declaration is split into sub-steps so command lists stay small: `attack` names
target + main unit (+ the free sea move, + 誾千代's option), then `support` adds
one support at a time, `confirm` pays; `fight` ends the declarations. All battles
are declared and paid before any is resolved (Appendix R #10).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from . import events as ev
from .context import Ctx
from .movement import can_enter, mark_moved, relocate
from .state import State, adjacent, head_prompt, rules_version, timed_active, units_in

KOBAYAKAWA = "kobayakawa_takakage"


def mult(state: State) -> int:
    return 2 if timed_active(state, "torrential_rain") else 1


def peace(state: State) -> bool:
    return timed_active(state, "peace_talks")


def side_of(state: State, uid: str) -> str:
    return state["side"][state["units"][uid]["owner"]]


def can_fight(state: State, uid: str) -> bool:
    act = state["act"]
    if uid in act.get("used", []):
        return False
    if uid in act.get("moved", []) and uid not in act.get("li_fight", []):
        return False
    return not (timed_active(state, "typhoon") and not data.is_land(state["units"][uid]["area"]))


def gave_up_attack(state: State, uid: str) -> bool:
    """小早川隆景's option 2: his unit gives up its attack (放棄該次攻擊) this action."""
    return state["act"].get("kobayakawa") == 2 and state["units"][uid]["general"] == KOBAYAKAWA


def targets(state: State, seat: int) -> list[str]:
    """Enemy units that may still be attacked this action: not immune (內訌's defender,
    論介 after the forced attack) and not already the target of a battle declared this
    action — 「針對每一個目標敵方部隊，玩家只能派出一個己方主力部隊」 (one main unit per
    target; the seed wins over A-26)."""
    side = state["side"][seat]
    barred = set(state["act"].get("immune", [])) | {b["target"] for b in state["act"].get("battles", [])}
    return sorted(
        (u for u, d in state["units"].items() if state["side"][d["owner"]] != side and u not in barred),
        key=lambda uid: int(uid[1:]),
    )


def via_options(state: State, main: str, target: str) -> list[str | None]:
    """None = attack from where it stands; an area = the free sea move first (only
    for a unit that started the action at sea, against a sea target, R #9)."""
    here = state["units"][main]["area"]
    t_area = state["units"][target]["area"]
    out: list[str | None] = [None] if adjacent(here, t_area) else []
    if (
        data.is_land(t_area)
        or data.is_land(here)
        or main not in state["act"].get("sea_start", [])
        or main in state["act"].get("moved", [])
    ):
        return out
    side = side_of(state, main)
    for x in sorted(data.adjacency()[here]):
        if not data.is_land(x) and adjacent(x, t_area) and can_enter(state, side, x):
            out.append(x)
    return out


def modes(state: State, main: str) -> list[str]:
    g = state["units"][main]["general"]
    if g == "tachibana_ginchiyo" and data.is_land(state["units"][main]["area"]):
        return ["normal", "forced_loss"]
    return ["normal"]


def attack_options(state: State, seat: int) -> list[dict[str, Any]]:
    if peace(state):
        return []
    stock = state["supply"][seat]
    out = []
    mine = sorted(
        (
            u
            for u, d in state["units"].items()
            if d["owner"] == seat and can_fight(state, u) and not gave_up_attack(state, u)
        ),
        key=lambda uid: int(uid[1:]),
    )
    for t in targets(state, seat):
        for m in mine:
            if state["units"][m]["troops"] * mult(state) > stock:
                continue
            for via in via_options(state, m, t):
                for mode in modes(state, m):
                    out.append({"type": "attack", "target": t, "main": m, "via": via, "mode": mode})
    return out


def discord_options(state: State, seat: int) -> list[dict[str, Any]]:
    """小早川隆景's 內訌: an adjacent area with two enemy units; Japan picks who
    attacks whom (A-42)."""
    if peace(state) or state["act"].get("kobayakawa") != 2:
        return []
    out = []
    for k, d in sorted(state["units"].items(), key=lambda item: int(item[0][1:])):
        if d["owner"] != seat or d["general"] != KOBAYAKAWA or not can_fight(state, k):
            continue
        if d["troops"] * mult(state) > state["supply"][seat]:
            continue
        immune = list(state["act"].get("immune", []))
        if rules_version(state) >= 3:
            # its defender may not be attacked again this round (「本回合不能再遭受攻擊」):
            # so not a unit a battle declared this action already targets
            immune += [b["target"] for b in state["act"].get("battles", [])]
        for area in sorted(data.adjacency()[d["area"]]):
            enemies = [u for u in units_in(state, area) if side_of(state, u) != state["side"][seat]]
            if len(enemies) == 2:
                for a, b in (enemies, enemies[::-1]):
                    if b not in immune:
                        out.append({"type": "discord", "unit": k, "attacker": a, "defender": b})
    return out


def draft_cost(state: State, draft: dict[str, Any]) -> int:
    cost = state["units"][draft["main"]]["troops"]
    if state["units"][draft["main"]]["general"] != "ukita_hideie":  # 宇喜多: supports are free
        cost += sum(state["units"][u]["troops"] for u in draft["supports"])
    return cost * mult(state)


def support_options(state: State, seat: int, draft: dict[str, Any]) -> list[dict[str, Any]]:
    t_area = state["units"][draft["target"]]["area"]
    main_g = state["units"][draft["main"]]["general"]
    if (
        draft["mode"] != "normal"
        or len(draft["supports"]) >= 2
        or (main_g == "seosan" and data.is_land(state["units"][draft["main"]]["area"]))
        or state["units"][draft["target"]]["general"] == "qi_jiguang"
    ):
        return []
    side = state["side"][seat]
    out = []
    for u, d in sorted(state["units"].items(), key=lambda item: int(item[0][1:])):
        if state["side"][d["owner"]] != side or u == draft["main"] or u in draft["supports"]:
            continue
        if not can_fight(state, u) or gave_up_attack(state, u) or not adjacent(d["area"], t_area):
            continue
        if data.is_land(d["area"]) and not data.is_land(t_area):
            continue  # land units support land battles only
        if draft_cost(state, {**draft, "supports": draft["supports"] + [u]}) <= state["supply"][seat]:
            out.append({"type": "support", "unit": u})
    return out


def legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    seat = prompt["seat"]
    draft = prompt.get("draft")
    if draft is not None:
        out = [{"type": "confirm"}] + support_options(state, seat, draft)
        return out if prompt.get("forced") else out + [{"type": "cancel"}]
    return [{"type": "fight"}] + attack_options(state, seat) + discord_options(state, seat)


def _norm(cmd: Mapping[str, Any]) -> dict[str, Any]:
    t = cmd["type"]
    if t == "attack":
        return {
            "type": t,
            "target": commands.unit(cmd, "target"),
            "main": commands.unit(cmd, "main"),
            "via": commands.area(cmd, "via", optional=True),
            "mode": commands.text(cmd, "mode"),
        }
    if t == "support":
        return {"type": t, "unit": commands.unit(cmd)}
    if t == "discord":
        return {
            "type": t,
            "unit": commands.unit(cmd),
            "attacker": commands.unit(cmd, "attacker"),
            "defender": commands.unit(cmd, "defender"),
        }
    return {"type": t}


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    norm = _norm(cmd)
    if norm not in legal(s, prompt):
        raise IllegalCommand(_why(s, norm))
    t = norm["type"]
    if t == "fight":
        ctx.pop()
        if any(not b["done"] for b in s["act"].get("battles", [])):
            ctx.push({"kind": "resolve", "seat": seat})
    elif t == "attack":
        prompt["draft"] = {
            "target": norm["target"],
            "main": norm["main"],
            "via": norm["via"],
            "mode": norm["mode"],
            "supports": [],
        }
        ctx.set_head(prompt)
    elif t == "support":
        d = dict(prompt["draft"])
        d["supports"] = d["supports"] + [norm["unit"]]
        prompt["draft"] = d
        ctx.set_head(prompt)
    elif t == "cancel":
        prompt["draft"] = None
        ctx.set_head(prompt)
    elif t == "confirm":
        _confirm(ctx, seat, prompt)
    else:
        _discord(ctx, seat, norm)


def _confirm(ctx: Ctx, seat: int, prompt: dict[str, Any]) -> None:
    s = ctx.state
    draft = prompt["draft"]
    ctx.supply(seat, -draft_cost(s, draft), "battle")
    if draft["via"] is not None:  # the free sea move, made at declaration (R #9)
        relocate(ctx, draft["main"], draft["via"], "sea_move_to_attack")
        mark_moved(ctx, draft["main"])
    add_battle(ctx, draft, "normal" if draft["mode"] == "normal" else draft["mode"])
    prompt["draft"] = None
    if prompt.get("forced"):  # the taunt attack is resolved at once, before movement
        ctx.pop()
        ctx.push({"kind": "resolve", "seat": seat, "forced": True})
    else:
        ctx.set_head(prompt)


def add_battle(ctx: Ctx, draft: dict[str, Any], mode: str) -> None:
    s = ctx.state
    battles = list(s["act"].get("battles", []))
    t_area = s["units"][draft["target"]]["area"]
    battles.append(
        {
            "n": len(battles),
            "target": draft["target"],
            "main": draft["main"],
            "supports": list(draft["supports"]),
            "mode": mode,
            "area": t_area,
            "type": "land" if data.is_land(t_area) else "sea",
            "done": False,
            "forced": bool(draft.get("forced")),
        }
    )
    if ctx.facts():
        ctx.emit(ev.BATTLE_DECLARED, {"battle": battles[-1]})
        return
    used = s["act"].get("used", []) + [draft["main"]] + list(draft["supports"])
    ctx.set_act(battles=battles, used=used)


def _discord(ctx: Ctx, seat: int, norm: dict[str, Any]) -> None:
    s = ctx.state
    ctx.supply(seat, -s["units"][norm["unit"]]["troops"] * mult(s), "discord")
    if ctx.facts():
        ctx.emit(
            ev.DISCORD_DECLARED,
            {"unit": norm["unit"], "attacker": norm["attacker"], "defender": norm["defender"]},
        )
    else:
        immune = s["act"].get("immune", []) + [norm["defender"]]
        ctx.set_act(immune=immune, used=s["act"].get("used", []) + [norm["unit"]])
    add_battle(ctx, {"target": norm["defender"], "main": norm["attacker"], "supports": []}, "discord")


def _why(state: State, norm: dict[str, Any]) -> str:
    if peace(state) and norm["type"] in ("attack", "discord"):
        return "Peace Talks (和談) forbid attacks now"
    return f"that {norm['type']} is not allowed now (adjacency, moved/used units, typhoon, supports, or cost)"
