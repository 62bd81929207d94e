"""Focused tests of the action rules (§3.3–§3.5) and of victory (§3.7)."""

import pytest
from imjin_helpers import Game, clear_board, duel, fight, in_hand, pools, prompt, put, scripted

from games.rules.base import IllegalCommand
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import income, prompts, set_prompts
from games.rules.imjin.victory import final, instant

J, A = 0, 1


def fresh(n=2):
    return Game(n, options={"legendary_generals": []}).skip_setup()


def manage(s, seat=J):
    prompt(
        s,
        {"kind": "manage", "seat": seat, "deployed": False, "blocked_generals": [], "blocked_units": []},
        action="supply_general",
    )


# ------------------------------------------------------------ Supply/General


def test_deploy_once_per_action_and_recalled_unit_blocked():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GS_L", 2, "kuroda_nagamasa")
        put(s, "u2", J, "GS_R", 2)
        put(s, "u3", A, "HG_N", 1)
        in_hand(s, J, "ukita_hideie", "kuki_yoshitaka")
        manage(s)

    g.edit(setup)
    g.do(J, {"type": "recall", "unit": "u1"})
    assert not [c for c in g.legal(J) if c["type"] == "deploy" and c["unit"] == "u1"]
    assert not [c for c in g.legal(J) if c["type"] == "deploy" and c["general"] == "kuroda_nagamasa"]
    g.do(J, {"type": "deploy", "general": "ukita_hideie", "unit": "u2"})
    assert not [c for c in g.legal(J) if c["type"] == "deploy"]
    with pytest.raises(IllegalCommand, match="one general"):
        g.do(J, {"type": "deploy", "general": "kuki_yoshitaka", "unit": "u1"})


def test_replacement_into_death_is_illegal():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GS_L", 2, "kato_kiyomasa", damage=3)
        put(s, "u3", A, "HG_N", 1)
        in_hand(s, J, "ukita_hideie", "shimazu_yoshihiro")
        manage(s)

    g.edit(setup)
    gens = {c["general"] for c in g.legal(J) if c["type"] == "replace"}
    assert "shimazu_yoshihiro" in gens and "ukita_hideie" not in gens  # 3 HP − 3 damage


def test_paid_actions_need_full_cost():
    g = fresh()
    g.edit(lambda s: (manage(s), s["supply"].__setitem__(J, 4)))
    assert not [c for c in g.legal(J) if c["type"] == "deploy"]


# ------------------------------------------------------------ Recruit


def recruit(s, seat):
    prompt(
        s,
        {"kind": "recruit", "seat": seat, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
        action="recruit_reorganize",
    )


def test_special_seas_recruiting_and_tsushima_income():
    g = fresh()
    g.edit(lambda s: (clear_board(s), put(s, "u1", A, "TS_E", 1), put(s, "u2", J, "WKB", 1), recruit(s, J)))
    areas = {c["area"] for c in g.legal(J) if c["type"] == "recruit"}
    assert "TS_W" in areas and "TS_E" not in areas and "WKB" not in areas
    assert income(g.state, "allies") == 24 + 1 and income(g.state, "japan") == 20 - 1
    g.edit(lambda s: recruit(s, A))
    areas = {c["area"] for c in g.legal(A) if c["type"] == "recruit"}
    assert "DDB" in areas and "WKB" not in areas and "TS_E" not in areas


def test_recruit_stacking_and_troop_caps():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", A, "PA_W", 4),
            put(s, "u2", A, "PA_W", 3),
            put(s, "u3", J, "GS_L", 1),
            recruit(s, A),
        )
    )
    here = [c for c in g.legal(A) if c["type"] == "recruit" and c["area"] == "PA_W"]
    assert here == [{"type": "recruit", "area": "PA_W", "unit": "u2", "count": 1}]


