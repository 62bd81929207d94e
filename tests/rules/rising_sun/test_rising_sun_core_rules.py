"""Setup, Honor, Tea Ceremony, gifts, secrets and views, season flow, battles'
edge cases and Winter scoring."""

import jsonschema
import pytest

from games.rules.base import IllegalCommand, canonical_json, commitment_of, fold, rng_factory
from games.rules.rising_sun import events as ev
from games.rules.rising_sun.rules import RULES
from games.rules.rising_sun.state import gain_honor, lose_honor
from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]


# -------------------------------------------------------------------- setup


def test_options_schema_defaults_and_strictness():
    schema = RULES.options_schema
    assert schema["additionalProperties"] is False
    assert schema["properties"]["season_set"]["default"] == "archway"
    assert schema["properties"]["shrines"]["default"] == "random"
    jsonschema.validate({"season_set": "teapot", "shrines": "first_game"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"season_set": "teapot", "other": 1}, schema)
    assert list(RULES.factions(5, {})) == ["Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai"]


def test_setup_seating_honor_home_and_decks():
    events = RULES.start(["Bonsai", "Koi", None, "Turtle", "Dragonfly"], {}, rng_factory("x", 1))
    s = fold(RULES, events)
    assert s["clans"][:2] == ["Bonsai", "Koi"] and s["clans"][2] == "Lotus"
    assert s["seating"] == [1, 2, 3, 4, 0] and s["honor"] == [1, 2, 3, 4, 0]
    homes = {"Koi": "Edo", "Lotus": "Nagato", "Turtle": "Kyoto", "Dragonfly": "Hokkaido", "Bonsai": "Kyushu"}
    for seat, clan in enumerate(s["clans"]):
        on_map = sorted(
            f["type"] for f in s["figures"].values() if f["owner"] == seat and f["at"] != "reserve"
        )
        assert on_map == ["bushi", "daimyo"]
        assert all(
            f["at"] == homes[clan]
            for f in s["figures"].values()
            if f["owner"] == seat and f["at"] != "reserve"
        )
        assert s["players"][seat]["strongholds"] == [homes[clan]]
    assert len(s["war_provinces"]) == 7 and len(set(s["war_provinces"])) == 7
    assert len(s["display"]) == 12 and len(s["shrines"]) == 4 and len(s["mandate_deck"]) == 10
    assert [p["coins"] for p in s["players"]] == [4, 5, 7, 6, 6]
    # the mandate order is nobody's to see: it is in the hidden outcome only
    hidden, *public = events
    assert hidden.type == ev.HIDDEN_CHANGED and hidden.visible_to == ()
    assert hidden.payload["outcome"]["set"]["mandate_deck"] == s["mandate_deck"]
    assert public[0].type == ev.SETUP and all(e.visible_to is None for e in public)
    assert all("mandate_deck" not in canonical_json(dict(e.payload)) for e in public)
    v = RULES.view(s, 1)
    assert "mandate_deck" not in v and v["mandate_deck_size"] == 10


def test_first_game_shrines_and_random_set():
    s = fold(
        RULES, RULES.start([None] * 3, {"shrines": "first_game", "season_set": "random"}, rng_factory("y", 1))
    )
    assert s["shrines"] == ["Amaterasu", "Fujin", "Hachiman", "Tsukuyomi"]
    assert s["season_set"] in ("archway", "horseman", "teapot") and len(s["war_provinces"]) == 5


# -------------------------------------------------------------------- honor


def test_honor_swaps_and_bounds():
    g = Game(FOUR)
    gain_honor(g.s, 2)
    assert g.s["honor"] == [0, 2, 1, 3]
    gain_honor(g.s, 2)
    gain_honor(g.s, 2)
    assert g.s["honor"] == [2, 0, 1, 3]
    lose_honor(g.s, 3)
    assert g.s["honor"] == [2, 0, 1, 3]


# ----------------------------------------------------------- tea and gifts


