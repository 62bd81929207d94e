"""What must hold in every state between commands (component limits and the
bookkeeping between units and generals). `problems` lists the broken ones; the
random-game tests assert it is empty after every command."""

from __future__ import annotations

from collections import Counter

from . import data
from .state import SIDES, State, hp_left, reserve, troop_cap


def problems(s: State) -> list[str]:
    if s.get("stage") != "play":
        return []
    return [*_units(s), *_generals(s), *_stocks(s)]


def _units(s: State) -> list[str]:
    out = []
    per_area: Counter[str] = Counter()
    sides: dict[str, set[str]] = {}
    for uid, u in s["units"].items():
        per_area[u["area"]] += 1
        sides.setdefault(u["area"], set()).add(s["side"][u["owner"]])
        # 毛利秀元「此武將所屬的部隊兵力上限為五」 only while he leads the unit
        if not 1 <= u["troops"] <= troop_cap(s, uid):
            out.append(f"{uid} has {u['troops']} troops (cap {troop_cap(s, uid)}, general {u['general']})")
        g = u["general"]
        rec = s["generals"].get(g) if g is not None else None
        if g is not None and (rec is None or rec["where"] != "map" or rec["unit"] != uid):
            out.append(f"{uid} names general {g}, whose record is {s['generals'].get(g)}")
    limit = data.rules()["limits"]["units_per_area"]
    out += [f"{a} holds {k} units" for a, k in per_area.items() if k > limit]
    out += [f"{a} holds units of both sides" for a, v in sides.items() if len(v) > 1]
    out += [f"{side} has more troops on the map than discs" for side in SIDES if reserve(s, side) < 0]
    return out


def _generals(s: State) -> list[str]:
    out = []
    for g, rec in s["generals"].items():
        if rec["where"] != "map":
            continue
        uid = rec["unit"]
        if uid not in s["units"] or s["units"][uid]["general"] != g:
            out.append(f"{g} is on the map with unit {uid}, which does not carry it")
        if hp_left(s, g) <= 0:
            out.append(f"{g} is on the map with {hp_left(s, g)} HP")
    return out


def _stocks(s: State) -> list[str]:
    top = data.rules()["supply"]["max"]
    return [f"seat {x} has {v} supply" for x, v in enumerate(s["supply"]) if not 0 <= v <= top]
