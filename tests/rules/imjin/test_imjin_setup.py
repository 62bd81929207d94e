"""Setup (§3.1, §10), the wheel (§4), hidden hands and views."""

import pytest
from imjin_helpers import Game

from games.rules.base import BadCommand, IllegalCommand, commitment_of
from games.rules.imjin import events as ev
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import income

J, A = 0, 1


def test_factions_and_player_counts():
    assert list(RULES.factions(2, {})) == ["japan", "allies"]
    assert sorted(RULES.factions(4, {})) == ["joseon", "kato", "konishi", "ming"]
    with pytest.raises(BadCommand, match="2 or 4 players"):
        RULES.factions(3, {})
    assert RULES.min_players == 2 and RULES.max_players == 4


def test_options_schema_and_bad_options():
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(RULES.options_schema)
    with pytest.raises(BadCommand):
        Game(2, options={"legendary_generals": ["nobody"]})
    with pytest.raises(BadCommand):
        Game(2, options={"house_rule": 1})


def test_two_player_table():
    s = Game(2).state
    assert s["supply"] == [30, 30]
    assert income(s, "japan") == 20 and income(s, "allies") == 24
    troops = {
        side: [d["troops"] for d in s["units"].values() if s["side"][d["owner"]] == side]
        for side in ("japan", "allies")
    }
    assert (sum(troops["japan"]), len(troops["japan"])) == (27, 14)
    assert (sum(troops["allies"]), len(troops["allies"])) == (22, 13)
    assert s["deck"]["size"] == 8 and len(s["deck"]["pool"]) == 17
    assert s["wheel"] == {"japan": 0, "allies": 0}


def test_four_player_table_armies():
    s = Game(4).state
    assert s["supply"] == [20] * 4 and s["deck"]["size"] == 10
    per = {}
    for d in s["units"].values():
        per[s["faction"][d["owner"]]] = per.get(s["faction"][d["owner"]], 0) + d["troops"]
    assert per == {"kato": 13, "konishi": 14, "joseon": 11, "ming": 11}
    assert [s["faction"][x] for x in s["order"]] == ["kato", "joseon", "konishi", "ming"]


def test_random_faction_assignment_is_a_permutation():
    s = Game(2, factions=[None, None]).state
    assert sorted(s["faction"]) == ["allies", "japan"]
    s = Game(4, factions=[None, "ming", None, None]).state
    assert s["faction"][1] == "ming" and sorted(s["faction"]) == ["joseon", "kato", "konishi", "ming"]


def test_legendary_japan_first_costs_ten_and_is_extra():
    g = Game(2)
    assert g.head == {"kind": "choose_legendary", "seat": J}
    g.do(J, {"type": "choose_legendary", "general": "nurhaci"})
    opts = [c["general"] for c in g.legal(A)]
    assert "nurhaci" not in opts and "qi_jiguang" in opts and "sanada_yukimura" not in opts
    g.do(A, {"type": "choose_legendary", "general": "qi_jiguang"})
    assert g.state["supply"] == [20, 20]
    g.skip_setup()
    assert (
        len(g.state["hands"][J]) + sum(1 for r in g.state["generals"].values() if r["owner"] == J) == 9
    )  # 8 + legendary


def test_hand_picks_are_secret_and_limit_four_hp():
    g = Game(2, options={"legendary_generals": []})
    assert g.head["kind"] == "pick_generals" and g.head["seats"] == [J, A]
    for gid in ["kato_kiyomasa", "konishi_yukinaga"]:
        g.do(J, {"type": "pick_general", "general": gid})
    assert "shimazu_yoshihiro" not in [c["general"] for c in g.legal(J)]  # third 4-HP
    with pytest.raises(IllegalCommand):
        g.do(J, {"type": "pick_general", "general": "shimazu_yoshihiro"})
    picked = [e for e in g.events if e.type == ev.GENERAL_PICKED]
    assert all(e.visible_to == (J,) for e in picked)
    assert "kato_kiyomasa" not in str(RULES.view(g.state, A))
    assert "kato_kiyomasa" in str(RULES.view(g.state, J))


def test_sealed_hand_is_revealed_on_deploy():
    g = Game(2, options={"legendary_generals": []}).skip_setup()
    commits = {
        e.payload["key"]: e.payload["commitment"] for e in g.events if e.type == "core.ChoiceCommitted"
    }
    assert len(commits) == 16
    deployed = [e for e in g.events if e.type == ev.GENERAL_DEPLOYED]
    assert len(deployed) == 4 and [e.payload["seat"] for e in deployed] == [J, A, J, A]
    for e in deployed:
        (r,) = e.payload["reveals"]
        assert r["choice"] == e.payload["general"]
        assert commitment_of(r["salt"], r["choice"]) == commits[r["key"]]


def test_setup_banned_generals_cannot_be_placed():
    g = Game(2, options={"legendary_generals": []})
    g.skip_setup(hands={J: ["tachibana_ginchiyo"]}, placements=[])
    # skip_setup placed the first legal options; 誾千代 never was
    assert g.state["generals"].get("tachibana_ginchiyo") is None


