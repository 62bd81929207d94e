"""Rising Sun's catalogue: the board, clans, figures, cards, Kami, Mandates,
commands and prompts in one language, built from data/ (board.json, cards.json,
catalogue.yaml, i18n/<language>.yaml). Pure."""

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


def texts(lang: str) -> Texts:
    return Texts(I18N, lang)


def build(lang: str) -> dict[str, Any]:
    t = texts(lang)
    geo = cataloguing.geometry(DATA)
    board = data.BOARD
    homes = {c["home"]: clan for clan, c in data.CLANS.items()}
    provinces = [
        cataloguing.with_geometry(
            {
                "id": p,
                "name": t(f"province.{p}"),
                "kind": "land",
                "region": None,
                "adjacent": sorted(data.LAND[p] | data.SEA[p]),
                "land_borders": sorted(data.LAND[p]),
                "sea_routes": sorted(data.SEA[p]),
                "values": {"reward": dict(board["provinces"][p]["reward"])},
                "home_of": homes.get(p),
            },
            geo,
        )
        for p in data.PROVINCES
    ]
    shrines = [
        cataloguing.with_geometry(
            {"id": f"shrine:{k}", "kami": k, "name": t(f"kami.{k}"), "kind": "shrine"}, geo
        )
        for k in data.SHRINES
    ]
    borders = [
        {"between": sorted(pair), "kind": "land_border", "name": t("route.land_border")}
        for pair in board["land_borders"]
    ]
    sea_routes = [
        {"between": sorted(pair), "kind": "shipping_route", "name": t("route.shipping_route")}
        for pair in board["shipping_routes"]
    ]
    clans = [
        {
            "id": c,
            "name": t(f"clan.{c}"),
            "colour": extra()["clans"][c]["colour"],
            "letter": extra()["clans"][c]["letter"],
            "honor_rank": info["rank"],
            "home": info["home"],
            "income": info["income"],
            "ability": {"name": t(f"clan.{c}.ability_name"), "text": t(f"clan.{c}.ability")},
        }
        for c, info in sorted(data.CLANS.items(), key=lambda kv: kv[1]["rank"])
    ]
    figures = [
        {
            "id": f,
            "name": t(f"figure.{f}"),
            "strength": spec["strength"],
            "per_clan": board["figures_per_clan"].get(f),
        }
        for f, spec in extra()["figures"].items()
    ] + [
        {
            "id": "stronghold",
            "name": t("figure.stronghold"),
            "strength": 0,
            "per_clan": board["strongholds_per_clan"],
            "cost": board["stronghold_cost"],
        }
    ]
    cards = [
        {
            "id": name,
            "kind": "season_card",
            "name": t(f"card.{name}"),
            "text": t(f"card.{name}.text"),
            "type": c["type"],
            "type_name": t(f"card_type.{c['type']}"),
            "season": c["season"],
            "season_name": t(f"season.{c['season']}"),
            "cost": c["cost"],
            "force": c.get("force"),
            "oni": name in data.ONI,
            "copies": dict(c["sets"]),
            "placeholder": bool(c.get("placeholder", False)),
        }
        for name, c in data.CARDS.items()
    ]
    kami = [
        {
            "id": k,
            "kind": "kami",
            "name": t(f"kami.{k}"),
            "text": t(f"kami.{k}.text"),
            "first_game": k in board["first_game_shrines"],
        }
        for k in data.SHRINES
    ]
    mandates = [
        {"id": m, "kind": "mandate", "name": t(f"mandate.{m}"), "text": t(f"mandate.{m}.text"), "tiles": n}
        for m, n in board["mandates"].items()
    ]
    return {
        "ruleset": "rising-sun",
        "language": t.lang,
        "map": {
            "view_box": cataloguing.view_box(DATA),
            "provinces": provinces,
            "shrines": shrines,
            "land_borders": borders,
            "sea_routes": sea_routes,
        },
        "factions": clans,
        "figures": figures,
        "cards": cards + kami + mandates,
        "seasons": [
            {"id": s, "name": t(f"season.{s}"), "war_token_vp": board["token_vp"][s]} for s in data.SEASONS
        ],
        "card_sets": [{"id": s, "name": t(f"set.{s}")} for s in ("core", *data.SETS)],
        "political_track": list(data.TRACK),
        "set_bonus": [{"distinct_provinces": a, "vp": b} for a, b in board["set_bonus"]],
        "commands": cataloguing.commands(t, DATA, extra()["fields"]),
        "choices": cataloguing.choices(t),
        "prompts": cataloguing.prompts(t, extra()["prompts"]),
    }
