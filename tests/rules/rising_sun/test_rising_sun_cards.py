"""One test per season card (40 distinct cards, 66 copies): each asserts the
card's real effect, usually against the same position without the card."""

import pytest

from games.rules.rising_sun.data import CARDS, SETS, season_deck
from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]  # seats 0..3, Honor in this order


def g4():
    return Game(FOUR).clear()


def recruit(g, clan, prov, **extra):
    """`clan` recruits once at a Stronghold in `prov` (one Summon instance)."""
    g.strongholds(clan, [prov])
    g.frame("recruit", seat=g.seat(clan), slots={prov: 1}, extra=0, any=0, count=0)
    return g.do(clan, type="summon", kind="bushi", province=prov, **extra)


def test_deck_sizes_and_copies():
    assert sum(sum(c["sets"].values()) for c in CARDS.values()) == 66
    for st in SETS:
        for season in ("spring", "summer", "autumn"):
            assert len(season_deck(season, st)) == 12


# ------------------------------------------------------------------ monsters


def test_komainu_may_be_summoned_to_a_shrine_and_betrayed_as_shinto():
    g = g4().strongholds("Koi", ["Edo"]).set("Koi", coins=5).display("Komainu")
    g.frame("train", seat=0, discount=0, ryujin=False)
    g.do("Koi", type="buy", card="Komainu")
    assert {"type": "place", "province": "Edo", "shrine": "Fujin"} in g.legal("Koi")
    g.do("Koi", type="place", province="Edo", shrine="Fujin")
    assert g.count("Koi", "shrine:Fujin", "Komainu") == 1 and g.coins("Koi") == 3
    g.s["figures"]["m:Komainu"]["at"] = "reserve"
    g.put("Lotus", "shinto", "Kansai")
    g.frame("betray", seat=0, base=2, extra=0, targeted=[])
    assert {"type": "betray", "owner": 1, "at": "Kansai", "kind": "shinto", "with": "Komainu"} in g.legal(
        "Koi"
    )


@pytest.mark.parametrize("name,low,high", [("Oni of Skulls", 3, 1), ("Oni of Blood", 4, 2)])
def test_oni_force_depends_on_lowest_honor(name, low, high):
    g = g4().put("Turtle", name, "Nagato")
    assert g.force("Turtle", "Nagato") == high  # alone: not "lowest among several"
    g.put("Koi", "bushi", "Nagato")
    assert g.force("Turtle", "Nagato") == low  # Turtle has less Honor than Koi
    g.put("Dragonfly", "bushi", "Nagato")
    assert g.force("Turtle", "Nagato") == high  # Dragonfly is now the lowest


def test_yurei_force_two_counts_as_daimyo():
    g = g4().put("Lotus", "Yurei", "Kansai")
    assert g.force("Lotus", "Kansai") == 2
    g.card("Lotus", "Path of the Lion")
    assert g.force("Lotus", "Kansai") == 3
    g.put("Koi", "Komainu", "reserve")
    g.frame("betray", seat=0, base=2, extra=0, targeted=[])
    assert not [c for c in g.legal("Koi") if c.get("at") == "Kansai"]  # immune to Betray


def test_river_dragon_force_five():
    g = g4().put("Koi", "River Dragon", "Edo")
    assert g.force("Koi", "Edo") == 5


def _lone_war(g, prov):
    return g.war_phase([prov])


