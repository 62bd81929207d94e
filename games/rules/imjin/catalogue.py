"""The Imjin War's catalogue: land and sea areas with their printed values and
adjacency by kind, sides and armies, pieces, generals, events, the turn wheel,
commands and prompts in one language, built from data/ (map.yaml, generals.yaml,
events.yaml, rules.yaml, catalogue.yaml, i18n/<language>.yaml). Pure."""

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


@cache
def extra() -> dict[str, Any]:
    with open(DATA / "catalogue.yaml", encoding="utf-8") as f:
        loaded: dict[str, Any] = yaml.safe_load(f)
    return loaded


@cache
def _edges() -> dict[str, list[list[str]]]:
    with open(DATA / "map.yaml", encoding="utf-8") as f:
        adjacency: dict[str, list[list[str]]] = yaml.safe_load(f)["map"]["adjacency"]
    return {k: v for k, v in adjacency.items() if k != "must_not_be_adjacent"}


def texts(lang: str) -> Texts:
    return Texts(I18N, lang)


def region_of(area: str) -> str:
    return str(extra()["regions"].get(area.split("_")[0], "sea"))


def _areas(texts: Texts) -> list[dict[str, Any]]:
    geo = cataloguing.geometry(DATA)
    adj = data.adjacency()
    by_kind: dict[str, dict[str, list[str]]] = {}
    for kind, edges in _edges().items():
        for a, b in edges:
            by_kind.setdefault(a, {}).setdefault(kind, []).append(b)
            by_kind.setdefault(b, {}).setdefault(kind, []).append(a)
    out = []
    for area, d in data.areas().items():
        region = region_of(area)
        entry = {
            "id": area,
            "name": texts(f"area.{area}"),
            "kind": d["type"],
            "region": region,
            "region_name": texts(f"region.{region}"),
            "adjacent": sorted(adj[area]),
            "adjacent_by_kind": {k: sorted(v) for k, v in sorted(by_kind.get(area, {}).items())},
            "values": {"supply": d["supply"], "recruit_cap": d["recruit_cap"]},
            "home_of": {"japan_home": "japan", "allied_home": "allies"}.get(d.get("special") or ""),
            "starts_with": d.get("start"),
            "sources": dict(d.get("tags") or {}),
        }
        out.append(cataloguing.with_geometry(entry, geo))
    return out


def native_language(general: str, nation: str) -> str:
    return str(extra()["native_language_legend"].get(general) or extra()["native_language"][nation])


def _generals(translate: Texts) -> list[dict[str, Any]]:
    return [
        {
            "id": g,
            "kind": "general",
            "name": translate(f"general.{g}"),
            "name_native": texts(native_language(g, d["nation"]))(f"general.{g}"),
            "native_language": native_language(g, d["nation"]),
            "title": translate(f"general.{g}.title"),
            "text": translate(f"general.{g}.text"),
            "side": d["side"],
            "nation": d["nation"],
            "nation_name": translate(f"nation.{d['nation']}"),
            "army_4p": d["army_4p"],
            "hp": d["hp"],
            "gender": d["gender"],
            "setup_banned": d["setup_banned"],
            "leader": d["leader"],
            "legendary": d["nation"] == "legend",
            "placeholder": False,
        }
        for g, d in data.generals().items()
    ]


def _events(texts: Texts) -> list[dict[str, Any]]:
    return [
        {
            "id": e,
            "kind": "event",
            "number": d["n"],
            "name": texts(f"event.{e}"),
            "text": texts(f"event.{e}.text"),
            "scope": d["scope"],
            "scope_name": texts(f"scope.{d['scope']}"),
            "timed": d["timed"],
            "placeholder": False,
        }
        for e, d in data.events().items()
    ]


def build(lang: str) -> dict[str, Any]:
    t = texts(lang)
    rules = data.rules()
    factions = [
        {
            "id": f,
            "name": t(f"faction.{f}"),
            "colour": spec["colour"],
            "letter": spec["letter"],
            "side": spec["side"],
            "players": 2 if f in ("japan", "allies") else 4,
            "ability": None,
        }
        for f, spec in extra()["factions"].items()
    ]
    figures = [
        {"id": f, "name": t(f"figure.{f}"), "strength": spec["strength"]}
        for f, spec in extra()["figures"].items()
    ]
    return {
        "ruleset": "imjin",
        "language": t.lang,
        "map": {
            "view_box": cataloguing.view_box(DATA),
            "provinces": _areas(t),
            "regions": [
                {"id": r, "name": t(f"region.{r}")}
                for r in [*dict.fromkeys(extra()["regions"].values()), "sea"]
            ],
            "routes": [
                {"between": sorted(pair), "kind": kind, "name": t(f"route.{kind}")}
                for kind, edges in _edges().items()
                for pair in edges
            ],
            "sea_routes": [
                {"between": sorted(pair), "kind": kind, "name": t(f"route.{kind}")}
                for kind, edges in _edges().items()
                if kind != "land_land"
                for pair in edges
            ],
        },
        "factions": factions,
        "figures": figures,
        "cards": _generals(t) + _events(t),
        "wheel": [
            {"space": i, "action": a, "name": t(f"wheel.{a}")} for i, a in enumerate(rules["wheel"]["spaces"])
        ],
        "die": [{"face": f, "name": t(f"die.{f}")} for f in extra()["die"]],
        "limits": dict(rules["limits"]),
        "costs": dict(rules["costs"]),
        "commands": cataloguing.commands(t, DATA, extra()["fields"]),
        "choices": cataloguing.choices(t),
        "prompts": cataloguing.prompts(t, extra()["prompts"]),
    }
