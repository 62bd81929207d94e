"""Appendix R of rising-sun.md (review against the Spanish rulebook): one test
per decision that no other test file pins down explicitly."""

from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]  # seats 0..3, Honor in this order


def g4():
    return Game(FOUR).clear()


def _battle(g, prov, **bids):
    g.war_phase([prov])
    for c in FOUR:
        if (g.seat(c), "war_bid") in g.pending():
            g.bid(c, **bids.get(c, {}))
    return g


def test_r8_every_figure_on_a_shrine_komainu_included_returns_at_cleanup():
    g = g4().put("Lotus", "Komainu", "shrine:Fujin").put("Koi", "shinto", "shrine:Hachiman")
    g.s["war_provinces"] = []
    g.frame("cleanup")
    assert g.count("Lotus", "shrine:Fujin") == 0 and g.count("Lotus", "reserve", "Komainu") == 1
    assert g.count("Koi", "shrine:Hachiman") == 0


def test_r10_daimyo_dies_in_a_lost_battle_and_in_its_own_seppuku():
    g = g4().put("Koi", "daimyo", "Kansai").put("Lotus", "bushi", "Kansai", 2).set("Koi", coins=0)
    _battle(g, "Kansai", Lotus={"seppuku": 0})
    assert g.count("Koi", "Kansai") == 0 and g.count("Koi", "reserve", "daimyo") == 1
    g = g4().put("Koi", "daimyo", "Kansai").put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai")
    g.set("Koi", coins=1).set("Lotus", coins=0)
    _battle(g, "Kansai", Koi={"seppuku": 1})
    g.choose("Koi", "commit")
    assert g.count("Koi", "Kansai") == 0 and g.vp("Koi") == 2


def test_r13_harvest_needs_force_to_win_a_province():
    g = g4().honor("Dragonfly", "Koi", "Lotus", "Turtle")
    for c in FOUR:
        g.set(c, coins=0)
    g.mandate_turn("Dragonfly", ["harvest", "recruit", "marshal", "train"])
    g.do("Dragonfly", type="choose_mandate", tile="harvest")
    assert g.vp("Dragonfly") == 0 and g.coins("Dragonfly") == 1  # top Honor, 0 Force: nothing


def test_r15_turtle_stronghold_survives_seppuku_and_is_not_counted_by_poets():
    g = (
        g4()
        .strongholds("Turtle", ["Kansai"])
        .put("Turtle", "bushi", "Kansai")
        .put("Koi", "bushi", "Kansai", 3)
    )
    g.set("Turtle", coins=2).set("Koi", coins=0)
    _battle(g, "Kansai", Turtle={"seppuku": 1, "poets": 1})
    g.choose("Turtle", "commit")  # 1 Bushi killed: 1 VP, the Stronghold stays with Force 1
    assert (
        g.vp("Turtle") == 1
        and g.p("Turtle")["strongholds"] == ["Kansai"]
        and g.force("Turtle", "Kansai") == 1
    )
    g.choose("Turtle", "compose")  # Koi won; killed = the Bushi only (Strongholds never die)
    assert g.vp("Turtle") == 1 + 1 and g.p("Turtle")["strongholds"] == ["Kansai"]


def test_r17_the_choosers_ally_buys_in_seat_order_with_the_discount():
    g = g4().ally("Turtle", "Koi").display("Path of the Kenin", "Path of the Kenin")
    for c in FOUR:
        g.set(c, coins=1)
    g.mandate_turn("Turtle", ["train", "recruit", "marshal", "harvest"])
    g.do("Turtle", type="choose_mandate", tile="train")
    assert g.top()["kind"] == "train" and g.top()["seat"] == 2  # the chooser first
    g.do("Turtle", type="buy", card="Path of the Kenin")
    # then clockwise from its left: Dragonfly (no discount, 1 coin: nothing to buy, skipped), then Koi
    assert g.top()["kind"] == "train" and g.top()["seat"] == 0
    g.do("Koi", type="buy", card="Path of the Kenin")  # the ally: 2 - 1 = 1 coin
    assert g.coins("Koi") == 0 and "Path of the Kenin" in g.p("Koi")["cards"]