def test_fifty_troop_limit():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            [
                put(s, f"u{i}", A, a, 4)
                for i, a in enumerate(
                    [
                        "PA_W",
                        "PA_W",
                        "PA_E",
                        "HH_L",
                        "HH_L",
                        "HH_R",
                        "HH_R",
                        "GG_R",
                        "GG_R",
                        "GW_E",
                        "GW_E",
                        "HG_S",
                    ],
                    1,
                )
            ],
            put(s, "u20", A, "HG_N", 1),
            put(s, "u30", J, "GS_L", 1),
            recruit(s, A),
        )
    )
    counts = [c["count"] for c in g.legal(A) if c["type"] == "recruit"]
    assert max(counts) == 1  # 49 on the map


def test_reorganize_keeps_one_each():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", A, "PA_W", 1),
            put(s, "u2", A, "PA_W", 1),
            put(s, "u3", J, "GS_L", 1),
            recruit(s, A),
        )
    )
    g.do(A, {"type": "recruit", "area": "PA_W", "unit": "u1", "count": 3})
    g.do(A, {"type": "done"})
    splits = [c["troops"] for c in g.legal(A) if c["type"] == "reorganize"]
    assert splits == [[1, 4], [2, 3], [3, 2]]


# ------------------------------------------------------------ Movement


def move_prompt(s, seat, sea_start=()):
    prompt(
        s, {"kind": "move", "seat": seat, "mode": "action", "moved": []}, act={"sea_start": list(sea_start)}
    )
    set_prompts(s, [*prompts(s), {"kind": "declare", "seat": seat, "draft": None}])


def test_movement_blocked_by_enemies_and_stacking():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", A, "GW_E", 2),
            put(s, "u2", J, "GW_W", 1),
            put(s, "u3", A, "HG_S", 1),
            put(s, "u4", A, "HG_S", 1),
            move_prompt(s, A),
        )
    )
    dests = {c["path"][0] for c in g.legal(A) if c["type"] == "move" and c["unit"] == "u1"}
    assert "GW_W" not in dests and "HG_S" not in dests and {"GS_L", "SOJ"} <= dests


def test_entering_empty_enemy_land_takes_control():
    g = fresh()
    g.edit(
        lambda s: (clear_board(s), put(s, "u1", A, "GW_E", 2), put(s, "u2", J, "TS_E", 1), move_prompt(s, A))
    )
    g.do(A, {"type": "move", "unit": "u1", "path": ["GS_L"]})
    assert g.state["control"]["GS_L"] == "allies"
    assert income(g.state, "allies") == 27 and income(g.state, "japan") == 17


def test_naval_bonus_only_from_sea_start_and_landing_on_empty_land():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", A, "WKB", 2),
            put(s, "u2", A, "PA_W", 1),
            put(s, "u3", J, "JL_R", 1),
            move_prompt(s, A, sea_start=["u1"]),
        )
    )
    paths = [c["path"] for c in g.legal(A) if c["type"] == "move" and c["unit"] == "u1"]
    assert ["YS", "DMS"] in paths and ["YS", "CC_R"] in paths
    assert ["YS", "JL_R"] not in paths  # units there
    assert ["DDB", "PA_W"] not in paths  # own unit there: landing needs an empty land
    g.do(A, {"type": "move", "unit": "u2", "path": ["DDB"]})
    assert not [c for c in g.legal(A) if c.get("unit") == "u2"]


def test_swap_counts_both_as_moved():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", A, "HH_R", 4),
            put(s, "u2", A, "HH_L", 2),
            put(s, "u3", J, "GG_R", 1),
            move_prompt(s, A),
        )
    )
    g.do(A, {"type": "swap", "unit": "u1", "with": "u2"})
    g.do(A, {"type": "done"})
    assert g.legal(A) == [{"type": "fight"}]


# ------------------------------------------------------------ Battles


def test_moved_units_cannot_fight_and_units_fight_once():
    g = duel(att=A, extra=[("u3", A, "HG_S", 2), ("u4", J, "GW_W", 1)])
    g.edit(lambda s: s["act"].__setitem__("moved", ["u3"]))
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    assert not [c for c in g.legal(A) if c["type"] == "support"]  # u3 moved
    g.do(A, {"type": "confirm"})
    assert not [c for c in g.legal(A) if c["type"] == "attack" and c["main"] == "u1"]


