"""Timing conflicts (rulebook "Otras reglas": the involved player with the
highest Honor decides whether he goes first or last; Appendix R 3: the others
follow in descending Honor, a player orders his own effects freely) and the
API contract of gifts."""

import pytest

from games.rules.base import IllegalCommand, rng_factory
from games.rules.rising_sun.rules import RULES
from games.rules.testing import play_random_game
from tests.rules.rising_sun.testkit import Game

FOUR = ["Koi", "Lotus", "Turtle", "Dragonfly"]  # seats 0..3, Honor in this order


def g4(version=None):
    return Game(FOUR, version=version).clear()


def _end_of_recruit(g):
    return g.frame("mandate", mandate="recruit", chooser=3, order=[], step=0)


def test_end_of_recruit_placements_of_several_players_highest_honor_goes_first_or_last():
    g = g4().card("Lotus", "Path of the Samurai").card("Turtle", "Path of the Light")
    _end_of_recruit(g)
    assert g.pending() == [(1, "end_of_recruit_timing")] and g.top()["options"] == ["first", "last"]
    g.choose("Lotus", "first")
    assert g.pending() == [(1, "path_of_the_samurai")]
    g.choose("Lotus", "Kyoto")
    assert g.pending() == [(2, "path_of_the_light")]  # Turtle sees Lotus's placement
    g.choose("Turtle", "Fujin")
    assert g.count("Lotus", "Kyoto") == 1 and g.count("Turtle", "shrine:Fujin") == 1 and g.top() is None

    g = g4().card("Lotus", "Path of the Samurai").card("Turtle", "Path of the Light")
    _end_of_recruit(g).choose("Lotus", "last")
    assert g.pending() == [(2, "path_of_the_light")]
    g.choose("Turtle", "Fujin")
    assert g.pending() == [(1, "path_of_the_samurai")]


def test_three_players_others_follow_in_descending_honor():
    g = g4().card("Koi", "Path of the Samurai").card("Turtle", "Path of the Samurai")
    g.card("Dragonfly", "Path of the Samurai")
    _end_of_recruit(g).choose("Koi", "last")
    seen = []
    while g.top() is not None:
        seat = g.pending()[0][0]
        seen.append(seat)
        g.choose(seat, "pass")
    assert seen == [2, 3, 0]


def test_one_player_involved_is_not_asked():
    g = g4().card("Lotus", "Path of the Samurai").card("Turtle", "Path of the Light")
    for f in g.s["figures"].values():  # Turtle has no Shinto left: only Lotus is involved
        if f["owner"] == 2 and f["type"] == "shinto":
            f["at"] = "Kyoto"
    _end_of_recruit(g)
    assert g.pending() == [(1, "path_of_the_samurai")]


def test_war_upgrade_timing_default_is_first():
    g = g4().card("Lotus", "Way of the Righteous").card("Turtle", "Way of the Moneylender")
    g.s["war_provinces"] = []
    g.s["position"] = [{"kind": "war_start"}]
    g.resume()
    assert g.top()["what"] == "war_upgrade_timing"
    assert RULES.default_command(g.s, 1) == {"type": "choose", "choice": "first"}


def test_way_of_the_katana_alone_is_not_a_start_of_war_effect():
    g = g4().card("Lotus", "Way of the Katana").card("Turtle", "Way of the Moneylender")
    g.until("war_start")
    assert g.top()["kind"] == "war" and g.coins("Turtle") == 6 + 5  # no timing prompt


def test_a_player_orders_his_own_war_upgrades():
    g = g4().card("Lotus", "Way of the Righteous").card("Lotus", "Way of the Shogun")
    g.set("Turtle", coins=1)
    g.put("Koi", "bushi", "Edo").put("Dragonfly", "bushi", "Edo")  # a battle halts the war afterwards
    g.s["war_provinces"] = ["Edo"]
    g.until("war_start")
    assert g.pending() == [(1, "war_upgrade_order")]
    assert g.top()["options"] == ["Way of the Shogun", "Way of the Righteous"]
    g.choose("Lotus", "Way of the Righteous")
    assert g.coins("Lotus") == 7 + 3 + 1 + 1 and g.coins("Turtle") == 0  # 1 from Turtle, Dragonfly


