"""Rules version 3 (issue 12 items 4–8): 毛利's cap ends with him, 內訌's defender
stays immune, a 4p loss is never floored away, simultaneous dice net HP like
troops, 祖承訓's splash is optional. Each test failed on version 2; version-2
games keep the old behaviour (the `legacy` tests and the fixture replay)."""

import pytest
from imjin_helpers import LAND, Game, clear_board, duel, fight, force_card, prompt, put, reveal_now, scripted

from games.rules.imjin import events as ev
from games.rules.imjin.invariants import problems
from games.rules.imjin.rules import RULES

J, A = 0, 1
KATO, JOSEON, KONISHI, MING = 0, 1, 2, 3


def units(g):
    return g.state["units"]


def legacy(g):
    """The same table as a game started under rules version 2 (no version key)."""
    return g.edit(lambda s: s.pop("rules_version"))


def test_new_games_carry_the_rules_version_and_old_ones_do_not():
    from games.rules.base import fold, rng_factory

    assert RULES.rules_version >= 3 and RULES.for_rules_version(RULES.rules_version) is RULES
    assert Game(2).state["rules_version"] == RULES.rules_version
    v3 = RULES.for_rules_version(3)
    assert fold(v3, v3.start(["japan", "allies"], {}, rng_factory("x", 1)))["rules_version"] == 3
    old = RULES.for_rules_version(2)
    assert old.rules_version == 2 and RULES.for_rules_version(1) is old
    state = fold(old, old.start(["japan", "allies"], {}, rng_factory("x", 1)))
    assert "rules_version" not in state


# ---------------------------------------------------------------------------
# Item 4: 毛利秀元's 5 only while he leads the unit (also through 努爾哈赤 and 論介).


@pytest.mark.parametrize(
    "attacker,dice", [(None, ("將徽徽", "徽徽徽徽徽")), ("nurhaci", ("徽徽徽徽徽", "徽徽徽徽徽"))]
)
def test_mori_killed_in_battle_leaves_a_unit_of_four(attacker, dice):
    g = duel(attacker, "mori_hidemoto", att=A, def_troops=5, def_damage=2)
    fight(g, dice=dice)
    assert g.state["generals"]["mori_hidemoto"]["where"] == "dead"
    assert units(g)["u2"] == {"owner": J, "area": LAND[1], "troops": 4, "general": None}
    assert problems(g.state) == []


def test_mori_killed_by_nongaes_death_penalty_leaves_a_unit_of_four():
    g = duel("mori_hidemoto", "nongae", att=J, att_troops=5, att_damage=1, def_damage=2)
    g.edit(lambda s: s.__setitem__("taunt", {"unit": "u1", "general": "mori_hidemoto"}))
    fight(g, dice=("將徽徽徽徽", "徽徽徽"))
    assert g.state["generals"]["nongae"]["where"] == "dead"
    assert g.state["generals"]["mori_hidemoto"]["where"] == "dead"  # her 2 HP penalty
    assert units(g)["u1"]["troops"] == 4 and units(g)["u1"]["general"] is None
    assert problems(g.state) == []


def test_invariants_report_a_unit_over_its_cap():
    g = duel(None, "mori_hidemoto", att=A, def_troops=5)
    assert problems(g.state) == []
    g.edit(lambda s: s["units"]["u2"].__setitem__("general", None))
    assert any("u2 has 5 troops" in p for p in problems(g.state))


# ---------------------------------------------------------------------------
# Item 5: 「內訌時應戰的對方部隊本回合不能再遭受攻擊」.


def _discord_table(g):
    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GG_R", 2, "kobayakawa_takakage")
        put(s, "u4", J, "GG_R", 3)
        put(s, "u2", A, "GW_W", 2)
        put(s, "u3", A, "GW_W", 3)
        s["supply"] = [30, 30]
        prompt(s, {"kind": "declare", "seat": J, "draft": None}, act={"kobayakawa": 2})

    return g.edit(setup)


