"""One focused test per general ability (§8, Appendix R)."""

import pytest
from imjin_helpers import Game, clear_board, duel, fight, in_hand, pools, prompt, put, scripted

from games.rules.base import IllegalCommand
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import head_prompt, prompts, set_prompts, stage, stage_frame

J, A = 0, 1


def units(g):
    return g.state["units"]


# ---------------------------------------------------------------- Japan


def test_kato_land_dice_and_after_attack_recovery():
    g = duel("kato_kiyomasa", att=J)
    assert pools(g) == (5, 3)
    p = fight(g, dice=("徽徽徽徽徽", "砲徽徽"))
    assert len(p["attacker_dice"]) == 5
    assert units(g)["u1"]["troops"] == 3  # lost 1, regained 1 (not above 3)
    assert pools(duel("kato_kiyomasa", att=J, land=False)) == (3, 3)


def test_konishi_reduces_and_crests_heal_troops():
    g = duel(def_general="konishi_yukinaga", att=A)
    assert pools(g) == (2, 3)
    fight(g, dice=("砲砲", "徽徽徽"))
    assert units(g)["u2"]["troops"] == 3  # 2 hits, 3 heals, capped at pre-battle 3


def test_kuroda_ignores_two_hits_when_defending():
    g = duel(def_general="kuroda_nagamasa", att=A)
    fight(g, dice=("砲砲砲", "徽徽徽"))
    assert units(g)["u2"]["troops"] == 2


def test_kobayakawa_crest_heals_his_hp():
    g = duel("kobayakawa_takakage", att=J, att_damage=1)
    fight(g, dice=("徽徽徽", "徽徽徽"))
    assert g.state["generals"]["kobayakawa_takakage"]["damage"] == 0