def test_oni_of_souls_two_vp_per_oni_owned_when_winning_a_battle_it_took_part_in():
    # Oni of Souls pays when its owner wins a battle in which it took part (§6.2,
    # §7 item 7), even if it died in that battle (Seppuku by its owner here)
    g = g4().put("Lotus", "Oni of Souls", "Kansai").put("Lotus", "Oni of Skulls", "reserve")
    g.put("Koi", "bushi", "Kansai").set("Lotus", coins=2, ronin=3).set("Koi", coins=0)
    g.war_phase(["Kansai"])
    g.bid("Koi").bid("Lotus", seppuku=1, ronin=1)
    g.choose("Lotus", "commit")  # the Oni dies: 1 VP
    assert g.count("Lotus", "Kansai") == 0 and g.vp("Lotus") == 1
    g.choose("Lotus", "hire")  # 3 Ronin beat Koi's Bushi
    assert ["Kansai", "spring"] in g.p("Lotus")["war_tokens"] and g.vp("Lotus") == 1 + 4
    g2 = g4().put("Lotus", "Oni of Souls", "Kansai").put("Lotus", "Oni of Skulls", "reserve")
    g2.put("Lotus", "bushi", "Kansai").put("Koi", "bushi", "Kansai").set("Koi", coins=0).set("Lotus", coins=0)
    g2.war_phase(["Kansai"])
    g2.bid("Koi").bid("Lotus")
    assert ["Kansai", "spring"] in g2.p("Lotus")["war_tokens"] and g2.vp("Lotus") == 4


def test_oni_of_souls_does_not_pay_without_a_battle():
    # uncontested: no battle takes place (rulebook p.21), so the Oni took part in none
    g = g4().put("Lotus", "Oni of Souls", "Kansai").put("Lotus", "Oni of Skulls", "reserve")
    g.war_phase(["Kansai"])
    assert ["Kansai", "spring"] in g.p("Lotus")["war_tokens"] and g.vp("Lotus") == 0
    g2 = g4().put("Lotus", "Oni of Souls", "Kansai").put("Turtle", "bushi", "Kansai").ally("Lotus", "Turtle")
    g2.war_phase(["Kansai"])  # two allies alone: no battle either
    assert ["Kansai", "spring"] in g2.p("Lotus")["war_tokens"] and g2.vp("Lotus") == 0


def test_oni_of_hate_kills_one_bushi_or_shinto_of_each_higher_honor_clan():
    g = g4().put("Turtle", "Oni of Hate", "Kyoto")
    g.put("Koi", "bushi", "Kansai").put("Koi", "shinto", "Kansai").put("Koi", "daimyo", "Kansai")
    g.put("Lotus", "bushi", "Kansai").put("Dragonfly", "bushi", "Kansai")
    g.frame("fujin", seat=2, moves=2, toll=False)
    g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "Oni of Hate", "to": "Kansai"})
    assert g.top()["what"] == "oni_of_hate" and g.top()["options"] == ["bushi", "shinto"]
    g.choose("Turtle", "shinto")
    assert g.count("Koi", "Kansai") == 2 and g.count("Koi", "Kansai", "shinto") == 0
    assert g.count("Lotus", "Kansai") == 0  # only a Bushi: killed without a choice
    assert g.count("Dragonfly", "Kansai") == 1  # lower Honor than Turtle: spared


def test_oni_of_spite_steals_two_vp_from_higher_honor_clans_present():
    g = g4().put("Turtle", "Oni of Spite", "Kyoto")
    g.put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai").put("Dragonfly", "bushi", "Kansai")
    g.set("Koi", vp=5).set("Lotus", vp=1).set("Dragonfly", vp=5)
    g.frame("fujin", seat=2, moves=1, toll=False)
    g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "Oni of Spite", "to": "Kansai"})
    assert (g.vp("Turtle"), g.vp("Koi"), g.vp("Lotus"), g.vp("Dragonfly")) == (3, 3, 0, 5)


# ------------------------------------------------------------------ upgrades


@pytest.mark.parametrize("card,force", [(None, 1), ("Path of the Lion", 2), ("Path of the Dragon", 4)])
def test_daimyo_paths(card, force):
    g = g4().put("Koi", "daimyo", "Edo")
    if card:
        g.card("Koi", card)
    assert g.force("Koi", "Edo") == force


