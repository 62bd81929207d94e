"""Every worked example of the Spanish rulebook v1.4 (seed 002), with its numbers."""

from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]


def test_recruit_example_lotus_p14():
    g = Game(FOUR).clear().strongholds("Lotus", ["Kyushu", "Kyushu", "Nagato"])
    g.put("Lotus", "Yurei", "reserve")
    g.mandate_turn("Lotus", ["harvest", "marshal", "train", "betray"])
    # Lotus plays a tile face down and declares Recruit (its clan ability)
    g.do("Lotus", type="choose_mandate", tile="harvest", declare="recruit")
    assert g.s["track"][-1]["mandate"] == "recruit" and g.s["track"][-1]["face_down"]
    assert g.pending() == [(1, "recruit")]  # the others have no Stronghold: nothing to do
    g.do("Lotus", type="summon", kind="bushi", province="Kyushu")
    g.do("Lotus", type="summon", kind="shinto", province="Kyushu")
    g.do("Lotus", type="summon", kind="shinto", province="Nagato", shrine="Hachiman")
    g.do("Lotus", type="summon", kind="Yurei", province="Nagato")  # the bonus summon
    # 3 Strongholds + 1 bonus = 4 figures, then the Recruit is over
    assert g.count("Lotus", "Kyushu") == 2
    assert g.count("Lotus", "Nagato", "Yurei") == 1 and g.count("Lotus", "Nagato") == 1
    assert g.count("Lotus", "shrine:Hachiman", "shinto") == 1
    assert g.top()["kind"] != "recruit"


def test_recruit_without_bonus_limits_to_strongholds():
    g = Game(FOUR).clear().strongholds("Koi", ["Edo"]).strongholds("Lotus", ["Nagato"])
    g.mandate_turn("Lotus", ["recruit", "marshal", "train", "betray"])
    g.do("Lotus", type="choose_mandate", tile="betray", declare="recruit")
    assert g.pending() == [(0, "recruit")]
    g.do("Koi", type="summon", kind="bushi", province="Edo")
    assert g.pending() == [(1, "recruit")]  # Koi had 1 summon (no bonus)
    assert g.count("Koi", "Edo") == 1


