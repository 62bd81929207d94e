"""Every Imjin view, the one before setup included, starts with the kit's common header
(kit.view_header): ruleset, rules version, phase (the kind of the position's top
frame), seats to act, whose view, ended, each seat's score (its side's count of
controlled land territories: Imjin has no victory points) and the play order; a client reads these instead of guessing."""

import pytest

from games.rules.base import fold, rng_factory
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import RULES_VERSION, lands_of
from games.rules.kit import position
from games.rules.testing import play_random_game


@pytest.mark.parametrize("version", [2, 3, RULES_VERSION])
def test_the_view_before_setup_has_the_header(version):
    rules = RULES.for_rules_version(version)
    for seat in (None, 0):
        assert rules.view(rules.initial_state(), seat)["header"] == {
            "ruleset": "imjin",
            "rules_version": version,
            "phase": "setup",
            "to_act": [],
            "seat": seat,
            "ended": False,
            "scores": [],
            "order": [],
            "private": [],
        }


@pytest.mark.parametrize("version,players", [(3, 2), (RULES_VERSION, 2), (RULES_VERSION, 4)])
def test_every_view_of_a_game_has_the_header(version, players):
    rules = RULES.for_rules_version(version)
    out = play_random_game(rules, [None] * players, {}, seed=version + players, check_every=10000)
    state = rules.initial_state()
    seen_phases = set()
    for count, event in enumerate(out.events):
        state = fold(rules, [event], state)
        seen_phases.add(position.kind(state))
        if count % 25:
            continue
        for seat in (None, *range(players)):
            header = rules.view(state, seat)["header"]
            assert header["ruleset"] == "imjin" and header["rules_version"] == version
            assert header["seat"] == seat and header["phase"] == position.kind(state)
            assert header["to_act"] == sorted({pending.seat for pending in rules.pending(state)})
            assert header["ended"] is (rules.outcome(state) is not None)
            if state.get("stage") == "play":
                assert header["scores"] == [lands_of(state, side) for side in state["side"]]
                assert header["order"] == state["order"] and sorted(header["order"]) == list(range(players))
            else:
                assert header["scores"] == header["order"] == []
    final = rules.view(out.state, None)["header"]
    assert final["ended"] and final["to_act"] == []
    assert final["scores"] == [lands_of(out.state, side) for side in out.state["side"]] and any(
        final["scores"]
    )
    assert {"pick_generals", "place_general", "advance_wheel"} <= seen_phases


def test_the_header_names_the_seats_to_act():
    events = RULES.start([None] * 4, {}, rng_factory("header", 1))
    state = fold(RULES, events)
    header = RULES.view(state, 2)["header"]
    assert header["to_act"] and header["to_act"] == sorted({pending.seat for pending in RULES.pending(state)})
    assert header["phase"] == RULES.pending(state)[0].kind
    assert header["order"] == state["order"] and sorted(header["order"]) == [0, 1, 2, 3]
    assert header["scores"] == [lands_of(state, side) for side in state["side"]]
    for a, b in ((0, 1), (0, 2), (0, 3)):  # team-mates share their side's count
        assert (header["scores"][a] == header["scores"][b]) or state["side"][a] != state["side"][b]
