"""Shogun's catalogue (with Tenno's Court): provinces with their printed values and
regions on both board sides, player colours, pieces, action/event/special/favour/
samurai cards, commands and prompts in one language, built from data/ (map.yaml,
cards.yaml, setup.yaml, catalogue.yaml, i18n/<language>.yaml). Pure."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .. import cataloguing
from ..i18n import Texts
from . import data

DATA = Path(__file__).parent / "data"
I18N = DATA / "i18n"
_EVENT_PARAMS = ("green", "value", "recruit5", "recruit3")


@cache
def extra() -> dict[str, Any]:
    with open(DATA / "catalogue.yaml", encoding="utf-8") as f:
        loaded: dict[str, Any] = yaml.safe_load(f)
    return loaded


def texts(lang: str) -> Texts:
    return Texts(I18N, lang)


def _provinces(texts: Texts) -> list[dict[str, Any]]:
    geo = cataloguing.geometry(DATA)
    out = []
    for name in data.NAMES:
        p = data.PROVINCES[name]
        land = sorted(
            {b for a, b, sea in data.EDGES if a == name and not sea}
            | {a for a, b, sea in data.EDGES if b == name and not sea}
        )
        sea = sorted(
            {b for a, b, s in data.EDGES if a == name and s}
            | {a for a, b, s in data.EDGES if b == name and s}
        )
        entry = {
            "id": name,
            "name": texts(f"province.{name}"),
            "kind": "land",
            "region": p["sun"],
            "region_name": texts(f"region.{p['sun']}"),
            "region_moon": p["moon"],
            "adjacent": list(data.ADJ[name]),
            "land_borders": land,
            "sea_routes": sea,
            "values": {"tax": p["tax"], "rice": p["rice"], "building_sites": p["sites"]},
            "in_3_player_game": not p["out_3p"],
        }
        out.append(cataloguing.with_geometry(entry, geo))
    return out


def _action_cards(texts: Texts) -> list[dict[str, Any]]:
    return [
        {
            "id": a,
            "kind": "action",
            "name": texts(f"action.{a}"),
            "text": texts(f"action.{a}.text", cost=spec["cost"], armies=spec.get("armies", 1)),
            "order": i + 1,
            "cost": spec["cost"],
            "effect": dict(spec),
            "placeholder": False,
        }
        for i, (a, spec) in enumerate(data.ACTIONS.items())
    ]


def _events(texts: Texts) -> list[dict[str, Any]]:
    out = []
    for e in data.EVENT_IDS:
        spec = data.EVENTS[e]
        params = {k: spec[k] for k in _EVENT_PARAMS if k in spec}
        text = texts(
            "event.text",
            effect=texts(f"event.{spec['effect']}", **params),
            rice_loss=texts("event.rice_loss", rice_loss=spec["rice_loss"]),
        )
        out.append(
            {
                "id": e,
                "kind": "event",
                "name": texts("event.E", n=int(e[1:])),
                "text": text,
                "effect": dict(spec),
                "placeholder": False,
            }
        )
    return out


def _favours(texts: Texts) -> list[dict[str, Any]]:
    out = []
    for n in data.FAVOUR_IDS:
        spec = data.FAVOURS[n]
        params: dict[str, Any] = {}
        if "amount" in spec:
            params["amount"] = spec["amount"]
        if "building" in spec:
            params["building"] = texts(f"figure.{spec['building']}")
        if "letters" in spec:
            params["letters"] = " + ".join(spec["letters"])
        out.append(
            {
                "id": str(n),
                "kind": "favour",
                "name": texts("favour.name", n=n),
                "text": texts(f"favour.{spec['type']}", **params),
                "effect": dict(spec),
                "optional": bool(spec.get("optional", False)),
                "placeholder": bool(spec.get("placeholder", False)),
            }
        )
    return out


def build(lang: str) -> dict[str, Any]:
    t = texts(lang)
    colours = extra()["colours"]
    factions = [
        {
            "id": c,
            "name": t(f"colour.{c}"),
            "colour": colours[c]["colour"],
            "letter": colours[c]["letter"],
            "seat_order": i,
            "ability": None,
        }
        for i, c in enumerate(data.COLOURS)
    ] + [
        {
            "id": "green",
            "name": t("colour.green"),
            "colour": colours["green"]["colour"],
            "letter": colours["green"]["letter"],
            "seat_order": None,
            "ability": None,
        }
    ]
    supply = {
        "army": data.ARMIES,
        "official": data.OFFICIALS,
        **{b: data.SETUP["building_tiles"][b] for b in data.BUILDINGS},
    }
    figures = [
        {"id": f, "name": t(f"figure.{f}"), "strength": spec["strength"], "count": supply.get(f)}
        for f, spec in extra()["figures"].items()
    ]
    specials = [
        {
            "id": s,
            "kind": "special",
            "name": t(f"special.{s}"),
            "text": t(f"special.{s}.text"),
            "effect": dict(spec),
            "placeholder": False,
        }
        for s, spec in data.SPECIALS.items()
    ]
    samurai = [
        {
            "id": str(i + 1),
            "kind": "samurai",
            "name": t("samurai.name", n=i + 1),
            "text": t("samurai.bonuses", **{k: card.get(k, 0) for k in ("chests", "rice", "tray", "vp")})
            if card
            else t("samurai.none"),
            "bonuses": dict(card),
            "placeholder": False,
        }
        for i, card in enumerate(data.SAMURAI)
    ]
    chests = [
        {
            "id": f"chest{v}",
            "kind": "war_chest",
            "name": t("chest.name", value=v),
            "text": t("chest.text", value=v),
            "value": v,
        }
        for v in data.CHESTS
    ]
    towers = [
        {"id": c, "kind": "tower", "name": t("tower.name", n=c[5:]), "text": t("tower.text")}
        for c in data.tower_cards()
    ]
    return {
        "ruleset": "shogun",
        "language": t.lang,
        "map": {
            "view_box": cataloguing.view_box(DATA),
            "provinces": _provinces(t),
            "regions": [{"id": r, "name": t(f"region.{r}")} for r in data.REGION_COLOURS],
            "sea_routes": [
                {"between": [a, b], "kind": "sea", "name": t("route.sea")} for a, b, sea in data.EDGES if sea
            ],
            "land_borders": [
                {"between": [a, b], "kind": "land", "name": t("route.land")}
                for a, b, sea in data.EDGES
                if not sea
            ],
        },
        "factions": factions,
        "figures": figures,
        "cards": _action_cards(t) + _events(t) + specials + _favours(t) + samurai + chests + towers,
        "court": {"favour_costs": list(data.FAVOUR_COSTS), "spaces": list(data.COURT_SPACES)},
        "famine": [{"shortfall": a, "revolts": b, "extra_peasants": c} for a, b, c in data.TABLES["famine"]],
        "scoring": data.TABLES["scoring"],
        "commands": cataloguing.commands(t, DATA, extra()["fields"]),
        "choices": cataloguing.choices(t),
        "prompts": cataloguing.prompts(t, extra()["prompts"]),
    }
