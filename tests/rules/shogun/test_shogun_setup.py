"""Setup: options, money, beginner set-ups, the draft with its repeated-pair rule, tower
seeding, the year's events (reference 2, 3)."""

import pytest
from shogun_helpers import act, new_game, of_type, roundtrip, run

from games.rules.base import IllegalCommand, fold, rng_factory
from games.rules.shogun import data
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import clone, draft_of, on_map, owned, phase_of, supply


def started(n, **opts):
    events = roundtrip(RULES.start([None] * n, opts, rng_factory(f"s{n}", 1)))
    return fold(RULES, events), events


@pytest.mark.parametrize("n,money", [(3, 18), (4, 15), (5, 12)])
def test_starting_chests_and_year_events(n, money):
    s, events = started(n)
    assert [p["money"] for p in s["players"]] == [money] * n
    assert len(s["year_events"]) == 4 and set(s["year_events"]) <= set(data.EVENT_IDS)
    assert len(s["in_play"]) == (37 if n == 3 else 45)
    assert phase_of(s) == "draft"


def test_tower_seeding_keeps_stuck_cubes_and_makes_officials():
    s, events = started(4)
    seeded = of_type(events, "TowerSeeded")[0]
    t = s["tower"]
    assert t["tray"] == []
    stuck = t["l1"] + t["l2"]
    for seat in range(4):
        assert stuck.count(seat) + seeded["fell"][seat] == 7
        assert s["players"][seat]["vestibule"] == seeded["officials"][seat] == seeded["fell"][seat]
        assert supply(s, seat) == 62 - stuck.count(seat)
    assert stuck.count(data.GREEN) + seeded["green_fell"] == 10


def test_options_schema_defaults():
    props = RULES.options_schema["properties"]
    assert {k: v["default"] for k, v in props.items()} == {
        "board": "sun",
        "setup": "draft",
        "tennos_court": True,
        "samurai": False,
        "revolt_order": "classic",
        "court_conversion": "exact",
        "recruit1": "optional",
        "forced_execution": False,
        "theatre_calms": "all",
    }
    assert RULES.options_schema["additionalProperties"] is False
    assert RULES.factions(3, {}) == ["blue", "red", "yellow", "purple", "black"]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_beginner_setups(n):
    s = new_game(n)
    table = data.SETUP["beginner"][n]
    for seat, letter in enumerate(sorted(table)):
        mine = {p: s["provinces"][p]["armies"] for p in owned(s, seat)}
        assert mine == table[letter]
    assert phase_of(s) == "plan"


def test_draft_pick_from_display_and_refill():
    s, _ = started(4)
    d = draft_of(s)
    seat = (d["first"] + d["turn"]) % 4
    assert [(p.seat, p.kind) for p in RULES.pending(s)] == [(seat, "draft")]
    card = d["display"][0]
    s2, events = act(s, seat, {"type": "draft", "card": card, "village": 5}, rng=rng_factory("d", 2))
    assert s2["provinces"][card] == {**s["provinces"][card], "owner": seat, "armies": 5}
    assert len(draft_of(s2)["display"]) == 2 and card not in draft_of(s2)["display"]
    assert draft_of(s2)["villages"][seat] == [4, 4, 3, 3, 2, 2, 2]
    with pytest.raises(IllegalCommand):
        act(s2, seat, {"type": "draft", "card": "blind", "village": 4})  # not his turn


def test_draft_blind_pick():
    s, _ = started(3)
    seat = draft_of(s)["first"]
    s2, events = act(s, seat, {"type": "draft", "card": "blind", "village": 2}, rng=rng_factory("d", 3))
    got = of_type(events, "ProvinceDrafted")[0]
    assert got["source"] == "blind" and got["province"] not in draft_of(s)["display"]
    assert got["province"] in s["in_play"]
    assert draft_of(s2)["display"] == draft_of(s)["display"]


def test_draft_repeated_pair_goes_under_the_deck():
    s, _ = started(4)
    s = clone(s)
    d = draft_of(s)
    seat = (d["first"] + d["turn"]) % 4
    d["offered"] = False
    d["last_offer"][seat] = sorted(d["display"])
    old = list(d["display"])
    s2, events = run(s, rng_factory("r", 4))
    rec = of_type(events, "DraftDisplayRecycled")[0]
    assert rec["recycled"] == old and not set(rec["display"]) & set(old)
    assert draft_of(s2)["bottom"][-2:] == old
    assert of_type(events, "DraftTurnBegan")[0]["display"] == rec["display"]


def test_full_draft_places_every_village():
    s, _ = started(4)
    while phase_of(s) == "draft":
        p = RULES.pending(s)[0]
        s, _ = act(
            s,
            p.seat,
            RULES.legal_commands(s, p.seat).commands[-1],
            rng=rng_factory("f", draft_of(s)["turn"] + 5),
        )
    for seat in range(4):
        assert len(owned(s, seat)) == 8 and on_map(s, seat) == 25
    assert phase_of(s) == "plan"


def test_start_rejects_bad_player_counts():
    with pytest.raises(ValueError):
        RULES.start([None, None], {}, rng_factory("x", 1))


@pytest.mark.parametrize("opts", [{"board": "mars"}, {"samurai": 1}, {"chambers": True}])
def test_start_rejects_bad_options(opts):
    from games.rules.base import BadCommand

    with pytest.raises(BadCommand):
        RULES.start([None] * 3, opts, rng_factory("x", 1))
