"""Setup (§3.1, §10): factions, table, legendary choice, secret hands, opening placements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import BadCommand, Event, IllegalCommand, RngFactory, commit

from . import commands, data
from . import events as ev
from .context import Ctx
from .generals import deploy, info
from .state import LEGACY_VERSION, RULES_VERSION, State, head_prompt, prompts

FACTIONS_2P = ["japan", "allies"]
FACTIONS_4P = ["kato", "joseon", "konishi", "ming"]
LEGENDARY = ["sanada_yukimura", "nurhaci", "qi_jiguang", "zheng_zhilong"]


def factions(players: int, options: Mapping[str, Any]) -> list[str]:
    if players == 2:
        return list(FACTIONS_2P)
    if players == 4:
        return list(FACTIONS_4P)
    raise BadCommand("Imjin is played by 2 or 4 players")


def side_of_faction(faction: str) -> str:
    return faction if faction in ("japan", "allies") else data.rules()["armies"][faction]


def assign(given: Sequence[str | None], rng: RngFactory) -> list[str]:
    pool = factions(len(given), {})
    chosen = [f for f in given if f is not None]
    if any(f not in pool for f in chosen) or len(set(chosen)) != len(chosen):
        raise BadCommand(f"factions must be distinct values among {pool}")
    rest = rng("factions").shuffled([f for f in pool if f not in chosen])
    return [f if f is not None else rest.pop() for f in given]


def options_with_defaults(options: Mapping[str, Any]) -> dict[str, Any]:
    allowed = options.get("legendary_generals", LEGENDARY)
    if not isinstance(allowed, list) or any(g not in LEGENDARY for g in allowed):
        raise BadCommand(f"legendary_generals must be a list drawn from {LEGENDARY}")
    extra = set(options) - {"legendary_generals"}
    if extra:
        raise BadCommand(f"unknown options {sorted(extra)}")
    return {"legendary_generals": sorted(set(allowed))}


def build_units(fs: list[str]) -> tuple[dict[str, Any], int]:
    seat_of = {f: i for i, f in enumerate(fs)}
    units, n = {}, 1
    for side in ("japan", "allies"):
        for area, spec in data.deployment()[side].items():
            owner = seat_of[side] if len(fs) == 2 else seat_of[spec["army"]]
            for troops in spec["units"]:
                units[f"u{n}"] = {"owner": owner, "area": area, "troops": troops, "general": None}
                n += 1
    return units, n


def table(fs: list[str], options: dict[str, Any], version: int = RULES_VERSION) -> dict[str, Any]:
    r = data.rules()
    n = len(fs)
    sides = [side_of_faction(f) for f in fs]
    order = [fs.index("japan"), fs.index("allies")] if n == 2 else [fs.index(a) for a in r["play_order_4p"]]
    units, next_uid = build_units(fs)
    stock = r["supply"]["start_2p"] if n == 2 else r["supply"]["start_4p"]
    pool = sorted(e for e in data.events() if e != "reset")
    versioned = {} if version <= LEGACY_VERSION else {"rules_version": version}
    return {
        **versioned,
        "stage": "play",
        "n": n,
        "faction": fs,
        "side": sides,
        "order": order,
        "options": options,
        "supply": [stock] * n,
        "wheel": {"japan": 0, "allies": 0},
        "control": {a: d["start"] for a, d in data.areas().items() if d["type"] == "land"},
        "units": units,
        "next_uid": next_uid,
        "generals": {},
        "hands": [[] for _ in fs],
        "secrets": [{} for _ in fs],
        "picks": [[] for _ in fs],
        "legendary": {"japan": None, "allies": None},
        "killed": {"japan": [], "allies": []},
        "deck": {
            "size": r["deck"]["size_2p" if n == 2 else "size_4p"],
            "drawn": 0,
            "pool": pool,
            "reset_in": True,
        },
        "resets": 0,
        "timed": [],
        "last_card": None,
        "revealed": [],
        "taunt": None,
        "last_battle": None,
        "ending": False,
        "result": None,
        "flow": {"stage": "setup", "turn": order[0]},
        "queue": [],
        "act": {},
    }


def start(
    given: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory, version: int = RULES_VERSION
) -> list[Event]:
    factions(len(given), options)
    opts = options_with_defaults(options)
    fs = assign(given, rng)
    ctx = Ctx({}, rng)
    ctx.emit(ev.GAME_SET_UP, {"table": table(fs, opts, version)})
    s = ctx.state
    if opts["legendary_generals"]:
        # Japan's seats choose first (seed: 日本方勢力先行選擇), each in play order
        order = sorted(s["order"], key=lambda seat: (s["side"][seat] != "japan", s["order"].index(seat)))
        ctx.queue_all([{"kind": "choose_legendary", "seat": seat} for seat in order])
    else:
        begin_picks(ctx)
    return ctx.events


# ---------------------------------------------------------------------------
# Legendary generals: Japan (Kato first at 4p) chooses first; one per side, extra
# to the hand (Appendix R #2); its taker starts with 10 supply less.


def legendary_options(state: State, seat: int) -> list[str | None]:
    side = state["side"][seat]
    if state["legendary"][side] is not None:
        return [None]
    taken = set(g for g in state["legendary"].values() if g)
    ok = [
        g
        for g in state["options"]["legendary_generals"]
        if g not in taken and info(g)["side"] in ("any", side)
    ]
    return [None, *ok]


def decide_legendary(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    gid = commands.general(cmd, optional=True)
    if gid not in legendary_options(ctx.state, seat):
        raise IllegalCommand("that legendary general is not available to you")
    ctx.pop()
    penalty = data.rules()["supply"]["legendary_penalty"]
    ctx.emit(ev.LEGENDARY_CHOSEN, {"seat": seat, "general": gid, "penalty": penalty})
    if not prompts(ctx.state):
        begin_picks(ctx)


# ---------------------------------------------------------------------------
# Secret hands: picked one card at a time (private), then each card sealed by a
# commitment that is revealed when the card is played.


def hand_size(state: State) -> int:
    return int(data.rules()["hand"]["size_2p" if state["n"] == 2 else "size_4p"])


def pool_for(state: State, seat: int) -> list[str]:
    f = state["faction"][seat]
    if state["n"] == 2:
        nations = {"japan"} if f == "japan" else {"ming", "joseon"}
        return sorted(g for g, d in data.generals().items() if d["nation"] in nations)
    return sorted(g for g, d in data.generals().items() if d["nation"] != "legend" and d["army_4p"] == f)


def begin_picks(ctx: Ctx) -> None:
    s = ctx.state
    if s["n"] == 4:  # the army leader is mandatory: known to all, picked for you
        for seat in s["order"]:
            leader = next(g for g in pool_for(s, seat) if info(g)["leader"])
            ctx.emit(ev.GENERAL_PICKED, {"seat": seat, "general": leader})
    ctx.queue_all([{"kind": "pick_generals", "seats": list(s["order"])}])


def pick_options(state: State, seat: int) -> list[str]:
    picks = state["picks"][seat]
    fours = sum(1 for g in picks if info(g)["hp"] == 4)
    cap = data.rules()["hand"]["max_four_hp"]
    return [g for g in pool_for(state, seat) if g not in picks and (info(g)["hp"] < 4 or fours < cap)]


def decide_pick(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    gid = commands.general(cmd)
    if gid not in pick_options(s, seat):
        raise IllegalCommand("you cannot pick that general")
    picked: dict[str, Any] = {"seat": seat, "general": gid}
    if ctx.version >= 3:  # a private payload carries a salt, or its hash gives it away
        picked["salt"] = ctx.salt(f"pick:{seat}:{len(s['picks'][seat])}")
    ctx.emit(ev.GENERAL_PICKED, picked, visible_to=(seat,))
    if len(s["picks"][seat]) < hand_size(s):
        return
    for i, g in enumerate(s["picks"][seat]):
        if s["n"] == 4 and info(g)["leader"]:
            ctx.emit(ev.HAND_CARD_SEALED, {"seat": seat, "key": f"leader:{seat}", "choice": g, "salt": None})
            continue
        for e in commit(ctx.factory, seat, f"hand:{seat}:{i}", g, ev.HAND_CARD_SEALED, {"seat": seat}):
            ctx.add(e)
    head = dict(head_prompt(s))
    head["seats"] = [x for x in head["seats"] if x != seat]
    if head["seats"]:
        ctx.set_head(head)
    else:
        ctx.pop()
        begin_placements(ctx)


# ---------------------------------------------------------------------------
# Opening placements: 2p J, A, J, A (free, not setup-banned); 4p each leader.


def begin_placements(ctx: Ctx) -> None:
    s = ctx.state
    order = s["order"] * 2 if s["n"] == 2 else list(s["order"])
    ctx.queue_all([{"kind": "place_general", "seat": seat} for seat in order])


def place_options(state: State, seat: int) -> list[tuple[str, str]]:
    hand = sorted(state["hands"][seat])
    if state["n"] == 4:
        hand = [g for g in hand if info(g)["leader"]]
    gens = [g for g in hand if not info(g)["setup_banned"]]
    units = [
        u
        for u, d in sorted(state["units"].items(), key=lambda seat: int(seat[0][1:]))
        if d["owner"] == seat and d["general"] is None
    ]
    return [(g, u) for g in gens for u in units]


def decide_place(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    gid, uid = commands.general(cmd), commands.unit(cmd)
    if gid is None or uid is None or (gid, uid) not in place_options(ctx.state, seat):
        raise IllegalCommand("that general cannot be placed on that unit")
    ctx.pop()
    deploy(ctx, seat, gid, uid, 0, "setup")
    if not prompts(ctx.state):
        ctx.begin_turn(ctx.state["order"][0], first=True)
