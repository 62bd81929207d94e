"""The Rising Sun heuristic's rule-based decisions (games/bots/rising_sun/plan.py,
bids.py, mandates.py) on positions built with the engine's test kit: each asks
the bot through `games.bots.play` (view, legal set, worlds: no secret) and
plays its answer through the engine."""

from __future__ import annotations

import json
import random

from games import plugins
from games.bots import play
from games.bots.rising_sun.board import force_map, table_of
from games.rules.base import canonical_json, fold, rng_factory
from games.rules.rising_sun.data import PROVINCES
from games.rules.rising_sun.rules import RULES
from games.rules.rising_sun.state import force
from tests.rules.rising_sun.testkit import Game

PARTS = plugins.RISING_SUN.bots


def _ask(g: Game, clan: str) -> dict:
    seat = g.seat(clan)
    cmd = play(g.rules, g.s, seat, "heuristic", random.Random(3), g.s["player_count"], parts=PARTS)
    assert cmd is not None
    return cmd


def _answer_prompts(g: Game, clan: str) -> None:
    """The bot answers its own prompts; the other seats take the default."""
    while g.s["position"] and g.s["position"][-1]["kind"] == "prompt":
        f = g.s["position"][-1]
        if f["seat"] == g.seat(clan):
            g.do(clan, **_ask(g, clan))
        else:
            g.choose(f["seat"], f["options"][0])


def _battle(clan_forces: dict[str, int], coins: int, ronin: int = 0) -> Game:
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    for clan, n in clan_forces.items():
        g.put(clan, "bushi", "Kansai", n)
    g.set("Lotus", coins=coins, ronin=ronin).set("Turtle", coins=8).set("Koi", coins=8)
    g.honor("Koi", "Turtle", "Lotus")
    return g.war_phase(["Kansai"])


def test_bid_hires_the_ronin_that_win_a_close_war():
    # Lotus is one Force behind (2 against 3) with 3 Ronin: it bids on Hire
    # Ronin enough to take that advantage from a rival bidding 3 coins on it
    g = _battle({"Lotus": 2, "Koi": 3}, coins=8, ronin=3)
    bid = _ask(g, "Lotus")
    assert bid["type"] == "bid" and bid["ronin"] >= 4
    g.do("Lotus", **bid).bid("Koi", ronin=3)
    _answer_prompts(g, "Lotus")
    assert ["Kansai", "spring"] in g.p("Lotus")["war_tokens"]


def test_bid_takes_the_hostage_that_wins_a_war_tied_on_force():
    # 2 against 2, and Koi wins ties (more Honor): Lotus bids on Take Hostage
    # enough to beat a rival's 3 coins, takes a Koi figure and the province
    g = _battle({"Lotus": 2, "Koi": 2}, coins=8)
    bid = _ask(g, "Lotus")
    assert bid["hostage"] >= 4
    g.do("Lotus", **bid).bid("Koi", hostage=3)
    _answer_prompts(g, "Lotus")
    assert ["Kansai", "spring"] in g.p("Lotus")["war_tokens"]


def test_bid_turns_a_lost_war_into_vp():
    # 2 Force against 6: Lotus cannot win; it bids nothing on Hostage or Ronin,
    # but on Seppuku (its figures die anyway: 1 VP each) and Imperial Poets
    # (1 VP per figure killed, its own included)
    g = _battle({"Lotus": 2, "Koi": 6}, coins=8)
    bid = _ask(g, "Lotus")
    assert bid["ronin"] == bid["hostage"] == 0 and bid["seppuku"] >= 1 and bid["poets"] >= 1
    g.do("Lotus", **bid).bid("Koi")
    _answer_prompts(g, "Lotus")
    assert g.vp("Lotus") == 4


def test_bid_ahead_takes_a_hostage():
    g = _battle({"Lotus": 3, "Koi": 2}, coins=8)
    bid = _ask(g, "Lotus")
    assert bid["hostage"] >= 3


def test_marshal_moves_into_an_empty_war_province_once():
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    g.put("Koi", "bushi", "Edo").put("Koi", "daimyo", "Edo")
    g.s["war_provinces"] = ["Oshu", "Shikoku"]
    g.frame("marshal", seat=g.seat("Koi"), moved=[], strongholds_moved=[], bonus=False, toll=False)
    first = _ask(g, "Koi")
    assert first == {"type": "move", "from": "Edo", "kind": first["kind"], "to": "Oshu"}
    g.do("Koi", **first)
    second = _ask(g, "Koi")  # one figure takes Oshu: the other does not pile up there
    assert second == {"type": "done"} or second["to"] != "Oshu"


