"""What must hold in every state between commands (component limits and the
bookkeeping between units and generals). `problems` lists the broken ones; the
random-game tests assert it is empty after every command."""

from __future__ import annotations

from collections import Counter

from . import data
from .state import SIDES, State, hp_left, reserve, troop_cap


def problems(state: State) -> list[str]:
    if state.get("stage") != "play":
        return []
    return [*_units(state), *_generals(state), *_stocks(state)]


def _units(state: State) -> list[str]:
    out = []
    per_area: Counter[str] = Counter()
    sides: dict[str, set[str]] = {}
    for uid, u in state["units"].items():
        per_area[u["area"]] += 1
        sides.setdefault(u["area"], set()).add(state["side"][u["owner"]])
        # 毛利秀元「此武將所屬的部隊兵力上限為五」 only while he leads the unit
        if not 1 <= u["troops"] <= troop_cap(state, uid):
            out.append(
                f"{uid} has {u['troops']} troops (cap {troop_cap(state, uid)}, general {u['general']})"
            )
        g = u["general"]
        rec = state["generals"].get(g) if g is not None else None
        if g is not None and (rec is None or rec["where"] != "map" or rec["unit"] != uid):
            out.append(f"{uid} names general {g}, whose record is {state['generals'].get(g)}")
    limit = data.rules()["limits"]["units_per_area"]
    out += [f"{a} holds {k} units" for a, k in per_area.items() if k > limit]
    out += [f"{a} holds units of both sides" for a, v in sides.items() if len(v) > 1]
    out += [f"{side} has more troops on the map than discs" for side in SIDES if reserve(state, side) < 0]
    return out


def _generals(state: State) -> list[str]:
    out = []
    for g, rec in state["generals"].items():
        if rec["where"] != "map":
            continue
        uid = rec["unit"]
        if uid not in state["units"] or state["units"][uid]["general"] != g:
            out.append(f"{g} is on the map with unit {uid}, which does not carry it")
        if hp_left(state, g) <= 0:
            out.append(f"{g} is on the map with {hp_left(state, g)} HP")
    return out


def _stocks(state: State) -> list[str]:
    top = data.rules()["supply"]["max"]
    return [f"seat {x} has {v} supply" for x, v in enumerate(state["supply"]) if not 0 <= v <= top]
