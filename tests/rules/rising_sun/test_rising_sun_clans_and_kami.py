"""One test per clan ability and per Kami."""

import pytest

from games.rules.base import IllegalCommand
from games.rules.rising_sun.rules import RULES
from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]


def g4():
    return Game(FOUR).clear()


# --------------------------------------------------------------------- clans


def test_koi_converts_ronin_and_hires_its_spare_coins():
    g = g4().put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai", 3)
    g.put("Koi", "bushi", "Edo").put("Lotus", "bushi", "Edo")  # a 2nd battle keeps the war open
    g.set("Koi", coins=4, ronin=2).set("Lotus", coins=0, ronin=0)
    g.war_phase(["Kansai", "Edo"])
    assert (g.coins("Koi"), g.p("Koi")["ronin"]) == (6, 0)  # start of war: Ronin -> coins
    g.bid("Koi", ronin=2)
    g.bid("Lotus")
    g.choose("Koi", "hire")  # 4 coins left behind the screen = 4 Ronin: 1 + 4 > 3
    assert ["Kansai", "spring"] in g.p("Koi")["war_tokens"]
    assert g.count("Lotus", "Kansai") == 0


def test_lotus_plays_face_down_and_declares_any_mandate():
    g = g4().set("Koi", coins=0)
    g.mandate_turn("Lotus", ["betray", "recruit", "marshal", "train"])
    legal = g.legal("Lotus")
    assert {"type": "choose_mandate", "tile": "betray", "declare": "harvest"} in legal
    g.do("Lotus", type="choose_mandate", tile="betray", declare="harvest")
    assert g.coins("Koi") == 1  # the declared Harvest was executed
    assert RULES.view(g.s, 0)["track"][-1] == {
        "seat": 1,
        "mandate": "harvest",
        "face_down": True,
        "tile": None,
    }
    assert RULES.view(g.s, 1)["track"][-1]["tile"] == "betray"
    assert "reveals" not in g.shown()[-2].payload and "reveals" not in g.shown()[-1].payload


def test_other_clans_cannot_declare():
    g = g4()
    g.mandate_turn("Koi", ["betray", "recruit", "marshal", "train"])
    with pytest.raises(IllegalCommand):
        g.do("Koi", type="choose_mandate", tile="betray", declare="harvest")


def test_turtle_strongholds_force_move_and_immunity():
    g = g4().strongholds("Turtle", ["Kyoto", "Kyoto"])
    assert g.force("Turtle", "Kyoto") == 2
    g.frame("marshal", seat=2, moved=[], strongholds_moved=[], bonus=False, toll=False)
    g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "stronghold", "to": "Kansai"})
    assert g.p("Turtle")["strongholds"].count("Kansai") == 1 and g.force("Turtle", "Kansai") == 1
    assert not any(
        c.get("to") == "Kyoto" and c.get("from") == "Kansai" for c in g.legal("Turtle")
    )  # moved once
    g.frame("betray", seat=0, base=2, extra=0, targeted=[])
    assert g.legal("Koi") == [{"type": "done"}] or g.top() is None  # nothing to replace
    g.war_phase(["Kansai"])
    assert ["Kansai", "spring"] in g.p("Turtle")["war_tokens"]  # a lone Stronghold holds a province


def test_dragonfly_summons_and_moves_anywhere():
    g = g4().strongholds("Dragonfly", ["Hokkaido"])
    g.mandate_turn("Dragonfly", ["recruit", "marshal", "train", "harvest"])
    g.do("Dragonfly", type="choose_mandate", tile="recruit")
    places = {c["province"] for c in g.legal("Dragonfly") if c["type"] == "summon"}
    assert len(places) == 8
    g.do("Dragonfly", type="summon", kind="bushi", province="Nagato")
    g.do("Dragonfly", type="summon", kind="bushi", province="Edo")  # 1 Stronghold + bonus = 2
    assert g.count("Dragonfly", "Nagato") == 1 and g.count("Dragonfly", "Edo") == 1
    g.frame("marshal", seat=3, moved=[], strongholds_moved=[], bonus=False, toll=False)
    g.do("Dragonfly", type="move", **{"from": "Nagato", "kind": "bushi", "to": "Hokkaido"})
    assert g.count("Dragonfly", "Hokkaido") == 1


def test_bonsai_pays_at_most_one_and_discount_after():
    g = Game(["Koi", "Lotus", "Bonsai"]).clear().set("Bonsai", coins=1).display("Form of the Kitsune")
    g.frame("train", seat=2, discount=0, ryujin=False)
    g.do("Bonsai", type="buy", card="Form of the Kitsune")
    assert g.coins("Bonsai") == 0
    g.set("Bonsai", coins=0).display("Form of the Kitsune")
    g.frame("train", seat=2, discount=1, ryujin=False)
    g.do("Bonsai", type="buy", card="Form of the Kitsune")  # cap 1, then -1: free
    assert g.p("Bonsai")["cards"].count("Form of the Kitsune") == 2
    g.set("Bonsai", coins=1)
    g.frame("build", seat=2)
    g.do("Bonsai", type="build", province="Oshu")
    assert g.coins("Bonsai") == 0 and "Oshu" in g.p("Bonsai")["strongholds"]


# ---------------------------------------------------------------------- kami


def kami(shrine, clan="Lotus"):
    g = g4().shrines(
        shrine,
        "Fujin" if shrine != "Fujin" else "Raijin",
        "Hachiman" if shrine != "Hachiman" else "Raijin",
        "Tsukuyomi" if shrine != "Tsukuyomi" else "Raijin",
    )
    return g.put(clan, "shinto", "shrine:" + shrine)


def test_amaterasu_to_the_top():
    g = kami("Amaterasu", "Dragonfly").kami_turn()
    assert g.s["honor"] == [3, 0, 1, 2]


def test_hachiman_two_ronin():
    assert kami("Hachiman").kami_turn().p("Lotus")["ronin"] == 2


def test_tsukuyomi_two_coins():
    g = kami("Tsukuyomi").set("Lotus", coins=0).kami_turn()
    assert g.coins("Lotus") == 2


def test_susanoo_vp_per_stronghold():
    g = kami("Susanoo").strongholds("Lotus", ["Nagato", "Kyushu", "Edo"]).kami_turn()
    assert g.vp("Lotus") == 3


def test_raijin_summons_a_bushi_anywhere():
    g = kami("Raijin").kami_turn()
    g.do("Lotus", type="summon", kind="bushi", province="Oshu")
    assert g.count("Lotus", "Oshu", "bushi") == 1


def test_fujin_two_moves_one_figure_twice():
    g = kami("Fujin").put("Lotus", "bushi", "Nagato").kami_turn()
    g.do("Lotus", type="move", **{"from": "Nagato", "kind": "bushi", "to": "Kansai"})
    g.do("Lotus", type="move", **{"from": "Kansai", "kind": "bushi", "to": "Kyoto"})
    assert g.count("Lotus", "Kyoto") == 1 and g.top()["kind"] != "fujin"


def test_ryujin_buys_at_full_cost():
    g = kami("Ryujin").set("Lotus", coins=3).display("Form of the Phoenix").kami_turn()
    g.do("Lotus", type="buy", card="Form of the Phoenix")
    assert g.coins("Lotus") == 0 and "Form of the Phoenix" in g.p("Lotus")["cards"]


def test_shrine_tie_goes_to_honor_and_empty_shrine_skipped():
    g = kami("Hachiman", "Dragonfly").put("Koi", "shinto", "shrine:Hachiman").kami_turn()
    assert g.p("Koi")["ronin"] == 2 and g.p("Dragonfly")["ronin"] == 0
