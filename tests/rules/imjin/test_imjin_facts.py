"""Rules version 4: units, generals, the decision queue and the turn change through
facts (UnitFormed, UnitsMoved, TroopsChanged, UnitDestroyed, GeneralWounded,
GeneralHealed, GeneralKilled, DecisionQueued, DecisionTaken, TurnBegan, BattleDeclared,
...) instead of the record patches UnitsChanged, GeneralsChanged and FlowChanged. The
patches still fold, so older games replay. Same commands, same dice: version-3 and
version-4 games reach the same states."""

import json
import random

import pytest
from imjin_helpers import LAND, duel, fight, rt, scripted

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.imjin import events as ev
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import prompts, set_prompts
from games.rules.testing import pick

J, A = 0, 1
PATCHES = {ev.UNITS_CHANGED, ev.GENERALS_CHANGED, ev.FLOW_CHANGED}
FACTS = {
    ev.UNIT_FORMED,
    ev.UNITS_MOVED,
    ev.TROOPS_CHANGED,
    ev.UNIT_DESTROYED,
    ev.GENERAL_WOUNDED,
    ev.GENERAL_HEALED,
    ev.GENERAL_KILLED,
}


def _without_version(s):
    return {k: v for k, v in s.items() if k != "rules_version"}


@pytest.mark.parametrize("old_version,n,seed", [(3, 2, 1), (3, 4, 2), (3, 2, 3), (3, 4, 4)])
def test_older_versions_reach_the_same_states(old_version, n, seed):
    v3 = RULES.for_rules_version(old_version)
    rnd = random.Random(seed)
    gs = f"facts-{seed}"
    new = [rt(e) for e in RULES.start([None] * n, {}, rng_factory(gs, 1))]
    old = [rt(e) for e in v3.start([None] * n, {}, rng_factory(gs, 1))]
    s_new, s_old = fold(RULES, new), fold(v3, old)
    types = set()
    while RULES.outcome(s_new) is None:
        p = rnd.choice(RULES.pending(s_new))
        cmd = json.loads(canonical_json(dict(pick(RULES.legal_commands(s_new, p.seat), rnd))))
        assert RULES.legal_commands(s_new, p.seat) == v3.legal_commands(s_old, p.seat)
        # both decide with the same stream (the version-4 log's length), so the dice agree
        batch_new = [rt(e) for e in RULES.decide(s_new, p.seat, cmd, rng_factory(gs, len(new) + 1))]
        batch_old = [rt(e) for e in v3.decide(s_old, p.seat, cmd, rng_factory(gs, len(new) + 1))]
        for e in batch_new:
            s_new = s_new if e.type.startswith("core.") else RULES.evolve(s_new, e)
            types.add(e.type)
        for e in batch_old:
            s_old = s_old if e.type.startswith("core.") else v3.evolve(s_old, e)
        new += batch_new
        old += batch_old
        assert _without_version(s_new) == _without_version(s_old), cmd
    assert not types & PATCHES
    assert {
        ev.UNITS_MOVED,
        ev.TROOPS_CHANGED,
        ev.DECISION_QUEUED,
        ev.DECISION_TAKEN,
        ev.TURN_BEGAN,
        ev.ACTION_CHOSEN,
        ev.ACTION_STARTED,
        ev.ACTION_ENDED,
    } <= types
    assert fold(RULES, new) == s_new
    assert any(e.type in PATCHES for e in old) and fold(v3, old) == s_old  # the patches still fold


def test_a_general_killed_in_battle_is_a_fact():
    g = duel(None, "mori_hidemoto", att=A, def_troops=5, def_damage=2)
    fight(g, dice=("將徽徽", "徽徽徽徽徽"))
    batch = [e for e in g.events if e.type in FACTS]
    assert [(e.type, dict(e.payload)) for e in batch[-3:]] == [
        (ev.GENERAL_WOUNDED, {"general": "mori_hidemoto", "hits": 1, "damage": 3, "hp": 0}),
        (ev.GENERAL_KILLED, {"general": "mori_hidemoto", "unit": "u2", "killer_side": "allies"}),
        (ev.TROOPS_CHANGED, {"unit": "u2", "troops": 4, "delta": -1, "reason": "mori_leaves"}),
    ]


def test_a_destroyed_unit_and_an_advance_are_facts():
    g = duel(att=J, att_troops=3, def_troops=1)
    fight(g, dice=("馬馬馬", "徽"))
    destroyed = [e.payload for e in g.events if e.type == ev.UNIT_DESTROYED][-1]
    assert destroyed == {"unit": "u2", "owner": A, "area": LAND[1], "reason": "battle"}
    assert g.head["kind"] == "advance"
    g.do(J, {"type": "advance_into", "go": True})
    moved = [e.payload for e in g.events if e.type == ev.UNITS_MOVED][-1]
    assert moved == {"moves": [{"unit": "u1", "from": LAND[0], "to": LAND[1]}], "reason": "advanced"}


def test_a_declared_battle_is_a_fact():
    g = duel(att=J)
    g.do(J, {"type": "attack", "target": "u2", "main": "u1", "via": None, "mode": "normal"})
    g.do(J, {"type": "confirm"})
    declared = [e.payload for e in g.events if e.type == ev.BATTLE_DECLARED][-1]
    assert declared["battle"]["target"] == "u2" and declared["battle"]["main"] == "u1"
    assert g.state["act"]["used"] == ["u1"] and g.state["act"]["battles"] == [declared["battle"]]
    g.do(J, {"type": "fight"})
    g.do(J, {"type": "resolve", "battle": 0}, rng=scripted("徽", "徽"))
    assert [e.payload for e in g.events if e.type == ev.BATTLE_STARTED] == [{"battle": 0}]


def test_a_move_marks_the_unit_through_a_fact():
    g = duel(att=J)
    g.edit(
        lambda s: set_prompts(s, [{"kind": "move", "seat": J, "mode": "action", "moved": []}, *prompts(s)])
    )
    g.do(J, {"type": "move", "unit": "u1", "path": ["GG_L"]})
    assert [e.payload for e in g.events if e.type == ev.UNIT_MARKED_MOVED] == [
        {"unit": "u1", "may_fight": False}
    ]
    assert g.state["act"]["moved"] == ["u1"] and g.state["act"]["li_fight"] == []