def test_supports_at_most_two_and_add_one_die_each():
    g = duel(att=A, extra=[("u3", A, "HG_S", 4), ("u4", A, "GW_E", 4), ("u5", A, "GG_L", 4)])
    g.edit(lambda s: s["control"].__setitem__("GG_L", "allies"))
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(A, {"type": "support", "unit": "u3"})
    g.do(A, {"type": "support", "unit": "u4"})
    assert not [c for c in g.legal(A) if c["type"] == "support"]
    assert pools(g, supports=["u3", "u4"]) == (5, 3)


def test_defender_hits_only_main_and_cart_steals_what_exists():
    g = duel(att=A, extra=[("u3", A, "HG_S", 2)], supply=(1, 30))
    fight(g, supports=["u3"], dice=("車車徽徽", "砲砲車"))
    u = g.state["units"]
    assert u["u3"]["troops"] == 2 and u["u1"]["troops"] == 1
    assert g.state["supply"] == [0 + 2, 30 - 5 + 1 - 2]


def test_general_hit_without_general_is_wasted_and_hits_general():
    g = duel(def_general="kuroda_nagamasa", att=A)
    fight(g, dice=("將將徽", "徽徽徽"))
    assert g.state["generals"]["kuroda_nagamasa"]["damage"] == 2


def test_sea_attacking_land_is_land_battle():
    g = duel(att=A, extra=[("u3", A, "YS", 3), ("u4", J, "JL_R", 2)])
    fight(g, target="u4", main="u3", dice=("馬船徽", "徽徽"))
    assert g.state["units"]["u4"]["troops"] == 1  # 馬 hits, 船 is dead on land


def test_land_units_may_attack_sea_units():
    g = duel(att=A, extra=[("u3", A, "HH_R", 3), ("u4", J, "GGB", 2)])
    fight(g, target="u4", main="u3", dice=("船馬徽", "徽徽"))
    assert g.state["units"]["u4"]["troops"] == 1


def test_advance_changes_control_and_decline_keeps_it():
    for go, ctrl in ((True, "allies"), (False, "japan")):
        g = duel(att=A, def_troops=1)
        fight(g, dice=("砲徽徽", "徽"))
        g.do(A, {"type": "advance_into", "go": go})
        assert g.state["control"]["GW_W"] == ctrl


def test_one_main_unit_per_target():
    """「針對每一個目標敵方部隊，玩家只能派出一個己方主力部隊」: a unit already targeted
    this action cannot be the target of a second battle."""
    g = duel(att=A, def_troops=1, extra=[("u3", A, "HG_S", 2)])
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(A, {"type": "confirm"})
    assert not [c for c in g.legal(A) if c["type"] == "attack" and c["target"] == "u2"]
    with pytest.raises(IllegalCommand):
        g.do(A, {"type": "attack", "target": "u2", "main": "u3", "via": None, "mode": "normal"})


