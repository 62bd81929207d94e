"""The catalogues (issue 14.1) are built from the engines' data and cover everything
a client meets: every area, faction, card, command type and pending kind."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import pytest
import yaml

from games.rules import cataloguing, registry
from games.rules.base import canonical_json, fold, rng_factory
from games.rules.i18n import LANGUAGES
from games.rules.testing import pick, roundtrip

RULESETS = {"rising-sun": "rising_sun", "shogun": "shogun", "imjin": "imjin"}
ROOT = Path(__file__).resolve().parents[3] / "games" / "rules"


def build(rid, lang="en"):
    return importlib.import_module(f"games.rules.{RULESETS[rid]}.catalogue").build(lang)


def _kinds_and_types(rid, players, seeds):
    """Every pending kind and command type seen in seeded random games."""
    rules = registry.load_strict(rid)
    kinds, types = set(), set()
    for seed in seeds:
        rnd = random.Random(seed)
        events = [roundtrip(e) for e in rules.start([None] * players, {}, rng_factory(f"s{seed}", 1))]
        state = fold(rules, events)
        while rules.outcome(state) is None:
            pend = rules.pending(state)
            kinds |= {p.kind for p in pend}
            p = rnd.choice(pend)
            cmd = json.loads(canonical_json(dict(pick(rules.legal_commands(state, p.seat), rnd))))
            types.add(cmd["type"])
            for e in rules.decide(state, p.seat, cmd, rng_factory(f"s{seed}", len(events) + 1)):
                e = roundtrip(e)
                events.append(e)
                if not e.type.startswith("core."):
                    state = rules.evolve(state, e)
    return kinds, types


@pytest.mark.parametrize(
    "rid,players,seeds", [("rising-sun", 4, [1, 2]), ("shogun", 4, [1]), ("imjin", 4, [1])]
)
def test_every_pending_kind_and_command_played_has_a_label(rid, players, seeds):
    cat = build(rid)
    kinds, types = _kinds_and_types(rid, players, seeds)
    assert kinds <= {p["kind"] for p in cat["prompts"]}
    assert types <= {c["type"] for c in cat["commands"]}


@pytest.mark.parametrize("rid", RULESETS)
def test_map_is_symmetric_and_names_every_area(rid):
    cat = build(rid)
    areas = {a["id"]: a for a in cat["map"]["provinces"]}
    for a in areas.values():
        assert a["name"] and a["kind"] in ("land", "sea")
        for b in a["adjacent"]:
            assert a["id"] in areas[b]["adjacent"], (a["id"], b)
    for r in cat["map"]["sea_routes"]:
        x, y = r["between"]
        assert y in areas[x]["adjacent"] and r["kind"]


def test_catalogues_carry_the_engines_data():
    rs, sh, ij = build("rising-sun"), build("shogun"), build("imjin")
    from games.rules.imjin import data as ijd
    from games.rules.rising_sun import data as rsd
    from games.rules.shogun import data as shd

    assert {p["id"] for p in rs["map"]["provinces"]} == set(rsd.PROVINCES)
    assert {c["id"] for c in rs["cards"] if c["kind"] == "season_card"} == set(rsd.CARDS)
    assert {c["id"] for c in rs["cards"] if c["kind"] == "kami"} == set(rsd.SHRINES)
    kyoto = next(p for p in rs["map"]["provinces"] if p["id"] == "Kyoto")
    assert kyoto["values"]["reward"] == {"vp": 4}
    assert len(sh["map"]["provinces"]) == 45
    assert len(sh["map"]["sea_routes"]) == sum(1 for *_, sea in shd.EDGES if sea) == 6
    assert {c["id"] for c in sh["cards"] if c["kind"] == "favour"} == {str(n) for n in shd.FAVOUR_IDS}
    fav2 = next(c for c in sh["cards"] if c["kind"] == "favour" and c["id"] == "2")
    assert fav2["placeholder"] is True and "2" in fav2["text"]
    assert {a["id"] for a in ij["map"]["provinces"]} == set(ijd.areas())
    assert len([a for a in ij["map"]["provinces"] if a["kind"] == "sea"]) == 8
    assert {c["id"] for c in ij["cards"] if c["kind"] == "general"} == set(ijd.generals())
    assert {c["id"] for c in ij["cards"] if c["kind"] == "event"} == set(ijd.events())
    pa_w = next(a for a in ij["map"]["provinces"] if a["id"] == "PA_W")
    assert pa_w["values"] == {"supply": 4, "recruit_cap": 3} and "WKB" in pa_w["adjacent_by_kind"]["land_sea"]


@pytest.mark.parametrize("rid", RULESETS)
def test_factions_have_distinct_colours_and_letters(rid):
    cat = build(rid)
    players = [f for f in cat["factions"] if f["id"] not in ("japan", "allies")]
    assert len({f["colour"] for f in players}) == len(players)
    assert len({f["letter"] for f in players}) == len(players)
    assert all(len(f["letter"]) == 1 for f in cat["factions"])


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_is_a_raw_key(rid, lang):
    """A key missing from every language would come out as the key itself."""
    text = json.dumps(build(rid, lang), ensure_ascii=False)
    for prefix in (
        "command.",
        "prompt.",
        "card.",
        "province.",
        "area.",
        "general.",
        "kami.",
        "clan.",
        "favour.",
        "field.",
        "choice.",
    ):
        assert f'"{prefix}' not in text


def test_geometry_is_read_when_the_board_data_is_present(tmp_path):
    """shape/label_at come from data/geometry/*.json (the board renderer's data) when it exists."""
    assert cataloguing.geometry(tmp_path) == {}
    (tmp_path / "geometry").mkdir()
    (tmp_path / "geometry" / "sun.json").write_text(
        json.dumps({"provinces": {"Kyoto": {"shape": "M0 0L1 1Z", "label_at": [3, 4], "other": 1}}})
    )
    geo = cataloguing.geometry(tmp_path)
    assert geo == {"Kyoto": {"shape": "M0 0L1 1Z", "label_at": [3, 4]}}
    entry = cataloguing.with_geometry({"id": "Kyoto", "name": "Kyoto"}, geo)
    assert entry["shape"] == "M0 0L1 1Z" and entry["label_at"] == [3, 4]
    # the board renderer's own format: SVG path data under "d", a viewBox
    (tmp_path / "geometry" / "sun.json").write_text(
        json.dumps(
            {
                "viewBox": [0, 0, 10, 10],
                "provinces": {"Edo": {"d": "M1 1Z", "kind": "land", "label_at": [1, 2]}},
            }
        )
    )
    assert cataloguing.geometry(tmp_path) == {"Edo": {"shape": "M1 1Z", "label_at": [1, 2]}}
    assert cataloguing.view_box(tmp_path) == [0, 0, 10, 10]


@pytest.mark.parametrize("rid", RULESETS)
def test_every_command_parameter_has_a_label_and_says_what_it_names(rid):
    """The page says "To: Kyoto", not "to: Kyoto": every parameter has its own
    label in the language files, and what it names is one the client knows."""
    words = yaml.safe_load((ROOT / RULESETS[rid] / "data" / "i18n" / "en.yaml").read_text(encoding="utf-8"))
    kinds = {"province", "provinces", "seat", "card", "figure", "kami", "mandate", "general", "unit"}
    kinds |= {"favour", "special", "plan", "choice", "boolean", "number"}
    for command in build(rid)["commands"]:
        for field in command["fields"]:
            name = field["name"]
            assert f"field.{command['type']}.{name}" in words or f"field.{name}" in words, (
                command["type"],
                name,
            )
            assert field["of"] in kinds, (command["type"], field)