def test_path_of_the_serpent_may_charge_one_coin_per_route_use():
    g = g4().card("Koi", "Path of the Serpent").put("Lotus", "bushi", "Kansai", 2).set("Lotus", coins=2)
    g.frame("marshal", seat=1, moved=[], strongholds_moved=[], bonus=False, toll=False)
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Shikoku"})
    assert g.pending() == [(0, "path_of_the_serpent")] and g.top()["options"] == ["waive", "charge"]
    g.choose("Koi", "charge")
    assert g.coins("Lotus") == 1 and g.coins("Koi") == 6  # income 5 + toll
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Shikoku"})
    assert g.coins("Lotus") == 1 and g.top() is None  # once per Marshal
    g2 = g4().card("Koi", "Path of the Serpent").put("Lotus", "bushi", "Kansai").set("Lotus", coins=0)
    g2.frame("marshal", seat=1, moved=[], strongholds_moved=[], bonus=False, toll=False)
    tos = {c["to"] for c in g2.legal("Lotus") if c["type"] == "move"}
    assert "Kyoto" in tos and "Shikoku" not in tos  # no coin: no shipping route


def test_path_of_the_serpent_is_optional_and_waiving_is_the_default():
    g = g4().card("Koi", "Path of the Serpent").put("Lotus", "bushi", "Kansai", 2).set("Lotus", coins=2)
    g.frame("marshal", seat=1, moved=[], strongholds_moved=[], bonus=False, toll=False)
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Shikoku"})
    from games.rules.rising_sun.rules import RULES

    assert RULES.default_command(g.s, 0) == {"type": "choose", "choice": "waive"}
    g.choose("Koi", "waive")
    assert g.coins("Lotus") == 2 and g.coins("Koi") == 5
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Kyushu"})
    assert g.top() is None and g.coins("Lotus") == 2  # one decision per movement instance


def test_path_of_the_serpent_toll_is_settled_before_the_bonus_build():
    g = g4().card("Koi", "Path of the Serpent").put("Lotus", "bushi", "Kansai").set("Lotus", coins=3)
    g.frame("marshal", seat=1, moved=[], strongholds_moved=[], bonus=True, toll=False)
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Shikoku"})
    assert g.top()["what"] == "path_of_the_serpent"
    g.choose("Koi", "charge")
    assert g.coins("Lotus") == 2 and g.top() is None  # 2 coins left: no Stronghold (3)


def test_path_of_the_serpent_in_a_fujin_activation():
    g = g4().card("Koi", "Path of the Serpent").put("Lotus", "bushi", "Kansai").set("Lotus", coins=1)
    g.frame("fujin", seat=1, moves=2, toll=False)
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Shikoku"})
    g.choose("Koi", "charge")
    assert g.coins("Lotus") == 0 and g.top()["kind"] == "fujin"
    g.do("Lotus", type="move", **{"from": "Shikoku", "kind": "bushi", "to": "Kyushu"})  # route again: free
    assert g.count("Lotus", "Kyushu") == 1 and g.top() is None


def test_path_of_the_ninja_kills_a_bushi_and_costs_honor():
    g = g4().card("Lotus", "Path of the Ninja").put("Koi", "bushi", "Oshu")
    recruit(g, "Lotus", "Nagato")
    assert g.top()["what"] == "path_of_the_ninja" and "0:Oshu" in g.top()["options"]
    g.choose("Lotus", "0:Oshu")
    assert g.count("Koi", "Oshu") == 0 and g.rank("Lotus") == 2


def test_path_of_the_monkey_takes_from_the_richest():
    g = g4().card("Dragonfly", "Path of the Monkey")
    g.set("Koi", coins=5).set("Lotus", coins=5).set("Turtle", coins=2).set("Dragonfly", coins=0)
    g.honor("Dragonfly", "Koi", "Lotus", "Turtle")
    recruit(g, "Dragonfly", "Hokkaido")
    g.choose("Dragonfly", "take")
    assert [g.coins(c) for c in FOUR] == [4, 4, 2, 2]
    assert g.rank("Dragonfly") == 1  # Honor lost once


@pytest.mark.parametrize("top,coins,vp", [(True, 2, 2), (False, 0, 0)])
def test_path_of_the_spirit_needs_highest_honor(top, coins, vp):
    g = g4().card("Turtle", "Path of the Spirit").set("Turtle", coins=0)
    if top:
        g.honor("Turtle", "Koi", "Lotus", "Dragonfly")
    recruit(g, "Turtle", "Kyoto")
    assert (g.coins("Turtle"), g.vp("Turtle")) == (coins, vp)