def test_a_player_orders_his_own_after_summon_cards():
    # Path of the Ninja costs Honor; Path of the Spirit needs the highest Honor
    def setup():
        g = (
            g4()
            .card("Koi", "Path of the Spirit")
            .card("Koi", "Path of the Ninja")
            .put("Lotus", "bushi", "Oshu")
        )
        g.set("Koi", coins=0).strongholds("Koi", ["Edo"])
        g.frame("recruit", seat=0, slots={"Edo": 1}, extra=0, any=0, count=0)
        g.do("Koi", type="summon", kind="bushi", province="Edo")
        assert g.pending() == [(0, "after_summon_order")]
        assert g.top()["options"] == ["Path of the Spirit", "Path of the Ninja"]
        return g

    g = setup().choose("Koi", "Path of the Spirit")
    assert (g.coins("Koi"), g.vp("Koi")) == (2, 2)
    g.choose("Koi", "1:Oshu")
    assert g.rank("Koi") == 1 and g.count("Lotus", "Oshu") == 0

    g = setup().choose("Koi", "Path of the Ninja").choose("Koi", "1:Oshu")
    assert g.rank("Koi") == 1 and (g.coins("Koi"), g.vp("Koi")) == (0, 0)  # no longer the highest Honor


def test_path_of_the_light_may_place_the_komainu():
    g = g4().card("Lotus", "Path of the Light").put("Lotus", "Komainu", "reserve")
    _end_of_recruit(g)
    assert "Komainu:Fujin" in g.top()["options"] and "Fujin" in g.top()["options"]
    g.choose("Lotus", "Komainu:Fujin")
    assert g.count("Lotus", "shrine:Fujin", "Komainu") == 1
    g = g4().card("Lotus", "Path of the Light").put("Lotus", "Komainu", "reserve")
    _end_of_recruit(g).choose("Lotus", "Fujin")
    assert g.count("Lotus", "shrine:Fujin", "shinto") == 1


# ----------------------------------------------------------- gifts contract


def test_pending_seats_can_always_act_and_idle_gift_templates_are_accepted():
    out = play_random_game(
        RULES, [None] * 4, {"season_set": "teapot"}, seed=5, check_every=1000, check_views=False
    )
    state = RULES.initial_state()
    checked = 0
    for i, e in enumerate(out.events):
        if not e.type.startswith("core."):
            state = RULES.evolve(state, e)
        if "player_count" not in state or RULES.outcome(state) is not None or i % 3:
            continue
        pending = {p.seat for p in RULES.pending(state)}
        for seat in range(state["player_count"]):
            legal = RULES.legal_commands(state, seat)
            if seat in pending:
                assert legal.commands or legal.sample, (seat, state["position"][-1])
            elif legal.templates:
                assert not legal.commands or state["position"][-1]["kind"] == "tea"
                p = state["players"][seat]
                to = (seat + 1) % state["player_count"]
                gift = {
                    "type": "gift",
                    "to": to,
                    "coins": min(1, p["coins"]),
                    "ronin": 0 if p["coins"] else 1,
                }
                RULES.decide(state, seat, gift, rng_factory("g", i))  # accepted
                checked += 1
    assert checked > 20


def test_gifts_are_refused_once_the_war_phase_starts():
    g = g4().card("Lotus", "Way of the Righteous").card("Turtle", "Way of the Moneylender")
    g.s["war_provinces"] = []
    g.s["position"] = [{"kind": "war_start"}]
    g.resume()
    assert not RULES.legal_commands(g.s, 0).templates
    with pytest.raises(IllegalCommand):
        g.do("Koi", type="gift", to=1, coins=1)


# ------------------------------------------- gain instances / effect order


