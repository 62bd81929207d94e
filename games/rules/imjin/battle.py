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


def mult(s: State) -> int:
    return 2 if timed_active(s, "torrential_rain") else 1


def peace(s: State) -> bool:
    return timed_active(s, "peace_talks")


def side_of(s: State, uid: str) -> str:
    return s["side"][s["units"][uid]["owner"]]


def can_fight(s: State, uid: str) -> bool:
    act = s["act"]
    if uid in act.get("used", []):
        return False
    if uid in act.get("moved", []) and uid not in act.get("li_fight", []):
        return False
    return not (timed_active(s, "typhoon") and not data.is_land(s["units"][uid]["area"]))


def gave_up_attack(s: State, uid: str) -> bool:
    """小早川隆景's option 2: his unit gives up its attack (放棄該次攻擊) this action."""
    return s["act"].get("kobayakawa") == 2 and s["units"][uid]["general"] == KOBAYAKAWA


def targets(s: State, seat: int) -> list[str]:
    """Enemy units that may still be attacked this action: not immune (內訌's defender,
    論介 after the forced attack) and not already the target of a battle declared this
    action — 「針對每一個目標敵方部隊，玩家只能派出一個己方主力部隊」 (one main unit per
    target; the seed wins over A-26)."""
    side = s["side"][seat]
    barred = set(s["act"].get("immune", [])) | {b["target"] for b in s["act"].get("battles", [])}
    return sorted(
        (u for u, d in s["units"].items() if s["side"][d["owner"]] != side and u not in barred),
        key=lambda u: int(u[1:]),
    )


def via_options(s: State, main: str, target: str) -> list[str | None]:
    """None = attack from where it stands; an area = the free sea move first (only
    for a unit that started the action at sea, against a sea target, R #9)."""
    here = s["units"][main]["area"]
    t_area = s["units"][target]["area"]
    out: list[str | None] = [None] if adjacent(here, t_area) else []
    if (
        data.is_land(t_area)
        or data.is_land(here)
        or main not in s["act"].get("sea_start", [])
        or main in s["act"].get("moved", [])
    ):
        return out
    side = side_of(s, main)
    for x in sorted(data.adjacency()[here]):
        if not data.is_land(x) and adjacent(x, t_area) and can_enter(s, side, x):
            out.append(x)
    return out


def modes(s: State, main: str) -> list[str]:
    g = s["units"][main]["general"]
    if g == "tachibana_ginchiyo" and data.is_land(s["units"][main]["area"]):
        return ["normal", "forced_loss"]
    return ["normal"]


def attack_options(s: State, seat: int) -> list[dict[str, Any]]:
    if peace(s):
        return []
    stock = s["supply"][seat]
    out = []
    mine = sorted(
        (
            u
            for u, d in s["units"].items()
            if d["owner"] == seat and can_fight(s, u) and not gave_up_attack(s, u)
        ),
        key=lambda u: int(u[1:]),
    )
    for t in targets(s, seat):
        for m in mine:
            if s["units"][m]["troops"] * mult(s) > stock:
                continue
            for via in via_options(s, m, t):
                for mode in modes(s, m):
                    out.append({"type": "attack", "target": t, "main": m, "via": via, "mode": mode})
    return out


def discord_options(s: State, seat: int) -> list[dict[str, Any]]:
    """小早川隆景's 內訌: an adjacent area with two enemy units; Japan picks who
    attacks whom (A-42)."""
    if peace(s) or s["act"].get("kobayakawa") != 2:
        return []
    out = []
    for k, d in sorted(s["units"].items(), key=lambda x: int(x[0][1:])):
        if d["owner"] != seat or d["general"] != KOBAYAKAWA or not can_fight(s, k):
            continue
        if d["troops"] * mult(s) > s["supply"][seat]:
            continue
        immune = list(s["act"].get("immune", []))
        if rules_version(s) >= 3:
            # its defender may not be attacked again this round (「本回合不能再遭受攻擊」):
            # so not a unit a battle declared this action already targets
            immune += [b["target"] for b in s["act"].get("battles", [])]
        for area in sorted(data.adjacency()[d["area"]]):
            enemies = [u for u in units_in(s, area) if side_of(s, u) != s["side"][seat]]
            if len(enemies) == 2:
                for a, b in (enemies, enemies[::-1]):
                    if b not in immune:
                        out.append({"type": "discord", "unit": k, "attacker": a, "defender": b})
    return out


def draft_cost(s: State, draft: dict[str, Any]) -> int:
    cost = s["units"][draft["main"]]["troops"]
    if s["units"][draft["main"]]["general"] != "ukita_hideie":  # 宇喜多: supports are free
        cost += sum(s["units"][u]["troops"] for u in draft["supports"])
    return cost * mult(s)


def support_options(s: State, seat: int, draft: dict[str, Any]) -> list[dict[str, Any]]:
    t_area = s["units"][draft["target"]]["area"]
    main_g = s["units"][draft["main"]]["general"]
    if (
        draft["mode"] != "normal"
        or len(draft["supports"]) >= 2
        or (main_g == "seosan" and data.is_land(s["units"][draft["main"]]["area"]))
        or s["units"][draft["target"]]["general"] == "qi_jiguang"
    ):
        return []
    side = s["side"][seat]
    out = []
    for u, d in sorted(s["units"].items(), key=lambda x: int(x[0][1:])):
        if s["side"][d["owner"]] != side or u == draft["main"] or u in draft["supports"]:
            continue
        if not can_fight(s, u) or gave_up_attack(s, u) or not adjacent(d["area"], t_area):
            continue
        if data.is_land(d["area"]) and not data.is_land(t_area):
            continue  # land units support land battles only
        if draft_cost(s, {**draft, "supports": draft["supports"] + [u]}) <= s["supply"][seat]:
            out.append({"type": "support", "unit": u})
    return out


def legal(s: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    seat = prompt["seat"]
    draft = prompt.get("draft")
    if draft is not None:
        out = [{"type": "confirm"}] + support_options(s, seat, draft)
        return out if prompt.get("forced") else out + [{"type": "cancel"}]
    return [{"type": "fight"}] + attack_options(s, seat) + discord_options(s, seat)


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


def _why(s: State, norm: dict[str, Any]) -> str:
    if peace(s) and norm["type"] in ("attack", "discord"):
        return "Peace Talks (和談) forbid attacks now"
    return f"that {norm['type']} is not allowed now (adjacency, moved/used units, typhoon, supports, or cost)"