def test_path_of_the_kenin_places_an_extra_bushi():
    g = g4().card("Koi", "Path of the Kenin")
    recruit(g, "Koi", "Edo")
    assert g.top()["options"] == ["pass", "Edo"]
    g.choose("Koi", "Edo")
    assert g.count("Koi", "Edo", "bushi") == 2


@pytest.mark.parametrize(
    "card,what,choice,loc",
    [
        ("Path of the Light", "path_of_the_light", "Fujin", "shrine:Fujin"),
        ("Path of the Samurai", "path_of_the_samurai", "Hokkaido", "Hokkaido"),
    ],
)
def test_end_of_recruit_placements(card, what, choice, loc):
    g = g4().card("Lotus", card)
    g.frame("mandate", mandate="recruit", chooser=0, order=[], step=0)
    assert g.top()["what"] == what
    g.choose("Lotus", choice)
    assert g.count("Lotus", loc) == 1
    g2 = g4().card("Lotus", card)
    g2.frame("mandate", mandate="marshal", chooser=0, order=[], step=0)
    assert g2.top() is None  # only at the end of a Recruit


@pytest.mark.parametrize("clan,coins", [("Koi", 2), ("Dragonfly", 0)])
def test_path_of_the_patron(clan, coins):
    g = g4().card(clan, "Path of the Patron").set(clan, coins=0)
    recruit(g, clan, "Kyushu")
    assert g.coins(clan) == coins


def test_path_of_the_warlord_once_per_summon_instance_per_copy():
    g = g4().card("Lotus", "Path of the Warlord", 2).set("Lotus", coins=0).strongholds("Lotus", ["Nagato"])
    g.frame("recruit", seat=1, slots={"Nagato": 1}, extra=1, any=0, count=0)
    g.do("Lotus", type="summon", kind="bushi", province="Nagato")
    g.do("Lotus", type="summon", kind="bushi", province="Nagato")
    assert g.coins("Lotus") == 2


def test_way_of_the_merchant_when_a_richer_player_gains_coins():
    g = g4().card("Lotus", "Way of the Merchant").shrines("Tsukuyomi", "Fujin", "Hachiman", "Raijin")
    g.set("Koi", coins=5).set("Lotus", coins=1).set("Turtle", coins=1).put(
        "Koi", "shinto", "shrine:Tsukuyomi"
    )
    g.kami_turn()
    assert (g.coins("Koi"), g.coins("Lotus"), g.coins("Turtle")) == (7, 2, 1)
    g2 = g4().card("Lotus", "Way of the Merchant").shrines("Tsukuyomi", "Fujin", "Hachiman", "Raijin")
    g2.set("Koi", coins=5).set("Lotus", coins=9).put("Koi", "shinto", "shrine:Tsukuyomi")
    g2.kami_turn()
    assert g2.coins("Lotus") == 9


def test_path_of_the_unrighteous_extra_target_even_same_player_or_shrine():
    g = g4().put("Lotus", "bushi", "Kansai", 2).put("Lotus", "shinto", "shrine:Fujin")
    g.frame("betray", seat=0, base=2, extra=0, targeted=[])
    g.do("Koi", type="betray", owner=1, at="Kansai", kind="bushi", **{"with": "bushi"})
    assert not any(c.get("owner") == 1 for c in g.legal("Koi"))
    g2 = g4().card("Koi", "Path of the Unrighteous").put("Lotus", "bushi", "Kansai", 2)
    g2.put("Lotus", "shinto", "shrine:Fujin")
    g2.frame("betray", seat=0, base=2, extra=1, targeted=[])
    g2.do("Koi", type="betray", owner=1, at="Kansai", kind="bushi", **{"with": "bushi"})
    assert {
        "type": "betray",
        "owner": 1,
        "at": "shrine:Fujin",
        "kind": "shinto",
        "with": "shinto",
    } in g2.legal("Koi")
    g2.do("Koi", type="betray", owner=1, at="Kansai", kind="bushi", **{"with": "bushi"})
    assert g2.count("Koi", "Kansai") == 2 and g2.count("Lotus", "Kansai") == 0


# ------------------------------------------------------------------- virtues