def test_r18_a_stronghold_built_in_a_marshal_cannot_move_in_that_marshal():
    g = g4().strongholds("Turtle", ["Kyoto"]).set("Turtle", coins=3)
    g.frame("marshal", seat=2, moved=[], strongholds_moved=[], bonus=True, toll=False)
    g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "stronghold", "to": "Kansai"})
    assert g.top()["kind"] == "build"  # all moves done, then the build
    g.do("Turtle", type="build", province="Edo")
    assert g.top() is None and sorted(g.p("Turtle")["strongholds"]) == ["Edo", "Kansai"]


def test_r24_raijin_with_no_bushi_in_reserve_does_nothing():
    g = g4().put("Koi", "shinto", "shrine:Raijin").shrines("Raijin", "Fujin", "Hachiman", "Tsukuyomi")
    g.put("Koi", "bushi", "Edo", 6)
    g.kami_turn()
    assert g.top()["kind"] == "choose_mandate" and g.count("Koi", "reserve", "bushi") == 0


def test_r25_hostages_are_not_betray_targets_and_yurei_may_replace_a_monster():
    g = g4().put("Lotus", "bushi", "hostage:2").put("Turtle", "Oni of Skulls", "Kyoto")
    g.put("Koi", "Yurei", "reserve")
    g.frame("betray", seat=0, base=2, extra=0, targeted=[])
    legal = g.legal("Koi")
    assert not any(c.get("at", "").startswith("hostage") for c in legal)
    assert {"type": "betray", "owner": 2, "at": "Kyoto", "kind": "Oni of Skulls", "with": "Yurei"} in legal


def test_r26_lotus_declaring_betray_breaks_its_alliance_and_gets_no_honesty():
    g = g4().ally("Lotus", "Turtle").card("Lotus", "Honesty")
    g.mandate_turn("Lotus", ["harvest", "recruit", "marshal", "train"])
    g.do("Lotus", type="choose_mandate", tile="harvest", declare="betray")
    assert g.s["alliances"][1] is None and g.rank("Lotus") == 2 and g.vp("Lotus") == 0
    g = g4().ally("Lotus", "Turtle").card("Lotus", "Honesty")
    g.mandate_turn("Lotus", ["betray", "recruit", "marshal", "train"])
    g.do("Lotus", type="choose_mandate", tile="betray", declare="marshal")
    assert g.s["alliances"][1] == 2 and g.vp("Lotus") == 2  # the face-down tile has no effect


def test_r27_take_hostage_with_no_legal_target_steals_nothing():
    g = g4().put("Koi", "bushi", "Kansai").put("Lotus", "daimyo", "Kansai").set("Lotus", vp=3)
    g.set("Koi", coins=1).set("Lotus", coins=0)
    _battle(g, "Kansai", Koi={"hostage": 1})
    assert g.vp("Lotus") == 3 and g.vp("Koi") == 0  # a Daimyo is immune: no prompt, no VP


def test_r30_an_autumn_alliance_lasts_into_winter_and_loyalty_adds_one_once():
    g = g4().ally("Koi", "Lotus").card("Koi", "Loyalty").card("Koi", "Form of the Kitsune")
    g.strongholds("Koi", ["Edo", "Oshu"]).set("Koi", war_tokens=[["Edo", "autumn"]])
    g.auto("winter")
    assert g.vp("Koi") == 6 + 3 + 1


def test_r31_seppuku_with_no_figure_is_legal_and_does_nothing():
    g = g4().strongholds("Turtle", ["Kansai"]).put("Koi", "bushi", "Kansai")
    g.set("Turtle", coins=1).set("Koi", coins=0)
    _battle(g, "Kansai", Turtle={"seppuku": 1})
    assert g.top()["what"] == "seppuku"
    g.choose("Turtle", "commit")
    assert g.vp("Turtle") == 0 and g.rank("Turtle") == 2
