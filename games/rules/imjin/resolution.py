"""Battle resolution (§3.5, §5.3): roll, 邢玠's reroll, simultaneous results,
after-battle effects, 福島's second attack, 論介's taunt, advance."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.rules.base import IllegalCommand

from . import combat, commands, data
from . import events as ev
from .context import Ctx
from .generals import damage, heal, info, kill_if_spent, on_map, set_troops, wound
from .movement import relocate
from .state import State, head_prompt, other, reserve, stage, timed_active, troop_cap, units_in

XING = "xing_jie"


# ---------------------------------------------------------------------------
# Choosing the next battle (the attacker orders them; 祖承訓's battle goes after
# any other battle on the same area).


def resolve_legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    open_ = [b for b in state["act"].get("battles", []) if not b["done"]]
    out = []
    for b in open_:
        if (
            combat.gen(state, b["main"]) == "zu_chengxun"
            and b["mode"] != "discord"
            and any(o["area"] == b["area"] and o["n"] != b["n"] for o in open_)
        ):
            continue
        out.append({"type": "resolve", "battle": b["n"]})
    return out or [{"type": "resolve", "battle": open_[0]["n"]}]


def decide_resolve(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    c = {"type": "resolve", "battle": commands.integer(cmd, "battle")}
    if c not in resolve_legal(s, head_prompt(s)):
        raise IllegalCommand("that battle cannot be resolved now")
    prompt = ctx.pop()
    remaining = [b for b in s["act"]["battles"] if not b["done"] and b["n"] != c["battle"]]
    if remaining and not prompt.get("forced"):
        ctx.push({"kind": "resolve", "seat": seat})
    start(ctx, s["act"]["battles"][c["battle"]])


def _mark_done(ctx: Ctx, index: int) -> None:
    if ctx.facts():
        ctx.emit(ev.BATTLE_STARTED, {"battle": index})
        return
    battles = [dict(b) for b in ctx.state["act"]["battles"]]
    battles[index]["done"] = True
    ctx.set_act(battles=battles)


def _valid(state: State, battle: dict[str, Any]) -> bool:
    t, m = battle["target"], battle["main"]
    if t not in state["units"] or m not in state["units"]:
        return False
    return (
        state["units"][t]["area"] == battle["area"]
        and state["side"][state["units"][t]["owner"]] != state["side"][state["units"][m]["owner"]]
        or battle["mode"] == "discord"
    )


def _barred(ctx: Ctx, battle: dict[str, Any]) -> bool:
    """Rules version 3: a battle against a unit that may not be attacked again this
    action (the defender of 內訌, 論介 after the forced attack) is not fought; the
    battle that made it immune is its own exception."""
    if ctx.version < 3 or battle["mode"] == "discord" or battle.get("forced"):
        return False
    return battle["target"] in ctx.state["act"].get("immune", [])


def first_strike(state: State, battle: dict[str, Any]) -> bool:
    g = combat.gen(state, battle["main"])
    if battle["mode"] == "discord":
        return False
    return g == "sanada_yukimura" or (g == "deng_zilong" and combat.where(state, battle["main"]) == "sea")


def start(ctx: Ctx, battle: dict[str, Any]) -> None:
    s = ctx.state
    _mark_done(ctx, battle["n"])
    if not _valid(s, battle) or _barred(ctx, battle):  # cancelled, no refund
        ctx.emit(
            ev.BATTLE_RESOLVED,
            {"battle": battle, "attacker_dice": [], "defender_dice": [], "result": "cancelled"},
        )
        return
    pre = {
        "main": s["units"][battle["main"]]["troops"],
        "target": s["units"][battle["target"]]["troops"],
        "target_general": s["units"][battle["target"]]["general"],
        "target_owner": s["units"][battle["target"]]["owner"],
        "main_general": s["units"][battle["main"]]["general"],
    }
    if ctx.version >= 3:  # who may answer 祖承訓's optional splash, even if his unit fell
        pre["main_owner"] = s["units"][battle["main"]]["owner"]
    a, d = combat.pools(s, battle)
    rng = ctx.factory(f"battle:{len(ctx.state['revealed'])}:{battle['n']}:{battle['mode']}")
    att = combat.roll(rng, a)
    first = first_strike(s, battle)
    rolling = {"battle": battle, "att": att, "def": None, "first": first, "pre": pre}
    if first:
        _apply(ctx, battle, att, [], pre, attacker_only=True)
        if battle["target"] in s["units"]:
            _, d = combat.pools(s, battle)
            rolling["def"] = combat.roll(rng, d)
        else:
            rolling["def"] = []
    else:
        rolling["def"] = combat.roll(rng, d)
    _maybe_reroll(ctx, rolling)


def _maybe_reroll(ctx: Ctx, rolling: dict[str, Any]) -> None:
    s = ctx.state
    b = rolling["battle"]
    who = None
    if b["mode"] not in ("discord",):
        if combat.gen(s, b["main"]) == XING and not rolling["first"] and rolling["att"]:
            who = "att"
        elif combat.gen(s, b["target"]) == XING and rolling["def"]:
            who = "def"
    if who is None:
        _finish(ctx, rolling)
        return
    unit = b["main"] if who == "att" else b["target"]
    ctx.set_act(rolling=rolling)
    ctx.push({"kind": "reroll", "seat": s["units"][unit]["owner"], "which": who})


def reroll_legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    dice = state["act"]["rolling"][prompt["which"]]
    out = []
    for k in range(0, min(3, len(dice)) + 1):
        out += [{"type": "reroll", "dice": list(c)} for c in combinations(range(len(dice)), k)]
    return out


def decide_reroll(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = head_prompt(s)
    dice = commands.int_list(cmd, "dice")
    if {"type": "reroll", "dice": dice} not in reroll_legal(s, prompt):
        raise IllegalCommand("choose up to 3 distinct dice of your side, in increasing order")
    ctx.pop()
    rolling = dict(s["act"]["rolling"])
    faces: list[str] = list(rolling[prompt["which"]])
    rng = ctx.factory("reroll")
    for i in dice:
        faces[i] = combat.FACES[rng.randbelow(6)]
    rolling[prompt["which"]] = faces
    ctx.set_act(rolling=None)
    _finish(ctx, rolling)


def _finish(ctx: Ctx, rolling: dict[str, Any]) -> None:
    if rolling.get("second"):
        _finish_second(ctx, rolling)
        return
    b, pre = rolling["battle"], rolling["pre"]
    s = ctx.state
    if rolling["first"]:
        if b["main"] in s["units"] and b["target"] in s["units"]:
            _apply(ctx, b, [], rolling["def"], pre, defender_only=True)
    else:
        _apply(ctx, b, rolling["att"], rolling["def"], pre)
    _after(ctx, b, rolling, pre)


# ---------------------------------------------------------------------------
# Applying one exchange of dice (simultaneous: both results from the same state).


def _apply(
    ctx: Ctx,
    battle: dict[str, Any],
    att: list[str],
    dfn: list[str],
    pre: dict[str, Any],
    attacker_only: bool = False,
    defender_only: bool = False,
) -> None:
    s = ctx.state
    main, target = battle["main"], battle["target"]
    plain = battle["mode"] == "discord"
    roller_a = None if plain else main
    roller_d = None if plain else target
    rt = combat.read(s, roller_a, target, att, battle["type"], True, plain)
    rd = combat.read(s, roller_d, main, dfn, battle["type"], False, plain)
    if battle["mode"] == "forced_loss" and not defender_only:
        rt["troop"] += 2  # 誾千代 option 2: the target loses 2 outright
    t_now, m_now = s["units"][target]["troops"], s["units"][main]["troops"]
    # heals never exceed the pre-battle strength (小西行長: 不可超過戰鬥前的兵力值); after a
    # first strike the target may heal back losses of the first half
    t_new = min(max(t_now, pre["target"]), t_now - rt["troop"] - rt["extra"] + rd["heal_troop"])
    m_new = min(max(m_now, pre["main"]), m_now - rd["troop"] - rd["extra"] + rt["heal_troop"])
    if (
        not plain
        and combat.gen(s, target) == "gwon_yul"
        and combat.where(s, target) == "land"
        and not attacker_only
        and t_new >= pre["target"]
    ):
        m_new -= 1  # 權慄: no loss caused → the attacking main unit loses 1
    hits_t = rt["general"] + _nurhaci(s, main, plain or defender_only)
    hits_m = rd["general"] + _nurhaci(s, target, plain or attacker_only)
    turn_seat = stage(ctx.state)["turn"]
    a_side = "japan" if plain else s["side"][s["units"][main]["owner"]]
    d_side = "japan" if plain else other(a_side)  # 內訌: every kill counts for Japan
    g_t, g_m = combat.gen(s, target), combat.gen(s, main)
    _steal(ctx, s["units"][target]["owner"], turn_seat, 2 * rt["cart"])
    _steal(ctx, turn_seat, s["units"][target]["owner"], 2 * rd["cart"])
    if ctx.version >= 3:
        _settle_exchange(
            ctx,
            [(g_t, hits_t, rd["heal_hp"], a_side), (g_m, hits_m, rt["heal_hp"], d_side)],
            [(target, t_new), (main, m_new)],
        )
        return
    _settle_in_order(
        ctx,
        [(g_t, hits_t, rd["heal_hp"], a_side), (g_m, hits_m, rt["heal_hp"], d_side)],
        [(target, t_new), (main, m_new)],
    )


def _nurhaci(state: State, unit: str, off: bool) -> int:
    """努爾哈赤 on land: 1 more hit on the opposing general (not in 內訌, nor in the
    half of a first strike his side does not roll)."""
    return int(not off and combat.where(state, unit) == "land" and combat.gen(state, unit) == "nurhaci")


def _settle_in_order(
    ctx: Ctx, generals: list[tuple[str | None, int, int, str]], troops: list[tuple[str, int]]
) -> None:
    """Rules versions 1-2: hits on the target's then the main unit's general, heals
    (main's general first), then troops. `generals`: (general, hits, heal, killer
    side) of the target's side, then of the main unit's; `troops`: (unit, count)."""
    s = ctx.state
    (g_t, hits_t, heal_t, side_t), (g_m, hits_m, heal_m, side_m) = generals
    if g_t:
        damage(ctx, g_t, hits_t, side_t)
    if g_m:
        damage(ctx, g_m, hits_m, side_m)
    if g_m and on_map(s, g_m) and heal_m:
        heal(ctx, g_m, heal_m)
    if g_t and on_map(s, g_t) and heal_t:
        heal(ctx, g_t, heal_t)
    for uid, count in troops:
        if uid in s["units"]:
            set_troops(ctx, uid, count, "battle")


def _settle_exchange(
    ctx: Ctx, generals: list[tuple[str | None, int, int, str]], troops: list[tuple[str, int]]
) -> None:
    """Rules version 3: both results at once (「攻防雙方擲骰結果同時結算」, I-7). Each
    general's hits and heals are netted, then the generals at 0 HP die (and what their
    deaths set off: 論介's penalty, 毛利's cap), then the units take their netted troop
    counts under the caps that hold after the deaths (毛利's 5 ends with him)."""
    s = ctx.state
    for gid, hits, heals, _ in generals:
        if gid:
            wound(ctx, gid, hits - heals)
    for gid, _, _, killer in generals:
        if gid:
            kill_if_spent(ctx, gid, killer)
    for uid, new in troops:
        if uid in s["units"]:
            set_troops(ctx, uid, min(new, troop_cap(s, uid)), "battle")


def _steal(ctx: Ctx, victim: int, thief: int, amount: int) -> None:
    take = min(amount, ctx.state["supply"][victim])
    if take > 0:
        ctx.supply(victim, -take, "raided")
        ctx.supply(thief, take, "raid")


# ---------------------------------------------------------------------------
# After the battle (§5.3 step 10).


def _after(ctx: Ctx, battle: dict[str, Any], rolling: dict[str, Any], pre: dict[str, Any]) -> None:
    s = ctx.state
    main, target = battle["main"], battle["target"]
    t_lost = pre["target"] - (s["units"][target]["troops"] if target in s["units"] else 0)
    ctx.emit(
        ev.BATTLE_RESOLVED,
        {
            "battle": battle,
            "attacker_dice": rolling["att"],
            "defender_dice": rolling["def"],
            "result": {
                "target_lost": t_lost,
                "main_lost": pre["main"] - s["units"].get(main, {"troops": 0})["troops"],
            },
        },
    )
    if battle["mode"] == "discord":
        return
    g = combat.gen(s, main)
    alive = main in s["units"] and g is not None
    if alive:
        _survivor_bonus(ctx, battle, g, pre, t_lost)
    splash = None
    if pre.get("main_general") == "zu_chengxun" and t_lost >= 1:  # splash
        t_side = s["side"][pre["target_owner"]]
        others = [
            u
            for u in units_in(s, battle["area"])
            if u != target and s["side"][s["units"][u]["owner"]] == t_side
        ]
        if others and ctx.version >= 3:  # 「可對…」: his controller may (rules version 3)
            splash = {"kind": "splash", "seat": pre["main_owner"], "unit": others[0]}
        elif others:
            set_troops(ctx, others[0], s["units"][others[0]]["troops"] - 1, "zu_splash")
    if battle.get("forced"):
        _after_taunt_attack(ctx, battle)
    ctx.push({"kind": "auto", "what": "offer_advance", "battle": battle})
    if splash is not None:  # answered first: its outcome may open the advance
        ctx.push(splash)
    if main in s["units"] and combat.gen(s, main) == "nongae":
        ctx.push({"kind": "auto", "what": "offer_taunt", "battle": battle})
    x = rolling.get("symbols_override")
    symbols = (
        combat.read(s, None, main, rolling["att"], battle["type"], True, plain=True)["troop"]
        if x is None
        else x
    )
    if (
        main in s["units"]
        and combat.gen(s, main) == "fukushima_masanori"
        and symbols > 0
        and not s["act"].get("fukushima_used")
        and battle["mode"] == "normal"
    ):
        ctx.push({"kind": "auto", "what": "offer_second", "battle": battle, "x": symbols})


def _survivor_bonus(
    ctx: Ctx, battle: dict[str, Any], general: str | None, pre: dict[str, Any], t_lost: int
) -> None:
    s = ctx.state
    main = battle["main"]
    side = s["side"][s["units"][main]["owner"]]
    troops = s["units"][main]["troops"]
    room = reserve(s, side)
    if general == "kato_kiyomasa":
        add = min(1, pre["main"] - troops, room)
    elif general == "liu_ting":
        add = min(t_lost, troop_cap(s, main) - troops, room)
    elif general == "sanada_yukimura":
        won = battle["target"] not in s["units"] or (
            pre["target_general"] is not None and s["generals"][pre["target_general"]]["where"] == "dead"
        )
        add = min(1, troop_cap(s, main) - troops, room) if won else 0
    else:
        add = 0
    if add > 0:
        ctx.troops(main, troops + add, f"{general}_bonus")
    if general == "ma_gui" and combat.where(s, main) == "land":
        ctx.supply(pre["target_owner"], -7, "ma_gui")


def _after_taunt_attack(ctx: Ctx, battle: dict[str, Any]) -> None:
    s = ctx.state
    immune = s["act"].get("immune", []) + [battle["target"]]
    moved = s["act"].get("moved", []) + [battle["main"]]
    ctx.set_act(immune=immune, moved=moved)


def offer_second(ctx: Ctx, item: dict[str, Any]) -> None:
    s = ctx.state
    b = item["battle"]
    if b["main"] not in s["units"] or combat.gen(s, b["main"]) != "fukushima_masanori":
        return
    if _second_target(s, b) is None:
        return
    ctx.push({"kind": "second_attack", "seat": s["units"][b["main"]]["owner"], "battle": b, "x": item["x"]})


def _second_target(state: State, battle: dict[str, Any]) -> str | None:
    """The same target if it survived, else another enemy unit in the area (R #7); a
    unit that may not be attacked again this action (論介 after the forced attack,
    the defender of 內訌) is never the target of the second attack."""
    immune = state["act"].get("immune", [])
    if battle["target"] in state["units"]:
        return None if battle["target"] in immune else battle["target"]
    side = state["side"][state["units"][battle["main"]]["owner"]]
    enemies = [
        u
        for u in units_in(state, battle["area"])
        if state["side"][state["units"][u]["owner"]] != side and u not in immune
    ]
    return enemies[0] if enemies else None


def decide_second(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """福島正則: x dice, no modifiers or supports, free; the defender counter-rolls
    with its own pool; it cannot chain (Appendix R #7)."""
    s = ctx.state
    go = commands.boolean(cmd, "go")
    prompt = ctx.pop()
    if not go:
        return
    b = dict(prompt["battle"])
    b["target"] = _second_target(s, b)
    b["mode"] = "second"
    b["supports"] = []
    if ctx.facts():
        ctx.emit(ev.SECOND_ATTACK_DECLARED, {"unit": b["main"], "target": b["target"], "dice": prompt["x"]})
    else:
        ctx.set_act(fukushima_used=True)
    pre = {
        "main": s["units"][b["main"]]["troops"],
        "target": s["units"][b["target"]]["troops"],
        "target_general": combat.gen(s, b["target"]),
    }
    _, d = combat.pools(s, b)
    rng = ctx.factory("second-attack")
    att, dfn = combat.roll(rng, prompt["x"]), combat.roll(rng, d)
    _maybe_reroll(ctx, {"battle": b, "att": att, "def": dfn, "first": False, "pre": pre, "second": True})


def _finish_second(ctx: Ctx, rolling: dict[str, Any]) -> None:
    s = ctx.state
    b, pre = rolling["battle"], rolling["pre"]
    _apply(ctx, b, rolling["att"], rolling["def"], pre)
    t_lost = pre["target"] - (s["units"][b["target"]]["troops"] if b["target"] in s["units"] else 0)
    ctx.emit(
        ev.BATTLE_RESOLVED,
        {
            "battle": b,
            "attacker_dice": rolling["att"],
            "defender_dice": rolling["def"],
            "result": {"target_lost": t_lost},
        },
    )


def decide_splash(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """祖承訓「可對同一區域另一對方部隊造成1點兵力傷害」: the other enemy unit of the
    target area loses 1 troop if his controller wants it."""
    go = commands.boolean(cmd, "go")
    prompt = ctx.pop()
    uid = prompt["unit"]
    if go and uid in ctx.state["units"]:
        set_troops(ctx, uid, ctx.state["units"][uid]["troops"] - 1, "zu_splash")


def offer_taunt(ctx: Ctx, item: dict[str, Any]) -> None:
    s = ctx.state
    b = item["battle"]
    t = b["target"]
    if b["main"] not in s["units"] or combat.gen(s, b["main"]) != "nongae" or t not in s["units"]:
        return
    g = s["units"][t]["general"]
    if g is None or info(g)["gender"] != "M":
        return
    ctx.push({"kind": "taunt", "seat": s["units"][b["main"]]["owner"], "unit": t, "general": g})


def decide_taunt(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    go = commands.boolean(cmd, "go")
    prompt = ctx.pop()
    if go:
        ctx.emit(ev.TAUNT_CHANGED, {"taunt": {"unit": prompt["unit"], "general": prompt["general"]}})


def offer_advance(ctx: Ctx, item: dict[str, Any]) -> None:
    s = ctx.state
    b = item["battle"]
    main = b["main"]
    if b["mode"] == "discord" or main not in s["units"]:
        return
    side = s["side"][s["units"][main]["owner"]]
    if any(s["side"][s["units"][u]["owner"]] != side for u in units_in(s, b["area"])):
        return
    if (
        len(units_in(s, b["area"])) >= data.rules()["limits"]["units_per_area"]
        or s["units"][main]["area"] == b["area"]
    ):
        return
    if timed_active(s, "typhoon") and not data.is_land(b["area"]):
        return  # no advancing into the sea under 颱風
    ctx.push({"kind": "advance", "seat": s["units"][main]["owner"], "unit": main, "area": b["area"]})


def decide_advance(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    go = commands.boolean(cmd, "go")
    prompt = ctx.pop()
    if go:
        relocate(ctx, prompt["unit"], prompt["area"], "advanced")


def yes_no(kind: str) -> list[dict[str, Any]]:
    return [{"type": kind, "go": True}, {"type": kind, "go": False}]
