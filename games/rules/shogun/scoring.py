"""Winter scoring (reference 10.3 / 15.10): 1 VP per province, 1 VP per building, and in
each region per building type 3/2/1 VP for the sole most castles/temples/theatres, 2/1/0
when tied (at least one building of that type to qualify)."""

from __future__ import annotations

from typing import Any

from . import data
from . import state as shogun_state
from .state import State

_T = data.TABLES["scoring"]


def majorities(state: State) -> list[dict[str, Any]]:
    """Per seat: {"<region>:<type>": vp} for every majority he wins or shares."""
    n = state["n"]
    out: list[dict[str, int]] = [{} for _ in range(n)]
    regions = data.regions(state["opts"]["board"])
    for region in data.REGION_COLOURS:
        for kind in data.BUILDINGS:
            counts = [0] * n
            for name, p in state["provinces"].items():
                if regions[name] == region and p["owner"] is not None and shogun_state.raw_province(p)[kind]:
                    counts[p["owner"]] += 1
            best = max(counts)
            if best < 1:
                continue
            winners = [seat for seat in range(n) if counts[seat] == best]
            sole, tied = _T["majority"][kind]
            vp = sole if len(winners) == 1 else tied
            for seat in winners:
                if vp:
                    out[seat][f"{region}:{kind}"] = vp
    return out


def score(state: State) -> list[dict[str, Any]]:
    maj = majorities(state)
    rows = []
    for seat in range(state["n"]):
        provs = shogun_state.owned(state, seat)
        nb = sum(len(shogun_state.buildings(state["provinces"][p])) for p in provs)
        row = {
            "provinces": len(provs) * _T["per_province"],
            "buildings": nb * _T["per_building"],
            "majorities": maj[seat],
        }
        row["total"] = row["provinces"] + row["buildings"] + sum(maj[seat].values())
        rows.append(row)
    return rows