def test_recruit_summons_where_a_war_is_close():
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    g.strongholds("Koi", ["Edo", "Kyoto"]).put("Lotus", "bushi", "Kyoto")
    g.s["war_provinces"] = ["Kyoto"]
    g.frame("recruit", seat=g.seat("Koi"), count=0, slots={"Edo": 1, "Kyoto": 1}, extra=1, any=0)
    cmd = _ask(g, "Koi")
    assert cmd["type"] == "summon" and cmd["province"] == "Kyoto" and "shrine" not in cmd


def test_mandate_holder_picks_the_harvest_of_the_provinces_it_holds():
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    g.put("Koi", "bushi", "Kyoto").put("Koi", "bushi", "Kansai").put("Koi", "bushi", "Edo")
    g.s["war_provinces"] = ["Hokkaido"]
    g.mandate_turn("Koi", ["harvest", "train", "train", "betray"])
    g.s["display"] = []
    assert _ask(g, "Koi") == {"type": "choose_mandate", "tile": "harvest"}


def test_train_buys_a_monster_not_nothing():
    g = Game(["Koi", "Lotus", "Turtle"]).display("River Dragon", "Respect")
    g.set("Koi", coins=5)
    g.frame("train", seat=g.seat("Koi"), discount=0, ryujin=False)
    assert _ask(g, "Koi") == {"type": "buy", "card": "River Dragon"}


def test_tea_seeks_an_ally_but_not_the_leader():
    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly"]).set("Lotus", vp=5).set("Turtle", vp=1)
    g.set("Dragonfly", vp=2, war_tokens=[["Kyoto", "spring"], ["Edo", "spring"], ["Oshu", "spring"]])
    assert _ask(g, "Koi") == {"type": "propose_alliance", "to": g.seat("Turtle")}
    g.do("Dragonfly", type="propose_alliance", to=g.seat("Koi"))  # the leader (15 VP with its set)
    g.do("Lotus", type="propose_alliance", to=g.seat("Koi"))
    assert _ask(g, "Koi") == {"type": "accept_alliance", "from": g.seat("Lotus")}


def test_betray_replaces_the_figure_that_holds_a_war_province():
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    g.put("Lotus", "bushi", "Kyoto").put("Turtle", "bushi", "Oshu")
    g.s["war_provinces"] = ["Kyoto"]
    g.frame("betray", seat=g.seat("Koi"), base=2, extra=0, targeted=[])
    cmd = _ask(g, "Koi")
    # Kyoto's war first (Oshu has no war this season: only its harvest)
    assert cmd == {
        "type": "betray",
        "owner": g.seat("Lotus"),
        "at": "Kyoto",
        "kind": "bushi",
        "with": "bushi",
    }


def test_build_where_one_more_figure_wins_but_keep_autumn_bid_coins():
    g = Game(["Koi", "Lotus", "Turtle"]).clear()
    g.put("Koi", "bushi", "Kansai").put("Lotus", "bushi", "Kansai", 2).put("Koi", "bushi", "Oshu")
    g.s["war_provinces"] = ["Kansai", "Oshu"]
    g.set("Koi", coins=4, strongholds=["Edo"])
    g.frame("build", seat=g.seat("Koi"))
    assert _ask(g, "Koi") == {"type": "build", "province": "Kansai"}
    g.s["season"] = 2
    assert _ask(g, "Koi") == {"type": "done"}


def test_force_map_of_a_view_is_the_engines_force():
    # a whole game (battles with hired Ronin, monsters, Turtle Strongholds; the
    # seed is one whose rules-version-6 game hires Ronin):
    # the Force read from each seat's view is the engine's
    bots = ["heuristic", "heuristic", "random", "random", "random"]
    state = fold(RULES, RULES.start([None] * 5, {}, rng_factory("fm2", 1)))
    rnd, seq, hired = random.Random(0), 2, 0
    while RULES.outcome(state) is None:
        seat = rnd.choice(RULES.pending(state)).seat
        forces = force_map(table_of(RULES.view(state, seat)))
        assert forces == {p: [force(state, q, p) for q in range(5)] for p in PROVINCES}
        b = state.get("battle")
        hired += bool(b and any(b["hired_ronin"].values()))
        cmd = json.loads(canonical_json(play(RULES, state, seat, bots[seat], rnd, 5, parts=PARTS)))
        for e in RULES.decide(state, seat, cmd, rng_factory("fm2", seq)):
            seq += 1
            if not e.type.startswith("core."):
                state = RULES.evolve(state, e)
    assert hired  # the game did check a battle's hired Ronin