def test_marshal_example_koi_dragonfly_p15():
    g = Game(FOUR).clear().ally("Koi", "Dragonfly").set("Koi", coins=5)
    g.put("Koi", "bushi", "Kansai").put("Koi", "Oni of Blood", "Oshu").put("Koi", "daimyo", "Oshu")
    g.put("Koi", "bushi", "Edo", 2).put("Koi", "shinto", "shrine:Fujin")
    g.put("Dragonfly", "bushi", "Hokkaido")
    g.mandate_turn("Dragonfly", ["marshal", "recruit", "train", "harvest"])
    g.do("Dragonfly", type="choose_mandate", tile="marshal")
    assert g.pending() == [(0, "marshal")]  # Koi is left of Dragonfly: first
    legal = g.legal("Koi")
    assert not any(c.get("from", "").startswith("shrine") for c in legal)  # shrine figures never move
    g.do("Koi", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Nagato"})  # a border
    g.do("Koi", type="move", **{"from": "Oshu", "kind": "Oni of Blood", "to": "Hokkaido"})  # shipping route
    g.do("Koi", type="move", **{"from": "Oshu", "kind": "daimyo", "to": "Hokkaido"})
    g.done("Koi")
    # ally of the chooser: the bonus lets Koi build a Stronghold anywhere for 3 coins
    g.do("Koi", type="build", province="Shikoku")
    assert g.coins("Koi") == 2 and "Shikoku" in g.p("Koi")["strongholds"]
    assert g.count("Koi", "Nagato") == 1 and g.count("Koi", "Hokkaido") == 2 and g.count("Koi", "Edo") == 2
    assert g.count("Koi", "shrine:Fujin") == 1
    assert g.pending() == [(3, "marshal")]  # Lotus and Turtle have nothing on the map


def test_train_example_turtle_oni_of_skulls_p16():
    g = Game(FOUR).clear().strongholds("Turtle", ["Nagato"]).set("Turtle", coins=6)
    g.display("Oni of Skulls", "Path of the Lion", "Komainu")
    g.mandate_turn("Turtle", ["train", "recruit", "marshal", "harvest"])
    g.do("Turtle", type="choose_mandate", tile="train")
    assert g.pending() == [(2, "train")]  # the chooser trains FIRST
    g.do("Turtle", type="buy", card="Oni of Skulls")
    assert g.coins("Turtle") == 5  # cost 2, bonus -1
    assert "Oni of Skulls" in g.p("Turtle")["cards"] and "Oni of Skulls" not in g.s["display"]
    assert g.pending() == [(2, "place_monster")]
    g.do("Turtle", type="place", province="Nagato")  # summoned at a Stronghold
    assert g.count("Turtle", "Nagato", "Oni of Skulls") == 1


def test_harvest_example_dragonfly_p17():
    g = Game(FOUR).clear().honor("Koi", "Lotus", "Dragonfly", "Turtle")
    g.put("Dragonfly", "bushi", "Nagato")
    g.put("Dragonfly", "bushi", "Kansai", 2).put("Lotus", "bushi", "Kansai").put("Turtle", "bushi", "Kansai")
    g.put("Dragonfly", "bushi", "Kyoto", 2).put("Turtle", "bushi", "Kyoto", 2)
    g.put("Dragonfly", "shinto", "Edo").put("Koi", "bushi", "Edo")
    g.put("Dragonfly", "shinto", "Oshu").put("Koi", "bushi", "Oshu", 2)
    for c in FOUR:
        g.set(c, coins=0)
    g.mandate_turn("Dragonfly", ["harvest", "recruit", "marshal", "train"])
    g.do("Dragonfly", type="choose_mandate", tile="harvest")
    # Nagato 1 VP + 1 coin + 1 Ronin; Kansai 3 VP; Kyoto 4 VP (Honor tie-break); Edo, Oshu nothing
    assert g.vp("Dragonfly") == 1 + 3 + 4
    assert g.coins("Dragonfly") == 1 + 1 and g.p("Dragonfly")["ronin"] == 1
    assert [g.coins(c) for c in ("Koi", "Lotus", "Turtle")] == [1, 1, 1]  # everybody gains 1 coin


def test_betray_example_koi_p18():
    g = Game(FOUR).clear().ally("Koi", "Dragonfly")
    g.put("Turtle", "Oni of Skulls", "Nagato").put("Dragonfly", "bushi", "Kansai")
    g.put("Koi", "Komainu", "reserve")
    before = g.rank("Koi")
    g.mandate_turn("Koi", ["betray", "recruit", "marshal", "train"])
    g.do("Koi", type="choose_mandate", tile="betray")
    assert g.s["alliances"] == [None] * 4 and g.rank("Koi") == before + 1  # alliance broken, Honor lost
    g.do("Koi", type="betray", owner=2, at="Nagato", kind="Oni of Skulls", **{"with": "Komainu"})
    assert not any(c.get("owner") == 2 for c in g.legal("Koi"))  # 2 DIFFERENT players
    g.do("Koi", type="betray", owner=3, at="Kansai", kind="bushi", **{"with": "bushi"})
    assert g.count("Koi", "Nagato", "Komainu") == 1 and g.count("Turtle", "reserve", "Oni of Skulls") == 1
    assert g.count("Koi", "Kansai", "bushi") == 1 and g.count("Dragonfly", "Kansai") == 0
    assert g.top()["kind"] != "betray"


def test_kami_turn_example_p19():
    g = Game(FOUR).clear().shrines("Susanoo", "Amaterasu", "Hachiman", "Raijin")
    g.strongholds("Koi", ["Edo", "Oshu"])
    g.put("Dragonfly", "shinto", "shrine:Susanoo").put("Koi", "shinto", "shrine:Susanoo")
    g.put("Dragonfly", "shinto", "shrine:Amaterasu")
    g.put("Dragonfly", "shinto", "shrine:Hachiman").put("Lotus", "shinto", "shrine:Hachiman")
    g.put("Turtle", "shinto", "shrine:Raijin", 2).put("Koi", "shinto", "shrine:Raijin")
    assert g.rank("Lotus") < g.rank("Dragonfly")
    g.kami_turn()
    assert g.vp("Koi") == 2  # Susanoo: tie broken by Honor, 2 Strongholds
    assert g.rank("Dragonfly") == 0  # Amaterasu
    assert g.p("Dragonfly")["ronin"] == 2 and g.p("Lotus")["ronin"] == 0  # Hachiman, new Honor
    assert g.pending() == [(2, "raijin")]
    g.do("Turtle", type="summon", kind="bushi", province="Hokkaido")  # anywhere, no Stronghold
    assert g.count("Turtle", "Hokkaido", "bushi") == 1


def _spring_war():
    g = Game(FOUR).clear().ally("Turtle", "Lotus")
    g.put("Dragonfly", "bushi", "Hokkaido")
    g.strongholds("Turtle", ["Oshu"])
    g.put("Turtle", "bushi", "Kansai", 2).put("Lotus", "bushi", "Kansai", 2)
    g.put("Turtle", "bushi", "Nagato").put("Turtle", "Oni of Skulls", "Nagato")
    g.put("Koi", "bushi", "Nagato").put("Koi", "daimyo", "Nagato").put("Lotus", "shinto", "Nagato")
    g.put("Koi", "bushi", "Edo").put("Dragonfly", "bushi", "Edo")
    g.set("Turtle", coins=4, ronin=1, vp=5).set("Koi", coins=8, ronin=0).set("Lotus", coins=6, ronin=3)
    g.set("Dragonfly", coins=3)
    return g.war_phase(["Kyoto", "Hokkaido", "Oshu", "Kansai", "Nagato", "Edo"])


def test_war_phase_example_p21():
    g = _spring_war()
    tokens = {c: [t[0] for t in g.p(c)["war_tokens"]] for c in FOUR}
    assert tokens == {"Koi": [], "Lotus": ["Kansai"], "Turtle": ["Oshu"], "Dragonfly": ["Hokkaido"]}
    b = g.s["battle"]
    assert b["province"] == "Nagato" and sorted(b["participants"]) == [
        0,
        1,
        2,
    ]  # allies fight too, with Koi there
    assert sorted(s for s, _ in g.pending()) == [0, 1, 2]


def test_nagato_battle_example_p22_24():
    g = _spring_war()
    assert (
        g.force("Turtle", "Nagato") == 4 and g.force("Koi", "Nagato") == 2 and g.force("Lotus", "Nagato") == 1
    )
    g.bid("Lotus", seppuku=1, hostage=3, ronin=2)
    g.bid("Turtle", hostage=3, poets=1)
    assert g.s["battle"]["revealed"] is False
    g.bid("Koi", ronin=1, poets=3)  # keeps 4 coins off the war board
    assert g.s["battle"]["revealed"] is True
    g.choose("Lotus", "commit")  # Seppuku: its Shinto dies, +1 VP, +1 Honor
    assert g.vp("Lotus") == 1 and g.rank("Lotus") == 0
    opts = g.top()["options"]
    assert "0:daimyo" not in opts  # Daimyo cannot be taken hostage
    g.choose("Lotus", "2:Oni of Skulls")  # tie 3-3 won on Honor; even an ally's figure
    assert g.vp("Lotus") == 2 and g.vp("Turtle") == 4
    g.choose("Lotus", "hire")  # 3 Ronin, 3 Force: Turtle 1, Koi 2, Lotus 3 -> Lotus wins
    assert g.s["battle"]["winner"] == 1 and g.force("Lotus", "Nagato") == 3
    assert g.force("Turtle", "Nagato") == 1  # the ally of the winner survives
    g.choose("Koi", "compose")  # Imperial Poets: Lotus Shinto + 2 Koi figures
    assert ["Nagato", "spring"] in g.p("Lotus")["war_tokens"]
    assert g.count("Koi", "Nagato") == 0 and g.count("Turtle", "Nagato", "bushi") == 1
    assert g.vp("Koi") == 3
    # reparations: losers discard their bids, Lotus's 6 coins go 3 and 3
    assert (g.coins("Turtle"), g.coins("Koi"), g.coins("Lotus")) == (3, 7, 0)
    assert g.s["battle"]["province"] == "Edo"  # next war: Koi against Dragonfly


def test_honor_examples_p8():
    from games.rules.rising_sun.state import gain_honor, lose_honor

    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai"])
    assert g.s["honor"] == [0, 1, 2, 3, 4]  # KOI, LOTO, TORTUGA, LIBÉLULA, BONSÁI
    gain_honor(g.s, 2)  # Turtle up, Lotus down
    assert g.s["honor"] == [0, 2, 1, 3, 4]
    lose_honor(g.s, 1)  # Lotus down, Dragonfly up
    assert g.s["honor"] == [0, 2, 3, 1, 4]


def test_prepare_for_war_example_p10_four_players_six_tokens():
    g = Game(FOUR)
    assert len(g.s["war_provinces"]) == 6 and len(set(g.s["war_provinces"])) == 6