def test_path_of_the_ninja_kills_before_losing_honor_so_justice_reads_the_old_honor():
    g = g4().card("Lotus", "Path of the Ninja").card("Lotus", "Justice").put("Turtle", "bushi", "Oshu")
    g.strongholds("Lotus", ["Nagato"])
    g.frame("recruit", seat=1, slots={"Nagato": 1}, extra=0, any=0, count=0)
    g.do("Lotus", type="summon", kind="bushi", province="Nagato")
    g.choose("Lotus", "2:Oshu")
    assert g.count("Turtle", "Oshu") == 0 and g.vp("Lotus") == 3 and g.rank("Lotus") == 2


def test_oni_of_spite_steals_as_one_gain_instance():
    g = g4().put("Turtle", "Oni of Spite", "Kyoto").card("Turtle", "Loyalty").ally("Turtle", "Dragonfly")
    g.put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai")
    g.set("Koi", vp=5).set("Lotus", vp=5)
    g.frame("fujin", seat=2, moves=1, toll=False)
    g.do("Turtle", type="move", **{"from": "Kyoto", "kind": "Oni of Spite", "to": "Kansai"})
    assert g.vp("Turtle") == 4 + 1 and g.vp("Koi") == 3 and g.vp("Lotus") == 3


def _respect_battle(version=None):
    g = g4(version).card("Koi", "Respect").card("Koi", "Loyalty").ally("Koi", "Turtle")
    g.put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai", 2).set("Lotus", vp=5, coins=0)
    g.set("Koi", coins=1)
    g.war_phase(["Kansai"])
    g.bid("Koi", hostage=1).bid("Lotus")
    return g


def _total_vp(g):
    return sum(p["vp"] for p in g.s["players"])


@pytest.mark.parametrize("declines", [False, True])
def test_take_hostage_with_respect_moves_each_vp_with_its_hostage(declines):
    """Issue 12 item 9 (rules version 3): between the two hostage prompts the VP
    taken from the victim is already the captor's (total VP conserved); Loyalty
    is added once, at the end of the advantage."""
    g = _respect_battle()
    total = _total_vp(g)
    g.choose("Koi", "1:bushi")
    assert g.top()["what"] == "take_hostage"
    assert _total_vp(g) == total and (g.vp("Koi"), g.vp("Lotus")) == (1, 4)
    assert RULES.view(g.s, None)["players"][0]["vp"] == 1
    g.choose("Koi", "decline" if declines else "1:bushi")
    assert g.vp("Koi") == (1 if declines else 2) + 1  # Loyalty once
    assert g.vp("Lotus") == (4 if declines else 3)


def test_take_hostage_with_respect_before_version_3_credits_at_the_end():
    g = _respect_battle(version=2)
    g.choose("Koi", "1:bushi")
    assert g.top()["what"] == "take_hostage" and g.vp("Koi") == 0  # the gain comes at the end
    g.choose("Koi", "1:bushi")
    assert g.vp("Lotus") == 3  # (the war then ends: the hostages come back next season)
    assert g.vp("Koi") == 2 + 1  # 2 stolen, Loyalty once


def test_hostage_return_is_one_simultaneous_step_for_way_of_the_merchant():
    # Lotus (Merchant, 6 coins) is poorer than both captors before the step:
    # it gains 1 per captor whatever the order
    g = g4().card("Lotus", "Way of the Merchant")
    g.put("Koi", "bushi", "hostage:2").put("Lotus", "bushi", "hostage:3")
    g.set("Lotus", coins=6).set("Turtle", coins=7).set("Dragonfly", coins=7).set("Koi", coins=0)
    from games.rules.rising_sun.war import return_hostages

    return_hostages(g.s)
    assert (g.coins("Turtle"), g.coins("Dragonfly"), g.coins("Lotus")) == (8, 8, 6 + 2)
    assert g.count("Koi", "reserve", "bushi") == 6 and g.count("Lotus", "reserve", "bushi") == 6