def _hate_into_kansai(g):
    g.put("Turtle", "Oni of Hate", "Kyoto")
    g.frame("fujin", seat=2, moves=1, toll=False)
    return g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "Oni of Hate", "to": "Kansai"})


def test_righteousness_vp_per_own_figure_killed():
    g = g4().card("Lotus", "Righteousness").put("Lotus", "bushi", "Kansai")
    _hate_into_kansai(g)
    assert g.count("Lotus", "Kansai") == 0 and g.vp("Lotus") == 1


def _battle_koi_lotus(g, koi_bid, lotus_bid):
    g.put("Koi", "bushi", "Kansai", 2).put("Lotus", "bushi", "Kansai").put("Lotus", "shinto", "Kansai")
    g.put("Koi", "bushi", "Edo").put("Lotus", "bushi", "Edo")  # a 2nd battle keeps the war going
    g.set("Koi", coins=5).set("Lotus", coins=5)
    g.war_phase(["Kansai", "Edo"])
    g.bid("Koi", **koi_bid)
    return g.bid("Lotus", **lotus_bid)


def test_respect_takes_an_extra_hostage():
    g = g4().card("Koi", "Respect").set("Lotus", vp=3)
    _battle_koi_lotus(g, {"hostage": 1}, {})
    g.choose("Koi", "1:bushi")
    assert g.top()["what"] == "take_hostage"
    g.choose("Koi", "1:shinto")
    assert g.count("Lotus", "hostage:0") == 2 and g.vp("Lotus") == 1 and g.vp("Koi") >= 2


def test_courage_two_vp_per_war_token():
    g = g4().card("Koi", "Courage").put("Koi", "bushi", "Edo")
    g.war_phase(["Edo"])
    assert g.vp("Koi") == 2


def test_mercy_spares_the_losers_for_two_vp():
    g = g4().card("Koi", "Mercy")
    _battle_koi_lotus(g, {}, {})
    assert g.top()["what"] == "mercy"
    g.choose("Koi", "spare")
    assert g.count("Lotus", "Kansai") == 2 and g.vp("Koi") == 2


def test_benevolence_gives_a_paid_coin_for_honor_and_vp():
    g = (
        g4()
        .card("Turtle", "Benevolence")
        .set("Turtle", coins=5)
        .set("Lotus", coins=0)
        .display("Path of the Dragon")
    )
    g.frame("train", seat=2, discount=0, ryujin=False)
    g.do("Turtle", type="buy", card="Path of the Dragon")
    assert g.top()["what"] == "benevolence"
    g.choose("Turtle", "1")
    assert g.coins("Turtle") == 2 and g.coins("Lotus") == 1 and g.vp("Turtle") == 2 and g.rank("Turtle") == 1


def test_justice_three_vp_for_killing_lower_honor_figures():
    g = g4().card("Koi", "Justice")
    _battle_koi_lotus(g, {}, {})
    assert g.count("Lotus", "Kansai") == 0 and g.vp("Koi") == 3


@pytest.mark.parametrize("mandate,vp", [("harvest", 2), ("betray", 0)])
def test_honesty_vp_when_allied_and_not_betraying(mandate, vp):
    g = g4().card("Koi", "Honesty").ally("Koi", "Lotus")
    g.mandate_turn("Koi", [mandate, "recruit", "marshal", "train"])
    g.do("Koi", type="choose_mandate", tile=mandate)
    assert g.vp("Koi") == vp


@pytest.mark.parametrize("allied,vp", [(True, 3), (False, 2)])
def test_loyalty_one_extra_vp_per_gain_while_allied(allied, vp):
    g = g4().card("Koi", "Loyalty").shrines("Susanoo", "Fujin", "Hachiman", "Raijin")
    g.strongholds("Koi", ["Edo", "Oshu"]).put("Koi", "shinto", "shrine:Susanoo")
    if allied:
        g.ally("Koi", "Lotus")
    g.kami_turn()
    assert g.vp("Koi") == vp


# -------------------------------------------------------------- war upgrades