def test_setup_placement_gives_mori_no_troops():
    g = Game(2, options={"legendary_generals": []})
    g.skip_setup(hands={J: ["mori_hidemoto"]})
    # re-run: place Mori explicitly
    g2 = Game(2, options={"legendary_generals": []})
    for seat in (J, A):
        while seat in g2.head.get("seats", []):
            opts = [c["general"] for c in g2.legal(seat)]
            g2.do(
                seat,
                {"type": "pick_general", "general": "mori_hidemoto" if "mori_hidemoto" in opts else opts[0]},
            )
    uid = next(c["unit"] for c in g2.legal(J) if c["general"] == "mori_hidemoto")
    before = g2.state["units"][uid]["troops"]
    g2.do(J, {"type": "place_general", "general": "mori_hidemoto", "unit": uid})
    assert g2.state["units"][uid]["troops"] == before  # Appendix R #4


def test_four_player_leaders_placed_in_order():
    g = Game(4, options={"legendary_generals": []}).skip_setup()
    deployed = [e.payload for e in g.events if e.type == ev.GENERAL_DEPLOYED]
    assert [d["general"] for d in deployed] == ["kato_kiyomasa", "yi_sunsin", "konishi_yukinaga", "li_rusong"]
    assert all(len(h) == 3 for h in g.state["hands"])


def test_wheel_steps_and_dividers():
    from games.rules.imjin.wheel import crosses_divider

    assert not crosses_divider(0, 1) and not crosses_divider(0, 2)
    assert crosses_divider(0, 3) and crosses_divider(1, 2) and crosses_divider(2, 1)
    assert crosses_divider(5, 1) and not crosses_divider(3, 2)
    g = Game(2).skip_setup()
    assert g.legal(J) == [{"type": "advance", "steps": k} for k in (1, 2, 3)]
    g.edit(lambda s: s["supply"].__setitem__(J, 7))
    assert g.legal(J) == [{"type": "advance", "steps": k} for k in (1, 2)]
    g4 = Game(4).skip_setup()
    assert g4.legal(0) == [{"type": "advance", "steps": k} for k in (1, 2, 3)]


def test_default_command_always_accepted_in_setup_and_turns():
    g = Game(2)
    for _ in range(60):
        seat = RULES.pending(g.state)[0].seat
        g.do(seat, dict(RULES.default_command(g.state, seat)))
    assert RULES.outcome(g.state) is None


def test_wrong_seat_and_malformed_commands():
    g = Game(2).skip_setup()
    with pytest.raises(IllegalCommand):
        g.do(A, {"type": "advance", "steps": 1})
    with pytest.raises(BadCommand):
        g.do(J, {"type": "fly"})
    with pytest.raises(BadCommand):
        g.do(J, {"type": "advance", "steps": "two"})
    with pytest.raises(IllegalCommand):
        g.do(J, {"type": "advance", "steps": 4})


def test_evolve_does_not_mutate_and_state_is_picklable():
    import pickle

    g = Game(2).skip_setup()
    before = pickle.dumps(g.state)
    snapshot = pickle.loads(before)
    RULES.decide(
        g.state,
        J,
        {"type": "advance", "steps": 1},
        lambda p: None or __import__("games.rules.base", fromlist=["Rng"]).Rng("x", 1, p),
    )
    assert g.state == snapshot
    new = g.do(J, {"type": "advance", "steps": 1})
    assert new and pickle.loads(pickle.dumps(g.state)) == g.state


def test_map_data_is_consistent():
    from games.rules.imjin import data

    areas, adj = data.areas(), data.adjacency()
    assert len(areas) == 24 and len(data.lands()) == 16
    assert sum(len(v) for v in adj.values()) == 2 * 59
    assert all(a in adj[b] for a in adj for b in adj[a]) and all(a not in adj[a] for a in adj)
    assert "GGB" not in adj["WKB"] and "DMS" not in adj["WKB"]  # seed-forced non-edges
    for a, b in [
        ("PA_E", "HG_S"),
        ("HH_R", "HH_L"),
        ("GG_R", "GW_W"),
        ("HG_S", "GW_W"),
        ("GW_E", "GW_W"),
        ("GG_R", "GGB"),
        ("WKB", "YS"),
        ("YS", "DMS"),
        ("DDB", "GGB"),
    ]:
        assert b in adj[a]
    assert (
        data.areas()["GG_R"]["recruit_cap"],
        data.areas()["HH_R"]["recruit_cap"],
        data.areas()["HH_L"]["recruit_cap"],
        data.areas()["GW_E"]["recruit_cap"],
    ) == (3, 3, 2, 1)
    assert len(data.generals()) == 31 and len(data.events()) == 18
    banned = {g for g, d in data.generals().items() if d["setup_banned"]}
    assert banned == {"tachibana_ginchiyo", "gwak_jaeu", "nurhaci", "qi_jiguang", "sanada_yukimura"}