def test_cancelled_battle_no_refund():
    """福島's second attack destroys the target of a battle still to be resolved: that
    battle is cancelled, its cost is not refunded (A-27)."""
    g = duel("fukushima_masanori", att=J, def_troops=1, extra=[("u3", J, "HG_S", 2), ("u4", A, "GW_W", 1)])
    g.do(J, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    g.do(J, {"type": "attack", "target": "u4", "main": "u3", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    assert g.state["supply"][J] == 25
    g.do(J, {"type": "fight"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("砲徽徽徽", "徽"))
    assert g.head["kind"] == "second_attack"
    g.do(J, {"type": "second_attack", "go": True}, rng=scripted("砲", "徽"))
    assert "u4" not in g.state["units"]
    g.do(J, {"type": "advance_into", "go": False})
    g.do(J, {"type": "resolve", "battle": 1})
    last = [e for e in g.events if e.type == "imjin.BattleResolved"][-1].payload
    assert last["result"] == "cancelled" and g.state["supply"][J] == 25


# ------------------------------------------------------------ Victory


def test_instant_victories():
    s = fresh().state
    assert instant(s) is None
    s2 = dict(s, control={**s["control"], "PA_W": "japan", "GG_R": "japan"})
    assert instant(s2)[0] == "japan"
    s3 = dict(
        s, control={**s["control"], "GG_L": "allies", "CC_L": "allies", "CC_R": "allies", "JL_L": "allies"}
    )
    assert instant(s3)[0] == "allies"
    units = {
        "u1": {"owner": A, "area": "TS_E", "troops": 1, "general": None},
        "u2": {"owner": A, "area": "TS_W", "troops": 1, "general": None},
    }
    assert instant(dict(s, units=units))[1].endswith("Tsushima channels")


def test_instant_win_ends_game_immediately():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "HH_L", 2),
            put(s, "u9", A, "HG_N", 1),
            s["control"].__setitem__("PA_W", "japan"),
            move_prompt(s, J),
        )
    )
    g.do(J, {"type": "move", "unit": "u1", "path": ["HH_R"]})
    out = RULES.outcome(g.state)
    assert out.winners == (J,) and RULES.pending(g.state) == []


def test_final_tie_breaks():
    s = fresh().state
    assert final(s)[0] == "allies" and "income" in final(s)[1]  # 8 v 8 lands, 0 v 0 kills, 20 v 24
    s2 = dict(s, killed={"japan": ["li_rusong"], "allies": []})
    assert final(s2)[0] == "japan"
    s3 = dict(s, control={**s["control"], "GW_E": "japan"})
    assert final(s3)[0] == "japan"


# ---------------------------------------------------------------- component limits


def test_supply_track_stops_at_99_and_payload_says_so():
    from imjin_helpers import duel, fight

    g = duel(att=0, supply=(99, 30))
    fight(g, dice=("車車徽", "徽徽徽"))  # pays 3 (→ 96), steals 4
    assert g.state["supply"] == [99, 26]
    raids = [e.payload for e in g.events if e.type == "imjin.SupplyChanged" and e.payload["reason"] == "raid"]
    assert raids[-1]["delta"] == 3  # only what fits on the 0–99 track


def test_income_track_is_capped_at_50():
    from games.rules.imjin.state import income

    g = Game(2, options={"legendary_generals": []})
    s = g.state
    s["control"] = {a: "japan" for a in s["control"]}
    assert income(s, "japan") <= 50  # the map's total (44) never reaches the cap
    import games.rules.imjin.data as data

    assert sum(a["supply"] for a in data.areas().values()) <= 50


def test_dice_pools_never_exceed_the_eight_dice_in_the_box():
    from imjin_helpers import duel, pools

    from games.rules.imjin.data import generals

    for gid in generals():
        for land in (True, False):
            troops = 5 if gid == "mori_hidemoto" else 4
            g = duel(
                gid,
                att=0,
                land=land,
                att_troops=troops,
                def_troops=4,
                extra=[("u3", 0, "HG_S", 1), ("u4", 0, "GW_E", 1)],
            )
            a, d = pools(g, supports=("u3", "u4"))
            assert a <= 8 and d <= 8, gid
            g = duel(def_general=gid, att=0, land=land, att_troops=4, def_troops=troops)
            assert max(pools(g)) <= 8, gid


def test_four_player_army_labels_limit_new_units():
    from imjin_helpers import clear_board, prompt, put

    from games.rules.imjin.data import areas
    from games.rules.imjin.state import new_unit_room

    kato = 0
    g = Game(4, options={"legendary_generals": []}).skip_setup()
    spots = [a for a in sorted(areas()) if a not in ("GS_L", "CC_L")][:12]

    def setup(s):
        clear_board(s)
        n = 1
        for a in spots:
            for _ in range(2):
                put(s, f"u{n}", kato, a, 1)
                n += 1
        prompt(
            s,
            {"kind": "recruit", "seat": kato, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
            action="recruit_reorganize",
        )

    g.edit(setup)
    assert new_unit_room(g.state, kato) == 0  # 24 units = 25 Kato-backed tokens − his supply marker
    assert not [c for c in g.legal(kato) if c["type"] == "recruit" and c["unit"] is None]
    g.edit(lambda s: s["units"].pop("u1"))
    assert [c for c in g.legal(kato) if c["type"] == "recruit" and c["unit"] is None and c["area"] == "GS_L"]
    assert new_unit_room(g.state, 2) > 0  # Konishi's own labels are separate
