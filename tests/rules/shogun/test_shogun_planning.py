"""Secret planning, commitments, reveals, bids and turn order (reference 4, 6; R #14 #15)."""

import random

import pytest
from shogun_helpers import act, new_game, of_type

from games.rules.base import IllegalCommand, commitment_of, rng_factory
from games.rules.shogun import data, planning
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import owned, phase_of


def plan_of(s, seat, **changes):
    p = planning.default(s, seat)
    p.update(changes)
    return {"type": "plan", "spaces": p}


def test_planning_is_simultaneous_and_secret():
    s = new_game(4)
    assert phase_of(s) == "plan"
    assert sorted(p.seat for p in RULES.pending(s)) == [0, 1, 2, 3]
    legal = RULES.legal_commands(s, 0)
    assert legal.templates and not legal.commands
    s2, events = act(s, 0, plan_of(s, 0), rng=rng_factory("x", 9))
    private = [e for e in events if e.type == "shogun.CardPlanned"]
    public = [e for e in events if e.type == "core.ChoiceCommitted"]
    assert len(private) == len(public) == 14  # 10 + bid + 3 court
    assert all(e.visible_to == (0,) for e in private)
    for e, c in zip(private, public, strict=True):
        assert c.payload["commitment"] == commitment_of(e.payload["salt"], e.payload["choice"])
    assert sorted(p.seat for p in RULES.pending(s2)) == [1, 2, 3]
    assert RULES.view(s2, 1)["round"]["plans"] == {"1": {}}
    assert RULES.view(s2, None)["round"]["plans"] == {}
    assert "salt" not in str(RULES.view(s2, 0))
    assert RULES.view(s2, 0)["round"]["plans"]["0"]["bid"] == "chest0"
    with pytest.raises(IllegalCommand):
        act(s2, 0, plan_of(s2, 0))  # no second plan


@pytest.mark.parametrize(
    "change,reason",
    [
        ({"bid": "chest4", "castle": "chest0"}, None),
        ({"court1": None, "castle": "chest3"}, "court"),
        ({"castle": None}, "empty"),
        ({"castle": "Omi_not_mine"}, "hand"),
    ],
)
def test_plan_validation(change, reason):
    s = new_game(4)
    p = planning.default(s, 0)
    if reason == "hand":
        p["castle"] = "Bizen"  # not seat 0's province
    else:
        for k, v in change.items():
            old = p[k]
            # keep the card count: swap the displaced card into the changed card's space
            where = next((x for x, c in p.items() if c == v and x != k), None)
            p[k] = v
            if where:
                p[where] = old
    if reason is None:
        assert planning.validate(s, 0, p)
    else:
        with pytest.raises(IllegalCommand):
            planning.validate(s, 0, p)


def test_bid_above_money_is_refused():
    s = new_game(4)
    s["players"][0]["money"] = 3
    p = planning.default(s, 0)
    where = next(x for x, c in p.items() if c == "chest4")
    p[where], p["bid"] = "chest0", "chest4"
    with pytest.raises(IllegalCommand):
        planning.validate(s, 0, p)


def test_few_provinces_leave_exactly_the_missing_spaces_empty():
    """R #14: P + 8 cards for 14 spaces; with P = 2 exactly 4 base spaces stay empty."""
    s = new_game(4)
    for name in owned(s, 0)[2:]:
        s["provinces"][name].update(owner=None, armies=0)
    rnd = random.Random(1)
    for _ in range(30):
        p = planning.sample(s, 0, rnd)
        assert list(p.values()).count(None) == 4
        assert all(p[c] is not None for c in data.COURT_SPACES)
        planning.validate(s, 0, p)
    base_game = new_game(4, tennos_court=False)
    assert len(planning.default(base_game, 0)) == 11


def test_sampled_plans_are_accepted():
    s = new_game(5, samurai=True)
    rnd = random.Random(3)
    for seat in range(5):
        cmd = RULES.legal_commands(s, seat).sample(rnd)
        s, _ = act(s, seat, cmd, rng=rng_factory("p", seat + 1))
    assert phase_of(s) in ("special",)


def test_bids_are_paid_and_order_follows_bids_with_random_ties():
    """[tek]: bids Yellow 4, Purple 2, Blue 1, Black 0, Red 0 -> choosing order Yellow,
    Purple, Blue, then Black/Red in a random order; everyone pays his bid."""
    s = new_game(5)
    bids = {0: "chest1", 1: "chest0", 2: "chest4", 3: "chest2", 4: "chest0"}
    for seat in range(5):
        p = planning.default(s, seat)
        where = next(x for x, c in p.items() if c == bids[seat])
        p[where], p["bid"] = p["bid"], bids[seat]
        s, events = act(s, seat, {"type": "plan", "spaces": p}, rng=rng_factory("b", seat + 1))
    revealed = of_type(events, "BidsRevealed")[0]
    assert revealed["bids"] == [1, 0, 4, 2, 0]
    assert revealed["order"][:3] == [2, 3, 0] and set(revealed["order"][3:]) == {1, 4}
    assert [r["choice"] for r in revealed["reveals"]] == [bids[x] for x in range(5)]
    assert [pl["money"] for pl in s["players"]] == [11, 12, 8, 10, 12]
    assert of_type(events, "EventRevealed")[0]["event"] in s["year_events"]
    assert phase_of(s) == "special"
    assert [(p.seat, p.kind) for p in RULES.pending(s)] == [(2, "choose_special")]


def test_special_slot_gives_turn_order():
    """[tek]: bid order Yellow > Purple > Blue > Black > Red gave turn order Purple,
    Yellow, Blue, Black, Red - each took the card on the slot of his turn position."""
    s = new_game(5, tennos_court=False)
    for seat in range(5):
        s, _ = act(s, seat, plan_of(s, seat), rng=rng_factory("o", seat + 1))
    queue = list(s["round"]["queue"])
    slots = {queue[0]: 2, queue[1]: 1, queue[2]: 3, queue[3]: 4, queue[4]: 5}
    for seat in queue:
        with pytest.raises(IllegalCommand):
            other = next(x for x in range(5) if x != seat)
            act(s, other, {"type": "special", "slot": slots[seat]})
        s, _ = act(s, seat, {"type": "special", "slot": slots[seat]})
    assert s["round"]["order"] == [queue[1], queue[0], queue[2], queue[3], queue[4]]
    assert s["players"][queue[0]]["special"] == s["round"]["specials"][1]
    assert phase_of(s) == "actions"


def test_samples_and_default_match_the_template_schema():
    import jsonschema

    s = new_game(4)
    legal = RULES.legal_commands(s, 2)
    schema = legal.templates[0].schema
    jsonschema.Draft202012Validator.check_schema(schema)
    rnd = random.Random(5)
    for _ in range(20):
        jsonschema.validate(legal.sample(rnd), schema)
    jsonschema.validate(RULES.default_command(s, 2), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "plan", "spaces": {"bid": "chest0"}}, schema)


def test_options_schema_is_valid_json_schema():
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(RULES.options_schema)
    jsonschema.validate({"board": "moon", "samurai": True}, RULES.options_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"chambers": True}, RULES.options_schema)
