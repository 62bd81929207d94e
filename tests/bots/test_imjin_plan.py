"""The Imjin heuristic's rule-based decisions (games/bots/imjin/plan.py): each on a
small table built for it, through the hook the heuristic calls (`plan.decide` on
the seat's view and legal set)."""

from __future__ import annotations

import random

import pytest

from games import plugins
from games.bots import heuristic
from games.bots.base import Budget, InfoSet
from games.bots.imjin import actions, battles, generals, odds, plan, position, worlds
from games.rules.base import fold, rng_factory
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import copy, head_prompt, set_prompts, stage_frame

JAPAN, ALLIES = 0, 1


def _table() -> dict:
    """A 2-player game past its setup (defaults), at Japan's first wheel advance."""
    state = fold(RULES, RULES.start(["japan", "allies"], {}, rng_factory("plan", 1)))
    seq = 2
    while head_prompt(state)["kind"] != "advance_wheel":
        seat = RULES.pending(state)[0].seat
        for e in RULES.decide(state, seat, RULES.default_command(state, seat), rng_factory("plan", seq)):
            seq += 1
            if not e.type.startswith("core."):
                state = RULES.evolve(state, e)
    return copy(state)


def _board(s: dict, *units: tuple[str, int, str, int, str | None]) -> None:
    """Only these units on the map: (id, owner, area, troops, general)."""
    for rec in s["generals"].values():
        if rec["where"] == "map":
            rec["where"], rec["unit"] = "hand", None
    s["units"] = {}
    for uid, owner, area, troops, general in units:
        s["units"][uid] = {"owner": owner, "area": area, "troops": troops, "general": general}
        if general:
            s["generals"][general] = {"owner": owner, "where": "map", "unit": uid, "damage": 0}
    s["next_uid"] = 100


def _ask(s: dict, prompt: dict, action: str = "move_battle") -> None:
    s["position"] = [
        stage_frame({"stage": "turn", "turn": prompt["seat"], "step": "act", "action": action}),
        prompt,
    ]
    s["act"] = {}


def _choice(s: dict, seat: int) -> dict:
    legal = RULES.legal_commands(s, seat)
    infos = InfoSet(RULES, seat, s["n"], lambda rng: worlds.sample(s, seat, rng))
    cmd = plan.decide(RULES.view(s, seat), seat, legal, random.Random(1), infos)
    assert cmd is not None, "the rule left this decision to the lookahead"
    assert cmd in [dict(c) for c in legal.commands]
    return cmd


def test_the_heuristic_takes_these_decisions_through_the_hook():
    assert plugins.IMJIN.bots.evaluation.decide is plan.decide
    s = _table()
    _board(s, ("u1", JAPAN, "GG_L", 1, None), ("u2", ALLIES, "GG_R", 4, "li_rusong"))
    _ask(s, {"kind": "declare", "seat": JAPAN, "draft": None})
    infos = InfoSet(RULES, JAPAN, 2, lambda rng: worlds.sample(s, JAPAN, rng), plugins.IMJIN.bots)
    legal = RULES.legal_commands(s, JAPAN)
    assert heuristic.choose(RULES.view(s, JAPAN), legal, random.Random(1), Budget(worlds=infos)) == {
        "type": "fight"
    }


def test_odds_of_troop_hits():
    assert odds.at_least(3, 1) == pytest.approx(1 - (2 / 3) ** 3)
    assert odds.at_least(2, 3) == 0.0
    assert odds.expected_losses(6, 1) == pytest.approx(1 - (2 / 3) ** 6)


def test_attacks_a_weak_unit_holding_an_enemy_land():
    s = _table()
    # 4 Japanese troops under 加藤清正 (+2 dice on land) next to 1 allied troop alone in 京畿右道
    _board(s, ("u1", JAPAN, "GG_L", 4, "kato_kiyomasa"), ("u2", ALLIES, "GG_R", 1, None))
    _ask(s, {"kind": "declare", "seat": JAPAN, "draft": None})
    assert _choice(s, JAPAN) == {
        "type": "attack",
        "target": "u2",
        "main": "u1",
        "via": None,
        "mode": "normal",
    }


