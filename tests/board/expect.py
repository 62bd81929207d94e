"""What a picture must show, derived from a view independently of the renderer:
(kind, seat, province) -> count for the chips on the map."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.rules.imjin import data as imjin_data
from games.rules.rising_sun.data import BOARD as RS_BOARD
from games.rules.shogun import data as shogun_data


def rising_sun(view: dict[str, Any]) -> Counter:
    out: Counter = Counter()
    for f in view["figures"].values():
        if f["at"] in RS_BOARD["provinces"]:
            out[(f["type"], f["owner"], f["at"])] += 1
    for q, p in enumerate(view["players"]):
        for prov in p["strongholds"]:
            out[("stronghold", q, prov)] += 1
    for prov in view["war_provinces"]:
        out[("war", None, prov)] += 1
    if view.get("battle"):
        out[("battle", None, view["battle"]["province"])] += 1
    return out


def imjin(view: dict[str, Any]) -> Counter:
    out: Counter = Counter()
    for u in view["units"].values():
        if u["area"] in imjin_data.areas():
            out[("unit", u["owner"], u["area"])] += u["troops"]
    for area, side in view["control"].items():
        if side is not None:
            out[("control", None, area)] += 1
    return out


def shogun(view: dict[str, Any]) -> Counter:
    out: Counter = Counter()
    for pid, p in view["provinces"].items():
        if p["owner"] is not None:
            out[("army", p["owner"], pid)] += p["armies"]
        for key in ("castle", "temple", "theatre"):
            if p[key]:
                out[(key, p["owner"], pid)] += 1
        if p["markers"]:
            out[("marker", None, pid)] += p["markers"]
    battle = view.get("last_battle")
    if battle and battle.get("province") in shogun_data.PROVINCES:
        out[("battle", None, battle["province"])] += 1
    return out


def province_ids(ruleset: str) -> set[str]:
    """The engine's own province ids (the catalogue's)."""
    if ruleset == "rising-sun":
        return set(RS_BOARD["provinces"])
    if ruleset == "imjin":
        return set(imjin_data.areas())
    return set(shogun_data.PROVINCES)


EXPECT = {"rising-sun": rising_sun, "imjin": imjin, "shogun": shogun}