def test_kobayakawa_sow_discord():
    g = duel("kobayakawa_takakage", att=J, extra=[("u3", A, "GW_W", 2, "li_rusong")])
    assert not [c for c in g.legal(J) if c["type"] == "discord"]  # option 1 (default): no 內訌
    g.edit(lambda s: s["act"].__setitem__("kobayakawa", 2))
    opts = [c for c in g.legal(J) if c["type"] == "discord"]
    assert {"type": "discord", "unit": "u1", "attacker": "u3", "defender": "u2"} in opts
    g.do(J, {"type": "discord", "unit": "u1", "attacker": "u3", "defender": "u2"})
    assert g.state["supply"][J] == 30 - 3
    assert [e.payload for e in g.events if e.type == "imjin.DiscordDeclared"] == [
        {"unit": "u1", "attacker": "u3", "defender": "u2"}
    ]
    assert g.state["act"]["immune"] == ["u2"] and g.state["act"]["used"] == ["u1", "u3"]
    # the defending unit cannot be attacked again this action
    assert not [c for c in g.legal(J) if c["type"] == "attack" and c["target"] == "u2"]
    g.do(J, {"type": "fight"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("砲將車", "砲砲徽"))
    # no general abilities (李如松 would add 2 dice): 2 dice vs 3 dice; 車 void
    s = g.state
    assert s["units"]["u2"]["troops"] == 2  # 1 hit from u3's 2 dice
    assert s["supply"] == [27, 30]
    assert "u3" not in s["units"]  # 2 troops, 2 hits


def test_fukushima_second_attack():
    g = duel("fukushima_masanori", att=J, att_troops=2, def_troops=4)
    assert pools(g) == (3, 4)
    fight(g, dice=("砲砲徽", "徽徽徽徽"))
    assert g.head["kind"] == "second_attack"
    g.do(J, {"type": "second_attack", "go": True}, rng=scripted("砲馬", "徽徽"))
    assert "u2" not in units(g)  # 4 −2 −2
    assert g.state["act"]["fukushima_used"]
    assert [e.payload for e in g.events if e.type == "imjin.SecondAttackDeclared"] == [
        {"unit": "u1", "target": "u2", "dice": 2}
    ]


def test_mori_cap_five_enters_with_two_and_drops_to_four():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GS_L", 3)
        put(s, "u2", A, "HG_N", 1)
        in_hand(s, J, "mori_hidemoto")
        prompt(
            s,
            {"kind": "manage", "seat": J, "deployed": False, "blocked_generals": [], "blocked_units": []},
            action="supply_general",
        )

    g.edit(setup)
    g.do(J, {"type": "deploy", "general": "mori_hidemoto", "unit": "u1"})
    assert units(g)["u1"]["troops"] == 5
    g.do(J, {"type": "recall", "unit": "u1"})
    assert units(g)["u1"]["troops"] == 4


def test_muneshige_crest_hits_and_cancels_reductions():
    g = duel("li_rusong", "tachibana_muneshige", att=A)
    assert pools(g) == (5, 3)  # 李如松's −1 does not apply to 立花宗茂 defending
    fight(g, dice=("徽徽徽徽徽", "徽徽徽"))
    assert "u1" not in units(g)


def test_ukita_land_die_and_free_supports():
    g = duel("ukita_hideie", att=J, extra=[("u3", J, "GG_L", 4)])
    g.do(J, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(J, {"type": "support", "unit": "u3"})
    g.do(J, {"type": "confirm"})
    assert g.state["supply"][J] == 30 - 3
    assert pools(g, supports=["u3"]) == (5, 3)


def test_ginchiyo_forced_loss_option():
    g = duel("tachibana_ginchiyo", att=J, def_troops=3)
    modes = {c["mode"] for c in g.legal(J) if c["type"] == "attack"}
    assert modes == {"normal", "forced_loss"}
    assert pools(g) == (4, 3)
    p = fight(g, mode="forced_loss", dice=("", "砲砲徽"))
    assert p["attacker_dice"] == [] and len(p["defender_dice"]) == 3
    assert units(g)["u2"]["troops"] == 1 and units(g)["u1"]["troops"] == 1


def test_shimazu_dice_and_crest_as_general_hit():
    assert pools(duel("shimazu_yoshihiro", att=J, land=False)) == (5, 3)
    g = duel("shimazu_yoshihiro", "li_rusong", att=J)
    assert pools(g) == (4 - 1, 3 + 2)
    fight(g, dice=("徽徽徽", "徽徽徽徽徽"))
    assert g.state["generals"]["li_rusong"]["damage"] == 3


def test_kuki_gives_five_at_start_of_own_move_battle_at_sea():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "TS_E", 2, "kuki_yoshitaka")
        put(s, "u2", A, "HG_N", 1)
        s["wheel"]["japan"] = 1
        s["supply"] = [10, 10]

    g.edit(setup)
    g.do(J, {"type": "advance", "steps": 2})  # S → M: event, then +5
    while g.head["kind"] not in ("move", "declare"):
        seat = g.head["seat"]
        g.do(seat, dict(RULES.default_command(g.state, seat)))
    gained = [
        e.payload for e in g.events if e.type == "imjin.SupplyChanged" and e.payload["reason"] == "kuki"
    ]
    assert gained == [{"seat": J, "delta": 5, "reason": "kuki"}]


def test_li_rusong_double_land_move_and_move_then_attack():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", A, "HG_N", 2, "li_rusong")
        put(s, "u2", J, "GW_W", 2)
        prompt(s, {"kind": "move", "seat": A, "mode": "action", "moved": []}, act={"sea_start": []})
        set_prompts(s, [*prompts(s), {"kind": "declare", "seat": A, "draft": None}])

    g.edit(setup)
    paths = [c["path"] for c in g.legal(A) if c["type"] == "move"]
    assert ["HG_S", "GW_E"] in paths and ["HG_S", "PA_E"] in paths
    assert ["HG_S", "GW_W"] not in paths  # enemy there
    g.do(A, {"type": "move", "unit": "u1", "path": ["HG_S"]})
    g.do(A, {"type": "done"})
    assert {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"} in g.legal(A)
    assert pools(g) == (4, 1)


def test_luo_shangzhi_ignores_hits_and_lone_defender():
    g = duel(def_general="luo_shangzhi", att=J)
    fight(g, dice=("砲砲徽", "徽徽徽"))
    assert units(g)["u2"]["troops"] == 2
    g = duel(def_general="luo_shangzhi", att=J, def_troops=1)
    assert pools(g) == (3, 3)
    fight(g, dice=("砲砲徽", "徽徽徽"))
    assert units(g)["u2"]["troops"] == 1


def test_xing_jie_reroll():
    g = duel("xing_jie", att=A)
    assert pools(g) == (4, 3)
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(A, {"type": "confirm"})
    g.do(A, {"type": "fight"})
    g.do(A, {"type": "resolve", "battle": 0}, rng=scripted("徽徽徽砲", "徽徽徽"))
    assert g.head["kind"] == "reroll"
    legal = g.legal(A)
    assert {"type": "reroll", "dice": [0, 1, 2]} in legal and {
        "type": "reroll",
        "dice": [0, 1, 2, 3],
    } not in legal
    g.do(A, {"type": "reroll", "dice": [0, 1]}, rng=scripted("砲砲"))
    assert "u2" not in units(g)


def test_chen_lin_sea_die_and_crest_hits():
    g = duel("chen_lin", att=A, land=False)
    assert pools(g) == (4, 3)
    fight(g, dice=("徽徽徽徽", "徽徽徽"))
    assert "u2" not in units(g)
    assert pools(duel("chen_lin", att=A)) == (3, 3)


def test_zu_chengxun_reduces_splashes_and_resolves_second():
    g = duel("zu_chengxun", att=A, def_troops=3, extra=[("u3", J, "GW_W", 2), ("u4", A, "HG_S", 3)])
    assert pools(g) == (3, 2)
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(A, {"type": "confirm"})
    g.do(A, {"type": "attack", "target": "u3", "main": "u4", "via": None, "mode": "normal"})
    g.do(A, {"type": "confirm"})
    g.do(A, {"type": "fight"})
    assert g.legal(A) == [{"type": "resolve", "battle": 1}]  # his battle must be second
    g.do(A, {"type": "resolve", "battle": 1}, rng=scripted("徽徽徽", "徽徽"))
    g.do(A, {"type": "resolve", "battle": 0}, rng=scripted("砲徽徽", "徽徽"))
    g.do(A, {"type": "splash", "go": True})  # optional since rules version 3
    assert units(g)["u2"]["troops"] == 2 and units(g)["u3"]["troops"] == 1


def test_liu_ting_gains_inflicted_losses():
    g = duel("liu_ting", att=A, att_troops=2, def_troops=4)
    fight(g, dice=("砲馬", "徽徽徽徽"))
    assert units(g)["u1"]["troops"] == 4


def test_deng_zilong_first_strike_at_sea():
    g = duel("deng_zilong", att=A, land=False, att_troops=3, def_troops=2)
    p = fight(g, dice=("船砲徽", "砲砲"))
    assert p["defender_dice"] == [] and units(g)["u1"]["troops"] == 3


def test_ma_gui_drains_seven():
    g = duel("ma_gui", att=A, supply=(10, 30))
    fight(g, dice=("徽徽徽", "徽徽徽"))
    assert g.state["supply"] == [3, 27]


def test_yi_sunsin_dice_and_ignores_one_general_hit():
    assert pools(duel("yi_sunsin", att=A)) == (4, 2)
    assert pools(duel("yi_sunsin", att=A, land=False)) == (5, 2)
    g = duel("kato_kiyomasa", "yi_sunsin", att=J)
    fight(g, dice=("將將徽徽", "徽徽徽徽"))
    assert g.state["generals"]["yi_sunsin"]["damage"] == 1


def test_kim_simin_only_cannon_hurts_on_land():
    g = duel(def_general="kim_simin", att=J)
    fight(g, dice=("馬馬砲", "徽徽徽"))
    assert units(g)["u2"]["troops"] == 2


def test_gwak_jaeu_guerrilla_entry():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GW_W", 1)
        put(s, "u2", A, "HG_N", 1)
        in_hand(s, A, "gwak_jaeu")
        prompt(
            s,
            {"kind": "manage", "seat": A, "deployed": False, "blocked_generals": [], "blocked_units": []},
            action="supply_general",
        )

    g.edit(setup)
    assert {"type": "deploy_gwak", "area": "GW_E"} in g.legal(A)
    assert {"type": "deploy_gwak", "area": "GW_W"} not in g.legal(A)  # Japanese land
    g.do(A, {"type": "deploy_gwak", "area": "GW_E"})
    new = g.state["generals"]["gwak_jaeu"]["unit"]
    assert units(g)[new]["troops"] == 2 and g.state["supply"][A] == 30 - 5
    assert g.head["kind"] == "gwak_action"
    g.do(
        A,
        {"type": "attack", "target": "u1", "main": new, "via": None, "mode": "normal"},
        rng=scripted("砲徽徽", "徽"),
    )
    assert "u1" not in units(g) and g.state["supply"][A] == 25
    g.do(A, {"type": "advance_into", "go": True})
    assert g.state["control"]["GW_W"] == "allies"


def test_yu_seongryong_halves_recruiting_and_gives_five():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", A, "HH_R", 1, "yu_seongryong")
        put(s, "u2", J, "GS_L", 1)
        s["supply"] = [30, 30]
        prompt(
            s,
            {"kind": "recruit", "seat": A, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
            action="recruit_reorganize",
        )

    g.edit(setup)
    g.do(A, {"type": "recruit", "area": "HH_R", "unit": "u1", "count": 3})
    assert g.state["supply"][A] == 28  # ceil(3/2)
    g.do(A, {"type": "recruit", "area": "GG_R", "unit": None, "count": 2})
    assert g.state["supply"][A] == 27  # total 5 → 3
    g.edit(lambda s: prompt(s, {"kind": "declare", "seat": A, "draft": None}, act={}))
    g.do(A, {"type": "fight"})
    assert g.state["supply"][A] == 32


def test_gwon_yul_reductions_and_punishment():
    assert pools(duel(def_general="gwon_yul", att=J)) == (2, 3)
    g = duel("kato_kiyomasa", "gwon_yul", att=J)
    assert pools(g) == (3, 3)
    fight(g, dice=("徽徽徽", "徽徽徽"))
    assert units(g)["u1"]["troops"] == 3  # −1 punishment, +1 加藤 recovery


def test_yi_eokgi_dice_and_sacrifice():
    g = duel("yi_eokgi", att=A, land=False, att_troops=2)
    assert pools(g) == (3, 2)
    g.do(A, {"type": "fight"})
    assert g.head["kind"] == "sacrifice"
    g.do(A, {"type": "sacrifice", "go": True})
    assert units(g)["u1"]["troops"] == 4 and g.state["generals"]["yi_eokgi"]["damage"] == 1


def test_nongae_taunt_forced_attack_and_death_penalty():
    g = duel("nongae", "kato_kiyomasa", att=A, att_troops=4, def_troops=4)
    fight(g, dice=("徽徽徽徽", "徽徽徽徽徽徽"))
    assert g.head["kind"] == "taunt"
    g.do(A, {"type": "taunt", "go": True})
    assert g.state["taunt"] == {"unit": "u2", "general": "kato_kiyomasa"}
    while stage(g.state)["turn"] == A:
        g.do(A, dict(RULES.default_command(g.state, A)))

    def to_mb(s):
        s["wheel"]["japan"] = 2

    g.edit(to_mb)
    g.do(J, {"type": "advance", "steps": 1})
    while g.head["kind"] not in ("declare",):
        seat = g.head.get("seat")
        g.do(seat, dict(RULES.default_command(g.state, seat)))
    assert g.head.get("forced") and g.head["draft"]["main"] == "u2"
    assert {"type": "cancel"} not in g.legal(J)
    g.do(J, {"type": "confirm"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("將將將徽徽徽", "徽徽徽徽"))
    assert g.state["generals"]["nongae"]["where"] == "dead"
    assert g.state["generals"]["kato_kiyomasa"]["damage"] == 2  # her death: −2 HP
    assert g.state["taunt"] is None


def test_seosan_no_supports_and_no_defender_roll():
    g = duel("seosan", att=A, extra=[("u3", A, "HG_S", 2)])
    assert pools(g) == (4, 0)
    g.do(A, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    assert not [c for c in g.legal(A) if c["type"] == "support"]


def test_nurhaci_extra_general_damage():
    g = duel("nurhaci", "kato_kiyomasa", att=J)
    assert pools(g) == (5, 5)
    fight(g, dice=("徽徽徽徽徽", "徽徽徽徽徽"))
    assert g.state["generals"]["kato_kiyomasa"]["damage"] == 1


def test_qi_jiguang_cannon_extra_and_no_supports_against_him():
    g = duel("qi_jiguang", att=A, def_troops=4)
    assert pools(g) == (4, 4)
    fight(g, dice=("砲徽徽徽", "徽徽徽徽"))
    assert units(g)["u2"]["troops"] == 2
    g = duel(def_general="qi_jiguang", att=J, extra=[("u3", J, "GG_L", 2)])
    g.do(J, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    assert not [c for c in g.legal(J) if c["type"] == "support"]


def test_sanada_first_strike_and_bonus():
    g = duel("sanada_yukimura", att=J, att_troops=3, def_troops=2)
    p = fight(g, dice=("砲砲徽徽", "砲砲"))
    assert p["defender_dice"] == [] and units(g)["u1"]["troops"] == 4


def test_zheng_zhilong_sea_and_land():
    g = duel(def_general="zheng_zhilong", att=J, land=False)
    assert pools(g) == (1, 3)
    g = duel("zheng_zhilong", att=J, supply=(30, 10))
    assert pools(g) == (4, 3)
    fight(g, dice=("徽徽徽徽", "徽徽徽"))
    assert g.state["supply"] == [30 - 3 + 8, 2]


@pytest.mark.parametrize("gid", ["kato_kiyomasa", "li_rusong"])
def test_general_dies_at_zero_hp_and_portrait_goes_to_enemy(gid):
    side = J if gid == "kato_kiyomasa" else A
    g = duel(def_general=gid, att=1 - side, def_damage=3)
    fight(g, dice=("將徽徽", "徽徽徽徽徽"[: pools(g)[1]]))
    assert g.state["generals"][gid]["where"] == "dead"
    assert gid in g.state["killed"]["allies" if side == J else "japan"]


def test_general_returns_to_hand_healed_when_unit_destroyed():
    g = duel(def_general="kuroda_nagamasa", att=A, def_troops=1, def_damage=2)
    fight(g, dice=("砲砲砲", "徽"))
    assert g.state["generals"]["kuroda_nagamasa"] == {"owner": J, "where": "hand", "unit": None, "damage": 0}
    assert "kuroda_nagamasa" in g.state["hands"][J]


def test_li_rusong_cannot_pass_through_enemies_or_double_move_at_sea():
    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", A, "GW_E", 2, "li_rusong")
        put(s, "u2", J, "GW_W", 1)
        prompt(s, {"kind": "move", "seat": A, "mode": "action", "moved": []}, act={"sea_start": []})

    g.edit(setup)
    paths = [c["path"] for c in g.legal(A) if c["type"] == "move"]
    assert not [p for p in paths if p[0] == "GW_W"]
    assert not [p for p in paths if len(p) == 2 and p[0] == "SOJ"]  # sea legs are not his


def test_kobayakawa_option_two_turns_off_crest_heal():
    from games.rules.imjin.combat import read

    g = duel("kobayakawa_takakage", att=J, att_damage=1)
    s = g.state
    assert read(s, "u1", "u2", ["crest"], "land", True)["heal_hp"] == 1
    s["act"]["kobayakawa"] = 1
    assert read(s, "u1", "u2", ["crest"], "land", True)["heal_hp"] == 1
    s["act"]["kobayakawa"] = 2
    assert read(s, "u1", "u2", ["crest"], "land", True)["heal_hp"] == 0


def _koba_turn(timed=()):
    """J's Move/Battle action is about to start with 小早川 on the map."""
    from imjin_helpers import force_card, reveal_now

    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GG_R", 3, "kobayakawa_takakage", damage=1)
        put(s, "u2", A, "GW_W", 2)
        put(s, "u3", A, "GW_W", 2, "li_rusong")
        put(s, "u4", J, "CC_L", 2)
        s["timed"] = [{"card": c, "left": 2} for c in timed]
        s["position"] = [
            stage_frame({"stage": "turn", "turn": J, "step": "wheel"}),
            {"kind": "advance_wheel", "seat": J},
        ]
        s["act"] = {}

    g.edit(setup)
    force_card(g, "military_farms")
    return reveal_now(g)


def test_kobayakawa_choice_is_a_command_at_the_start_of_move_battle():
    g = _koba_turn()
    assert g.head["kind"] == "kobayakawa" and g.head["seat"] == J
    assert g.legal(J) == [{"type": "kobayakawa", "option": 1}, {"type": "kobayakawa", "option": 2}]
    assert RULES.default_command(g.state, J) == {"type": "kobayakawa", "option": 1}
    with pytest.raises(IllegalCommand):
        g.do(J, {"type": "kobayakawa", "option": 3})
    g.do(J, {"type": "kobayakawa", "option": 1})
    assert g.state["act"]["kobayakawa"] == 1 and g.head["kind"] == "move"
    assert [e.payload for e in g.events if e.type == "imjin.KobayakawaOptionChosen"] == [
        {"seat": J, "option": 1}
    ]
    g.do(J, {"type": "done"})
    legal = g.legal(J)
    assert not [c for c in legal if c["type"] == "discord"]
    assert [c for c in legal if c["type"] == "attack" and c["main"] == "u1"]


def test_kobayakawa_option_two_gives_up_his_units_attack_for_discord():
    g = _koba_turn()
    g.do(J, {"type": "kobayakawa", "option": 2})
    g.do(J, {"type": "done"})
    legal = g.legal(J)
    assert [c for c in legal if c["type"] == "discord" and c["unit"] == "u1"]
    assert not [c for c in legal if c["type"] == "attack" and c["main"] == "u1"]
    g.do(J, {"type": "attack", "target": "u2", "main": "u4", "via": None, "mode": "normal"})
    assert {"type": "support", "unit": "u1"} not in g.legal(J)  # no support either


def test_kobayakawa_choice_not_asked_under_peace_talks():
    g = _koba_turn(timed=("peace_talks",))
    assert g.head["kind"] == "move"
    assert "kobayakawa" not in g.state["act"]


def test_nongae_cannot_taunt_a_female_general():
    g = duel("nongae", "tachibana_ginchiyo", att=A, att_troops=4, def_troops=4)
    fight(g, dice=("徽徽徽徽", "徽徽徽徽徽"))
    assert head_prompt(g.state)["kind"] != "taunt"


def test_taunt_marker_moves_and_is_removed_when_general_leaves():
    g = duel(
        "nongae",
        "kato_kiyomasa",
        att=A,
        att_troops=4,
        def_troops=4,
        extra=[("u3", J, "HG_S", 2, "kuroda_nagamasa")],
    )
    g.edit(lambda s: s.__setitem__("taunt", {"unit": "u3", "general": "kuroda_nagamasa"}))
    fight(g, dice=("徽徽徽徽", "徽徽徽徽徽徽"))
    g.do(A, {"type": "taunt", "go": True})
    assert g.state["taunt"] == {"unit": "u2", "general": "kato_kiyomasa"}  # single marker moved

    def recall_kato(s):
        prompt(
            s,
            {"kind": "manage", "seat": J, "deployed": False, "blocked_generals": [], "blocked_units": []},
            action="supply_general",
        )

    g.edit(recall_kato)
    g.do(J, {"type": "recall", "unit": "u2"})
    assert g.state["taunt"] is None


def test_xing_jie_may_reroll_his_counter_roll_against_second_attack():
    g = duel("fukushima_masanori", "xing_jie", att=J, att_troops=2, def_troops=4)
    assert pools(g) == (3, 5)
    g.do(J, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    g.do(J, {"type": "fight"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("砲砲徽", "徽徽徽徽徽"))
    assert g.head["kind"] == "reroll"  # first exchange: his reroll of the counter-roll
    g.do(A, {"type": "reroll", "dice": []})
    assert g.head["kind"] == "second_attack"
    g.do(J, {"type": "second_attack", "go": True}, rng=scripted("徽徽", "徽徽徽徽徽"))
    assert g.head["kind"] == "reroll" and g.head["seat"] == A
    g.do(A, {"type": "reroll", "dice": [0, 1, 2]}, rng=scripted("砲砲砲"))
    assert "u1" not in g.state["units"]  # 3 rerolled 砲 destroy the 2-troop unit


def test_konishi_heals_back_first_strike_losses_up_to_pre_battle():
    # 鄧子龍 strikes first at sea: 3 → 1; 小西 answers with 1 die, a crest heals 1
    # (capped at the pre-battle 3, not at the post-first-strike 1)
    g = duel("deng_zilong", "konishi_yukinaga", att=A, land=False, att_troops=3, def_troops=3)
    fight(g, dice=("船船徽", "徽"))
    assert units(g)["u2"]["troops"] == 2


def test_liu_ting_gain_respects_the_unit_cap():
    g = duel("liu_ting", att=A, att_troops=4, def_troops=3)
    fight(g, dice=("砲砲徽徽", "徽徽徽"))
    assert units(g)["u1"]["troops"] == 4


def test_fukushima_second_attack_never_hits_nongae_after_the_forced_attack():
    """論介同一回合不能再遭受攻擊: 福島's second attack (a 第二次主動攻擊) may not
    hit her unit after the forced taunt attack."""
    from imjin_helpers import force_card, reveal_now

    g = Game(2, options={"legendary_generals": []}).skip_setup()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GG_R", 3, "fukushima_masanori")
        put(s, "u2", A, "GW_W", 4, "nongae")
        put(s, "u3", A, "HG_N", 1)
        s["taunt"] = {"unit": "u1", "general": "fukushima_masanori"}
        s["position"] = [
            stage_frame({"stage": "turn", "turn": J, "step": "wheel"}),
            {"kind": "advance_wheel", "seat": J},
        ]
        s["act"] = {}

    g.edit(setup)
    force_card(g, "military_farms")
    reveal_now(g)
    assert g.head["kind"] == "declare" and g.head.get("forced")
    g.do(J, {"type": "confirm"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("砲砲徽徽", "徽徽徽徽"))
    assert units(g)["u2"]["troops"] == 2
    assert g.head["kind"] != "second_attack"
    assert "u2" in g.state["act"]["immune"]