def test_does_not_attack_against_the_odds():
    s = _table()
    _board(s, ("u1", JAPAN, "GG_L", 1, None), ("u2", ALLIES, "GG_R", 4, "li_rusong"))
    _ask(s, {"kind": "declare", "seat": JAPAN, "draft": None})
    assert _choice(s, JAPAN) == {"type": "fight"}


def test_adds_a_cheap_support_then_confirms():
    s = _table()
    _board(
        s,
        ("u1", JAPAN, "GG_L", 3, None),
        ("u3", JAPAN, "CC_R", 1, None),
        ("u2", ALLIES, "GG_R", 3, None),
    )
    draft = {"target": "u2", "main": "u1", "via": None, "mode": "normal", "supports": []}
    _ask(s, {"kind": "declare", "seat": JAPAN, "draft": draft})
    assert _choice(s, JAPAN) == {"type": "support", "unit": "u3"}
    head_prompt(s)["draft"] = {**draft, "supports": ["u3"]}
    assert _choice(s, JAPAN) == {"type": "confirm"}


def test_marches_into_an_empty_enemy_land():
    s = _table()
    # 平安東道 is allied and empty; the Japanese unit next to it in 黃海左道 takes it
    s["control"]["HH_L"] = "japan"
    _board(s, ("u1", JAPAN, "HH_L", 2, None), ("u2", ALLIES, "HG_N", 1, None))
    _ask(s, {"kind": "move", "seat": JAPAN, "mode": "action", "moved": []})
    cmd = _choice(s, JAPAN)
    assert cmd["type"] == "move" and cmd["unit"] == "u1"
    assert cmd["path"][-1] in ("PA_E", "PA_W", "HH_R", "GG_R")  # an empty allied land


def test_a_unit_with_a_battle_to_fight_stays_put():
    s = _table()
    _board(s, ("u1", JAPAN, "GG_L", 4, "kato_kiyomasa"), ("u2", ALLIES, "GG_R", 1, None))
    _ask(s, {"kind": "move", "seat": JAPAN, "mode": "action", "moved": []})
    assert _choice(s, JAPAN) == {"type": "done"}


def test_wheel_marches_when_a_battle_pays_and_collects_when_broke():
    s = _table()
    _board(s, ("u1", JAPAN, "GG_L", 4, "kato_kiyomasa"), ("u2", ALLIES, "GG_R", 1, None))
    s["wheel"]["japan"] = 1  # Supply: one step to Recruit, two to Move/Battle
    set_prompts(s, [{"kind": "advance_wheel", "seat": JAPAN}])
    s["supply"][JAPAN] = 20
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 2}
    s["supply"][JAPAN] = 3
    s["wheel"]["japan"] = 0  # Move/Battle: one step to Supply
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 1}


def test_wheel_never_pays_for_a_third_step():
    s = _table()
    s["wheel"]["japan"] = 1
    legal = [{"type": "advance", "steps": k} for k in (1, 2, 3)]
    assert set(actions.reachable(s, JAPAN, legal)) == {"recruit_reorganize", "move_battle"}