def test_tea_ceremony_private_proposal_commit_and_reveal():
    g = Game(FOUR)
    g.do("Koi", type="propose_alliance", to=2)
    priv, pub, told = g.shown()[-3:]
    assert priv.visible_to == (0,) and pub.type == "core.ChoiceCommitted" and told.visible_to == (2,)
    assert RULES.view(g.s, 2)["proposals"] == [{"from": 0, "to": 2}]
    assert RULES.view(g.s, 1)["proposals"] == []
    g.do("Turtle", type="accept_alliance", **{"from": 0})
    r = g.shown()[-1].payload["reveals"][0]
    assert commitment_of(r["salt"], r["choice"]) == pub.payload["commitment"]
    assert g.s["alliances"] == [2, None, 0, None] and g.p("Koi")["alliance_seasons"] == ["spring"]
    with pytest.raises(IllegalCommand):
        g.do("Lotus", type="propose_alliance", to=0)  # Koi is taken


def test_tea_ends_when_all_done_then_gifts_until_war():
    g = Game(FOUR)
    for c in FOUR:
        g.do(c, type="tea_done")
    assert g.s["phase"] == "politics" and g.pending() == [(0, "choose_mandate")]
    seen = [e for e in g.events if e.type == ev.TILES_SEEN]
    assert seen and seen[-1].visible_to == (0,) and len(seen[-1].payload["tiles"]) == 4
    g.do("Lotus", type="gift", to=0, coins=2)
    assert g.coins("Koi") == 7 and g.coins("Lotus") == 5
    g.clear().put("Koi", "bushi", "Edo").put("Lotus", "bushi", "Edo")
    g.war_phase(["Edo"])  # waiting for the bids of a battle
    with pytest.raises(IllegalCommand):
        g.do("Koi", type="gift", to=1, coins=1)


def test_mandate_turn_returns_three_in_order_and_reveals_tile():
    g = Game(FOUR)
    g.mandate_turn("Koi", ["harvest", "recruit", "train", "marshal"])
    rest = g.s["mandate_deck"][4:]
    assert RULES.view(g.s, 0)["drawn_tiles"] == ["harvest", "recruit", "train", "marshal"]
    assert "drawn_tiles" not in RULES.view(g.s, 1)
    g.do("Koi", type="choose_mandate", tile="recruit")
    assert g.s["mandate_deck"] == ["harvest", "train", "marshal"] + rest
    played = [e for e in g.events if e.type == ev.MANDATE_PLAYED][-1]
    assert played.payload["reveals"][0]["choice"] == "recruit"


def test_a_season_has_seven_mandates_and_three_kami_turns():
    g = Game(FOUR)
    while g.s["season"] == 0:
        seat, _ = g.pending()[0]
        g.do(seat, **RULES.default_command(g.s, seat))
    chosen = [e for e in g.events if e.type == ev.MANDATE_PLAYED]
    assert len(chosen) == 7
    assert [e.payload["seat"] for e in chosen] == [0, 1, 2, 3, 0, 1, 2]
    assert g.s["holder"] == 3  # left of the last mandate player starts next season
    assert len(g.s["mandate_deck"]) == 10


# ------------------------------------------------------------ season flow


def test_income_resets_and_hostages_come_back_with_a_coin():
    g = Game(FOUR).clear().put("Lotus", "bushi", "hostage:0")
    g.s["position"] = [{"kind": "season_start"}]
    g.s["season"] = 1
    g.set("Koi", coins=30)
    g.resume()
    assert g.coins("Koi") == 5 + 1 and g.count("Lotus", "reserve", "bushi") == 6


# ------------------------------------------------------------------ battles


def _duel(g):
    g.put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai")
    g.put("Koi", "bushi", "Edo").put("Lotus", "bushi", "Edo")
    g.set("Koi", coins=5).set("Lotus", coins=5)
    return g.war_phase(["Kansai", "Edo"])


