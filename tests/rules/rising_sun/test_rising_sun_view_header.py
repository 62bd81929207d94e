"""Every Rising Sun view, the one before setup included, starts with the kit's common
header (kit.view_header): ruleset, rules version, phase, seats to act, whose view,
ended, each seat's victory points and the turn order (the seating from the next mandate
drawer); a client reads these instead of guessing from the view's other keys."""

import pytest

from games.rules.base import fold, rng_factory
from games.rules.rising_sun.rules import RULES, RULES_VERSION
from games.rules.testing import play_random_game


def test_the_view_before_setup_has_the_header():
    for seat in (None, 0):
        assert RULES.view(RULES.initial_state(), seat)["header"] == {
            "ruleset": "rising-sun",
            "rules_version": RULES_VERSION,
            "phase": "setup",
            "to_act": [],
            "seat": seat,
            "ended": False,
            "scores": [],
            "order": [],
            "private": [],
        }


@pytest.mark.parametrize("version", [3, RULES_VERSION])
def test_every_view_of_a_game_has_the_header(version):
    rules = RULES.for_rules_version(version)
    out = play_random_game(rules, [None] * 3, {}, seed=version, check_every=10000, check_views=False)
    state = rules.initial_state()
    seen_phases = set()
    for count, event in enumerate(out.events):
        state = fold(rules, [event], state)
        if count % 25:
            continue
        for seat in (None, 0, 1, 2):
            header = rules.view(state, seat)["header"]
            assert header["ruleset"] == "rising-sun" and header["rules_version"] == version
            assert header["seat"] == seat and header["phase"] == state["phase"]
            assert header["to_act"] == sorted({pending.seat for pending in rules.pending(state)})
            assert header["ended"] is (rules.outcome(state) is not None)
            if "players" in state:
                assert header["scores"] == [p["vp"] for p in state["players"]]
                assert sorted(header["order"]) == [0, 1, 2] and header["order"][0] == state["holder"]
                i = state["seating"].index(state["holder"])
                assert header["order"] == state["seating"][i:] + state["seating"][:i]
            else:
                assert header["scores"] == header["order"] == []
        seen_phases.add(state["phase"])
    final = rules.view(out.state, None)["header"]
    assert final["ended"] and final["to_act"] == [] and final["phase"] == out.state["phase"]
    assert final["scores"] == [p["vp"] for p in out.state["players"]] and any(final["scores"])
    assert {"tea", "politics", "war"} <= seen_phases


def test_the_header_names_the_seats_to_act():
    events = RULES.start([None] * 4, {}, rng_factory("header", 1))
    state = fold(RULES, events)
    header = RULES.view(state, 2)["header"]
    to_act = header["to_act"]
    assert to_act and to_act == sorted({pending.seat for pending in RULES.pending(state)})
    assert header["scores"] == [p["vp"] for p in state["players"]] and len(header["scores"]) == 4
    assert sorted(header["order"]) == [0, 1, 2, 3] and header["order"][0] == state["holder"]