@pytest.mark.parametrize(
    "card,coins,ronin",
    [("Way of the Shogun", 3, 0), ("Way of the Moneylender", 5, 0), ("Way of the Ronin", 0, 2)],
)
def test_simple_war_upgrades(card, coins, ronin):
    g = g4().card("Lotus", card).set("Lotus", coins=0, ronin=0)
    g.until("war_start")
    assert (g.coins("Lotus"), g.p("Lotus")["ronin"]) == (coins, ronin)


def test_way_of_the_ronin_on_koi_becomes_coins():
    g = g4().card("Koi", "Way of the Ronin").set("Koi", coins=0, ronin=1)
    g.until("war_start")
    assert (g.coins("Koi"), g.p("Koi")["ronin"]) == (3, 0)


def test_way_of_bushido_per_different_virtue():
    g = (
        g4()
        .card("Lotus", "Way of Bushido")
        .card("Lotus", "Justice", 2)
        .card("Lotus", "Courage")
        .set("Lotus", coins=0)
    )
    g.until("war_start")
    assert (g.coins("Lotus"), g.vp("Lotus")) == (4, 4)


def test_way_of_the_righteous_takes_from_lower_honor():
    g = g4().card("Lotus", "Way of the Righteous")
    g.set("Koi", coins=3).set("Lotus", coins=0).set("Turtle", coins=2).set("Dragonfly", coins=0)
    g.until("war_start")
    assert [g.coins(c) for c in FOUR] == [3, 1, 1, 0]


def test_way_of_the_katana_bushi_force_two_in_war():
    g = g4().card("Turtle", "Way of the Katana").put("Turtle", "bushi", "Kyoto", 2)
    assert g.force("Turtle", "Kyoto") == 2
    g.until("war_start")
    assert g.force("Turtle", "Kyoto") == 4


# ------------------------------------------------------------ winter upgrades


def _winter(g, clan):
    g.auto("winter")
    return g.s["winter"][str(g.seat(clan))]


def test_form_of_the_kitsune():
    g = g4().card("Koi", "Form of the Kitsune").strongholds("Koi", ["Edo", "Oshu", "Kyoto"])
    assert _winter(g, "Koi")["Form of the Kitsune"] == 9 and g.vp("Koi") == 9


def test_form_of_the_phoenix_counts_different_virtues():
    g = g4().card("Koi", "Form of the Phoenix").card("Koi", "Justice", 2).card("Koi", "Courage")
    assert _winter(g, "Koi")["Form of the Phoenix"] == 6


@pytest.mark.parametrize("card,vp", [("Form of the Demon", 6), ("Form of the Beast", 9)])
def test_forms_counting_monsters_even_in_reserve_or_hostage(card, vp):
    g = g4().card("Lotus", card).put("Lotus", "Oni of Skulls", "Kansai").put("Lotus", "Komainu", "reserve")
    g.put("Lotus", "Oni of Hate", "hostage:0")
    assert _winter(g, "Lotus")[card] == vp


def test_form_of_the_kindred_per_season_allied():
    g = g4().card("Turtle", "Form of the Kindred").set("Turtle", alliance_seasons=["spring", "autumn"])
    assert _winter(g, "Turtle")["Form of the Kindred"] == 6


def test_every_card_has_a_test_above():
    import pathlib

    text = pathlib.Path(__file__).read_text()
    missing = [n for n in CARDS if f'"{n}"' not in text]
    assert not missing


@pytest.mark.parametrize("timing,lotus,turtle", [("first", 0, 5), ("last", 1, 4)])
def test_highest_honor_war_upgrade_owner_chooses_first_or_last(timing, lotus, turtle):
    g = g4().card("Lotus", "Way of the Righteous").card("Turtle", "Way of the Moneylender")
    g.set("Lotus", coins=0).set("Turtle", coins=0).set("Dragonfly", coins=0)
    g.put("Koi", "bushi", "Edo").put("Dragonfly", "bushi", "Edo")  # a battle halts the war afterwards
    g.s["war_provinces"] = ["Edo"]
    g.frame("war_start")
    assert g.top()["what"] == "war_upgrade_timing" and g.top()["seat"] == 1
    g.choose("Lotus", timing)
    assert (g.coins("Lotus"), g.coins("Turtle")) == (lotus, turtle)