def test_bids_are_secret_until_all_are_in():
    g = _duel(Game(FOUR).clear())
    g.bid("Koi", poets=3)
    assert "0" in RULES.view(g.s, 0)["battle"]["bids"] and RULES.view(g.s, 1)["battle"]["bids"] == {}
    assert RULES.view(g.s, 1)["battle"]["bids_in"] == [0]
    with pytest.raises(IllegalCommand):
        g.bid("Lotus", poets=6)  # more than it has
    g.bid("Lotus", hostage=1)
    reveal = g.shown()[-1]
    assert reveal.type == ev.BIDS_REVEALED and len(reveal.payload["reveals"]) == 2


def test_nobody_left_highest_honor_wins():
    g = _duel(Game(FOUR).clear())
    g.bid("Koi")
    g.bid("Lotus", seppuku=1, hostage=1)
    g.choose("Lotus", "commit")  # Lotus dies, gains Honor: now on top
    g.choose("Lotus", "0:bushi")  # takes the Koi Bushi: nobody has Force
    assert ["Kansai", "spring"] in g.p("Lotus")["war_tokens"]


def test_declining_an_advantage_and_reparation_remainder():
    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly"]).clear()
    g.put("Koi", "bushi", "Kansai", 3).put("Lotus", "bushi", "Kansai").put("Turtle", "bushi", "Kansai")
    g.put("Koi", "bushi", "Edo").put("Lotus", "bushi", "Edo")
    g.set("Koi", coins=5).set("Lotus", coins=5).set("Turtle", coins=5)
    g.war_phase(["Kansai", "Edo"])
    g.bid("Koi", seppuku=5)
    g.bid("Lotus", poets=2)
    g.bid("Turtle", hostage=1)
    g.choose("Koi", "decline")  # Seppuku won but not used
    g.choose("Turtle", "decline")
    assert g.count("Koi", "Kansai") == 3
    g.choose("Lotus", "compose")  # 2 figures died
    assert g.vp("Lotus") == 2
    assert g.top()["what"] == "reparations" and g.top()["options"] == ["1", "2"]
    g.choose("Koi", "2")  # 5 coins: 2 each, the extra one to Turtle
    assert (g.coins("Koi"), g.coins("Lotus"), g.coins("Turtle")) == (0, 5, 7)


# ------------------------------------------------------------------- winter


def test_winter_tokens_set_bonus_and_tie_break():
    g = Game(FOUR).clear()
    g.set("Koi", war_tokens=[["Edo", "spring"], ["Oshu", "summer"], ["Kyoto", "autumn"]], vp=10)
    g.set("Lotus", vp=26).set("Turtle", vp=26).honor("Turtle", "Koi", "Lotus", "Dragonfly")
    g.auto("winter")
    assert g.vp("Koi") == 10 + 1 + 2 + 3 + 10
    out = RULES.outcome(g.s)
    assert out.winners == (2,) and out.scores[0] == 26.0  # 3-way tie on VP: Turtle has most Honor


def test_tied_allies_share_the_win():
    g = Game(FOUR).clear().ally("Turtle", "Dragonfly").set("Turtle", vp=30).set("Dragonfly", vp=30)
    g.auto("winter")
    assert RULES.outcome(g.s).winners == (2, 3)


def test_before_version_3_proposing_after_tea_done_makes_a_player_active_again():
    g = Game(FOUR, version=2)
    g.do("Koi", type="tea_done")
    assert (0, "tea_ceremony") not in g.pending()
    assert {"type": "propose_alliance", "to": 2} in g.legal("Koi")  # listed, though not pending
    g.do("Lotus", type="propose_alliance", to=0)
    assert (0, "tea_ceremony") in g.pending()
    g.do("Koi", type="decline_alliance", **{"from": 1})
    assert (0, "tea_ceremony") not in g.pending()  # still done
    g.do("Koi", type="propose_alliance", to=2)  # a counter-offer elsewhere (R 21: any unallied player)
    assert 0 not in g.top()["done"] and (0, "tea_ceremony") in g.pending()
    g.do("Turtle", type="accept_alliance", **{"from": 0})
    assert g.s["alliances"][0] == 2 and g.top()["done"] == []  # everyone may act again