def test_recruits_at_the_front():
    s = _table()
    # 慶尚左道 (rear) and 京畿左道 (next to an allied unit): recruits go to the front
    _board(s, ("u1", JAPAN, "GS_L", 2, None), ("u3", JAPAN, "GG_L", 2, None), ("u2", ALLIES, "GG_R", 4, None))
    s["supply"][JAPAN] = 30
    _ask(
        s,
        {"kind": "recruit", "seat": JAPAN, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
        "recruit_reorganize",
    )
    cmd = _choice(s, JAPAN)
    assert cmd["type"] == "recruit" and cmd["area"] in ("GG_L", "CC_R", "GW_W")  # next to 京畿右道


def test_keeps_a_stock_when_recruiting():
    s = _table()
    _board(s, ("u1", JAPAN, "GG_L", 2, None), ("u2", ALLIES, "GG_R", 4, None))
    s["supply"][JAPAN] = 6
    _ask(
        s,
        {"kind": "recruit", "seat": JAPAN, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
        "recruit_reorganize",
    )
    assert _choice(s, JAPAN) == {"type": "done"}


def test_battle_worth_counts_the_land_taken():
    s = _table()
    _board(
        s, ("u1", JAPAN, "GG_L", 4, None), ("u2", ALLIES, "GG_R", 1, None), ("u3", ALLIES, "GG_R", 1, None)
    )
    draft = {"target": "u2", "main": "u1", "via": None, "mode": "normal", "supports": []}
    shared = battles.score(s, JAPAN, draft)  # another allied unit stays: no land taken
    del s["units"]["u3"]
    assert battles.score(s, JAPAN, draft) > shared + 5


def test_a_second_battle_on_a_stacked_area_counts_the_whole_land():
    s = _table()
    _board(
        s,
        ("u1", JAPAN, "GG_L", 4, None),
        ("u4", JAPAN, "GW_W", 4, None),
        ("u2", ALLIES, "GG_R", 1, None),
        ("u3", ALLIES, "GG_R", 1, None),
    )
    draft = {"target": "u3", "main": "u4", "via": None, "mode": "normal", "supports": []}
    first = battles.score(s, JAPAN, draft)
    s["act"] = {"battles": [{"n": 0, "target": "u2", "main": "u1", "supports": [], "done": False}]}
    assert battles.score(s, JAPAN, draft) > first + 5


def test_wheel_marches_with_a_rich_stock_even_without_a_battle_in_sight():
    s = _table()
    # 全羅右道 touches only Japanese lands and seas: no land to take, no battle
    _board(s, ("u1", JAPAN, "JL_R", 2, None), ("u2", ALLIES, "HG_N", 1, None))
    s["wheel"]["japan"] = 1
    set_prompts(s, [{"kind": "advance_wheel", "seat": JAPAN}])
    s["supply"][JAPAN] = actions.RICH
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 2}
    s["supply"][JAPAN] = actions.RICH - 1  # nothing to take next door: recruit instead
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 1}


def test_deploys_the_strongest_card_onto_the_biggest_unit_at_the_front():
    s = _table()
    _board(s, ("u1", JAPAN, "GS_L", 1, None), ("u3", JAPAN, "GG_L", 4, None), ("u2", ALLIES, "GG_R", 4, None))
    s["hands"][JAPAN] = ["kato_kiyomasa", "kuki_yoshitaka"]
    s["supply"][JAPAN] = 20
    _ask(
        s,
        {"kind": "manage", "seat": JAPAN, "deployed": False, "blocked_generals": [], "blocked_units": []},
        "supply_general",
    )
    assert _choice(s, JAPAN) == {"type": "deploy", "general": "kato_kiyomasa", "unit": "u3"}
    s["supply"][JAPAN] = 10  # 5 to deploy would leave less than the stock kept for marching
    assert _choice(s, JAPAN) == {"type": "done"}


def test_setup_picks_the_card_with_most_dice():
    legal = [
        {"type": "pick_general", "general": g} for g in ("kuki_yoshitaka", "kato_kiyomasa", "mori_hidemoto")
    ]
    assert generals.best_pick(legal) == {"type": "pick_general", "general": "kato_kiyomasa"}


def test_in_the_last_deck_the_side_losing_the_count_fights_harder_for_lands():
    s = _table()  # 8 lands each, income 20 vs 24: Japan loses the final count
    _board(s, ("u1", JAPAN, "GG_L", 2, None), ("u2", ALLIES, "GG_R", 2, None))
    draft = {"target": "u2", "main": "u1", "via": None, "mode": "normal", "supports": []}
    s["resets"] = 1
    assert not position.urgent(s, "japan")
    calm = battles.score(s, JAPAN, draft)
    s["resets"] = 2  # the next Reset ends the game
    assert position.urgent(s, "japan") and not position.urgent(s, "allies")
    assert battles.score(s, JAPAN, draft) > calm + 3
    s["wheel"]["japan"] = 2  # Recruit: one step to Move/Battle, two to Supply
    set_prompts(s, [{"kind": "advance_wheel", "seat": JAPAN}])
    s["supply"][JAPAN] = 2  # so poor it would collect, but for the urgency
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 1}
    s["resets"] = 1
    assert _choice(s, JAPAN) == {"type": "advance", "steps": 2}
