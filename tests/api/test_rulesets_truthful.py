"""Issue 16 item 5: /rulesets advertises, per player count, the factions a seat
may choose and the options schema; every advertised combination creates (and
starts) a game, and the counts it leaves out are refused."""

from __future__ import annotations

import pytest

from tests.conftest import register

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast personas
    return [register(f"seat{i}") for i in range(5)]


def rulesets(api):
    r = api.get("/api/v1/rulesets")
    assert r.status_code == 200
    return r.json()


def option_variants(schema: dict) -> list[dict]:
    """One options object per advertised value of each option (enums, booleans)."""
    out = [{}]
    for name, prop in (schema.get("properties") or {}).items():
        if "enum" in prop:
            out += [{name: v} for v in prop["enum"]]
        elif prop.get("type") == "boolean":
            out += [{name: True}, {name: False}]
        elif prop.get("type") == "array" and "enum" in (prop.get("items") or {}):
            out += [{name: []}, {name: list(prop["items"]["enum"])}]
    return out


def test_imjin_advertises_what_it_accepts(api):
    imjin = next(r for r in rulesets(api) if r["id"] == "imjin")
    assert imjin["player_counts"] == [2, 4]
    per = {c["players"]: c["factions"] for c in imjin["per_players"]}
    assert per[2] == ["japan", "allies"] and sorted(per[4]) == ["joseon", "kato", "konishi", "ming"]


def test_every_advertised_combination_creates_and_starts_a_game(api, people):
    for rs in rulesets(api):
        assert rs["player_counts"] and rs["player_counts"] == [c["players"] for c in rs["per_players"]]
        assert set(rs["factions"]) == {f for c in rs["per_players"] for f in c["factions"]}
        for count in rs["per_players"]:
            n, factions = count["players"], count["factions"]
            assert len(factions) >= n, (rs["id"], n)
            # every faction, chosen by the creator; the game then starts with the others' choices
            for i, faction in enumerate(factions):
                g = api.as_(people[0]).post(
                    "/api/v1/games", {"ruleset": rs["id"], "players": n, "faction": faction}
                )
                assert g.status_code == 201, (rs["id"], n, faction, g.content)
                gid = g.json()["id"]
                rest = [f for f in factions[i + 1 :] + factions[:i]][: n - 1]
                for who, f in zip(people[1:n], rest, strict=True):
                    r = api.as_(who).post(f"/api/v1/games/{gid}/seats", {"faction": f})
                    assert r.status_code == 201, (rs["id"], n, f, r.content)
                r = api.as_(people[0]).post(f"/api/v1/games/{gid}/start")
                assert r.status_code == 200, (rs["id"], n, faction, r.content)
                assert [s["faction"] for s in r.json()["seats"]] == [faction, *rest]
            # every advertised option value (random factions), started
            for options in option_variants(count["options"]):
                g = api.as_(people[0]).post(
                    "/api/v1/games", {"ruleset": rs["id"], "players": n, "options": options}
                )
                assert g.status_code == 201, (rs["id"], n, options, g.content)
                gid = g.json()["id"]
                for who in people[1:n]:
                    assert api.as_(who).post(f"/api/v1/games/{gid}/seats", {}).status_code == 201
                r = api.as_(people[0]).post(f"/api/v1/games/{gid}/start")
                assert r.status_code == 200, (rs["id"], n, options, r.content)


def test_counts_left_out_are_refused(api, people):
    for rs in rulesets(api):
        for n in range(rs["min_players"] - 1, rs["max_players"] + 2):
            if n in rs["player_counts"]:
                continue
            r = api.as_(people[0]).post("/api/v1/games", {"ruleset": rs["id"], "players": n})
            assert r.status_code == 400 and r.json()["code"] == "invalid_players", (rs["id"], n)