def test_discord_never_picks_a_defender_already_attacked():
    g = _discord_table(Game(2, options={"legendary_generals": []}).skip_setup())
    g.do(J, {"type": "attack", "target": "u2", "main": "u4", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    discords = [c for c in g.legal(J) if c["type"] == "discord"]
    assert discords == [{"type": "discord", "unit": "u1", "attacker": "u2", "defender": "u3"}]


def test_legacy_discord_still_offered_the_attacked_defender():
    g = legacy(_discord_table(Game(2, options={"legendary_generals": []}).skip_setup()))
    g.do(J, {"type": "attack", "target": "u2", "main": "u4", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    assert {"type": "discord", "unit": "u1", "attacker": "u3", "defender": "u2"} in g.legal(J)


def test_a_battle_against_an_immune_unit_is_not_fought():
    g = _discord_table(Game(2, options={"legendary_generals": []}).skip_setup())
    g.do(J, {"type": "attack", "target": "u2", "main": "u4", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    g.edit(lambda s: s["act"].__setitem__("immune", ["u2"]))  # as a version-2 log could leave it
    g.do(J, {"type": "fight"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("馬馬馬", "馬馬"))
    last = [e.payload for e in g.events if e.type == ev.BATTLE_RESOLVED][-1]
    assert last["result"] == "cancelled" and last["attacker_dice"] == []
    assert units(g)["u2"]["troops"] == 2 and units(g)["u4"]["troops"] == 3


# ---------------------------------------------------------------------------
# Item 6: 農害 / 補給船難 at 4p: the side loses 5 (or all it has), split freely.


def _blight(stocks):
    g = force_card(Game(4, options={"legendary_generals": []}).skip_setup(), "crop_blight")
    g.edit(lambda s: s.__setitem__("supply", list(stocks)))
    reveal_now(g)  # Kato's turn: the allied chooser is Joseon
    assert g.head["kind"] == "split" and g.head["seat"] == JOSEON
    return g


def test_a_broke_chooser_cannot_make_the_side_dodge_a_loss():
    g = _blight([20, 0, 20, 20])
    assert [c["mine"] for c in g.legal(JOSEON)] == [0]
    assert RULES.default_command(g.state, JOSEON) == {"type": "split", "mine": 0}
    g.do(JOSEON, {"type": "split", "mine": 0})
    assert g.state["supply"][JOSEON] == 0 and g.state["supply"][MING] == 15


def test_the_split_is_free_within_the_stocks_and_totals_the_loss():
    g = _blight([20, 3, 20, 20])
    assert [c["mine"] for c in g.legal(JOSEON)] == [0, 1, 2, 3]
    g.do(JOSEON, {"type": "split", "mine": 3})
    assert g.state["supply"][JOSEON] == 0 and g.state["supply"][MING] == 18


def test_a_side_with_less_than_five_loses_all_it_has():
    g = _blight([20, 2, 20, 1])
    assert [c["mine"] for c in g.legal(JOSEON)] == [2]
    g.do(JOSEON, {"type": "split", "mine": 2})
    assert g.state["supply"][JOSEON] == 0 and g.state["supply"][MING] == 0


def test_legacy_split_still_floors_each_stock():
    g = force_card(legacy(Game(4, options={"legendary_generals": []}).skip_setup()), "crop_blight")
    g.edit(lambda s: s.__setitem__("supply", [20, 0, 20, 20]))
    reveal_now(g)
    g.do(JOSEON, {"type": "split", "mine": 5})
    assert g.state["supply"][MING] == 20


# ---------------------------------------------------------------------------
# Item 7: 「攻防雙方擲骰結果同時結算」: HP heals and damage net like troops.


def test_kobayakawas_crests_net_against_a_simultaneous_general_hit():
    g = duel("kobayakawa_takakage", att=J, att_damage=2)  # 1 HP left
    fight(g, dice=("徽徽徽", "將徽徽"))
    rec = g.state["generals"]["kobayakawa_takakage"]
    assert rec["where"] == "map" and rec["damage"] == 0  # 2 + 1 − 3, floored at full health


def test_kobayakawa_still_dies_when_hits_outnumber_his_crests():
    g = duel("kobayakawa_takakage", att=J, att_damage=1)  # 2 HP left
    fight(g, dice=("徽馬馬", "將將將"))
    assert g.state["generals"]["kobayakawa_takakage"]["where"] == "dead"


def test_konishi_troop_heals_still_net_simultaneously():
    g = duel("konishi_yukinaga", att=J, att_troops=1, def_troops=3)
    fight(g, dice=("徽", "馬徽"))
    assert units(g)["u1"]["troops"] == 1


# ---------------------------------------------------------------------------
# Item 8: 祖承訓「可對同一區域另一對方部隊…」: offered, not forced.


def _zu():
    g = duel("zu_chengxun", att=A, def_troops=3, extra=[("u3", J, LAND[1], 2)])
    fight(g, dice=("砲徽徽", "徽徽"))
    return g


def test_zu_chengxun_offers_the_splash():
    g = _zu()
    assert g.head == {"kind": "splash", "seat": A, "unit": "u3"}
    assert g.legal(A) == [{"type": "splash", "go": True}, {"type": "splash", "go": False}]
    assert RULES.default_command(g.state, A) == {"type": "splash", "go": False}
    g.do(A, {"type": "splash", "go": True})
    assert units(g)["u3"]["troops"] == 1


def test_zu_chengxun_may_decline_the_splash():
    g = _zu()
    g.do(A, {"type": "splash", "go": False})
    assert units(g)["u3"]["troops"] == 2


def test_legacy_zu_chengxun_splash_is_automatic():
    g = legacy(duel("zu_chengxun", att=A, def_troops=3, extra=[("u3", J, LAND[1], 2)]))
    fight(g, dice=("砲徽徽", "徽徽"))
    assert units(g)["u3"]["troops"] == 1 and g.head["kind"] != "splash"


def test_no_area_carries_an_alias_the_seed_leaves_open():
    from games.rules.imjin import data

    assert all("alias" not in a for a in data.areas().values())  # Appendix R #12
