"""The named house-rule options of the binding review (Appendix R #1, #10, #12, §15.7
E01/E02): each changes behaviour when set, and its default keeps today's behaviour."""

import pytest
from shogun_helpers import act, clear_board, new_game, of_type, own, run, setup_action

from games.rules.base import BadCommand, IllegalCommand, rng_factory
from games.rules.shogun.options import OPTIONS, normalise
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import enter, supply

NEW = {"court_conversion": "exact", "recruit1": "optional", "forced_execution": False, "theatre_calms": "all"}


def board(n=4, **opts):
    s = clear_board(new_game(n, **opts))
    for pl in s["players"]:
        pl["money"] = 10
    return s


def pending(s):
    return [(p.seat, p.kind) for p in RULES.pending(s)]


def listed(s, seat):
    return list(RULES.legal_commands(s, seat).commands)


# --- the schema and the rules versions ---------------------------------------------------


def test_new_options_are_in_the_schema_with_todays_defaults():
    props = RULES.options_schema["properties"]
    assert {k: props[k]["default"] for k in NEW} == NEW
    assert props["forced_execution"]["type"] == "boolean"
    assert props["court_conversion"]["enum"] == ["exact", "up_to"]
    assert props["recruit1"]["enum"] == ["optional", "mandatory"]
    assert props["theatre_calms"]["enum"] == ["all", "one"]
    assert all(OPTIONS[k].since == 3 for k in NEW)


def test_older_rules_versions_neither_offer_nor_fill_in_the_new_options():
    old = RULES.for_rules_version(2)
    assert not set(NEW) & set(old.options_schema["properties"])
    assert set(normalise({}, 2)) == {"board", "setup", "tennos_court", "samurai", "revolt_order"}
    with pytest.raises(BadCommand):
        normalise({"forced_execution": True}, 2)
    started = old.start([None] * 3, {}, rng_factory("v2", 1))[0]
    assert set(started.payload["opts"]) == set(normalise({}, 2))
    assert RULES.start([None] * 3, {}, rng_factory("v3", 1))[0].payload["opts"] == {**normalise({}, 2), **NEW}


def test_a_state_folded_from_an_old_game_reads_the_defaults():
    s = new_game(3)
    for key in NEW:
        del s["opts"][key]
    from games.rules.shogun.options import option

    assert {k: option(s, k) for k in NEW} == NEW


@pytest.mark.parametrize(
    "key,value", [("forced_execution", 1), ("court_conversion", "some"), ("recruit1", True)]
)
def test_bad_option_values_are_refused(key, value):
    with pytest.raises(BadCommand):
        normalise({key: value}, 3)


# --- court_conversion: up_to ([tek], R #1) ------------------------------------------------


def _court(**opts):
    s = clear_board(new_game(4, **opts))
    own(s, "Yamato", 3, 2)
    s = setup_action(s, "castle", {3: {"castle": "Yamato"}}, blocker=False)
    s["players"][3]["money"] = 10
    enter(s, "court")
    for pl in s["players"]:
        pl.update(officials=7, vestibule=0, hall=0)
    return s


def _plan(s, seat, c3, c2, c1):
    s["plans"][seat].update({f"court{k}": {"card": c, "salt": "a"} for k, c in ((3, c3), (2, c2), (1, c1))})


@pytest.mark.parametrize("mode,vestibule,kai,tray", [("exact", 3, 1, 2), ("up_to", 4, 1, 1)])
def test_up_to_conversion_converts_what_the_officials_allow(mode, vestibule, kai, tray):
    """T2 variant: 4 officials, Kai (4 armies) on 3, tower card on 2 with 2 cubes in the tray."""
    s = _court(court_conversion=mode)
    own(s, "Kai", 0, 4)
    s["tower"]["tray"] = [0, 0]
    s["players"][0]["officials"] = 4
    _plan(s, 0, "Kai", "tower1", "chest2")
    s2, events = run(s)
    assert s2["players"][0]["vestibule"] == vestibule
    assert s2["provinces"]["Kai"]["armies"] == kai and s2["tower"]["tray"].count(0) == tray
    conv = [(c["space"], c["done"], c["n"]) for c in of_type(events, "CourtConverted") if c["seat"] == 0]
    if mode == "up_to":
        assert conv == [("court3", True, 3), ("court2", True, 1), ("court1", False, 1)]


@pytest.mark.parametrize("opts,kai,vestibule", [({}, 3, 0), ({"court_conversion": "up_to"}, 1, 2)])
def test_up_to_conversion_keeps_one_army_behind(opts, kai, vestibule):
    """T5: Kai with 3 armies on space 3 fails when exact; up to 3 converts 2 (1 stays)."""
    s = _court(**opts)
    own(s, "Kai", 0, 3)
    own(s, "Izu", 0, 1)
    _plan(s, 0, "Kai", "chest1", "Izu")
    s2, _ = run(s)
    assert s2["provinces"]["Kai"]["armies"] == kai and s2["players"][0]["vestibule"] == vestibule
    assert s2["provinces"]["Izu"]["armies"] == 1
    assert supply(s2, 0) == supply(s, 0) + vestibule


# --- recruit1: mandatory ([imr], R #10) ---------------------------------------------------


@pytest.mark.parametrize("mode,after_decline", [("optional", [(0, "recruit1:move")]), ("mandatory", [])])
def test_mandatory_recruit_declined_ends_the_action(mode, after_decline):
    s = board(recruit1=mode)
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    s, _ = run(setup_action(s, "recruit1", {0: {"recruit1": "Etchu"}}))
    assert pending(s) == [(0, "recruit1:recruit")]
    s2, _ = act(s, 0, {"type": "decline"})
    assert [p for p in pending(s2) if p[0] == 0] == after_decline


@pytest.mark.parametrize("mode,nxt", [("optional", "move"), ("mandatory", "end")])
def test_mandatory_recruit_without_money_allows_no_move(mode, nxt):
    s = board(recruit1=mode)
    s["players"][0]["money"] = 0
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    _, events = run(setup_action(s, "recruit1", {0: {"recruit1": "Etchu"}}))
    assert of_type(events, "SpaceRevealed")[0]["next"] == nxt


def test_mandatory_recruit_then_the_move_stays_optional():
    s = board(recruit1="mandatory")
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    s, _ = run(setup_action(s, "recruit1", {0: {"recruit1": "Etchu"}}))
    s, _ = act(s, 0, {"type": "execute"})
    assert pending(s)[0] == (0, "recruit1:move") and {"type": "decline"} in listed(s, 0)
    s2, _ = act(s, 0, {"type": "move", "to": "Noto", "armies": 3})
    assert s2["provinces"]["Noto"]["armies"] == 4 and s2["players"][0]["money"] == 9


# --- forced_execution (R #12) -------------------------------------------------------------


@pytest.mark.parametrize("forced", [False, True])
def test_forced_collection_runs_by_itself_and_revolts(forced):
    s = board(forced_execution=forced)
    own(s, "Etchu", 0, 9, markers=1)
    s, events = run(setup_action(s, "rice", {0: {"rice": "Etchu"}}))
    if not forced:
        assert pending(s)[0] == (0, "rice:execute") and {"type": "decline"} in listed(s, 0)
        s2, _ = act(s, 0, {"type": "decline"})
        assert s2["provinces"]["Etchu"]["markers"] == 1  # dodged the revolt
        return
    assert (0, "rice:execute") not in pending(s)
    assert of_type(events, "Collected")[0]["amount"] == 3 and of_type(events, "BattleFought")
    assert s["players"][0]["rice"] == 3


@pytest.mark.parametrize("action", ["castle", "recruit5"])
def test_forced_builds_and_recruits_run_by_themselves(action):
    s = board(forced_execution=True)
    own(s, "Etchu", 0, 2)
    s2, events = run(setup_action(s, action, {0: {action: "Etchu"}}))
    assert (0, f"{action}:execute") not in pending(s2)
    assert s2["players"][0]["money"] == 10 - 3
    assert [e for e in of_type(events, "Built" if action == "castle" else "Recruited") if e["seat"] == 0]


@pytest.mark.parametrize("forced", [False, True])
def test_forced_attack_offers_no_decline(forced):
    s = board(forced_execution=forced)
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    s, _ = run(setup_action(s, "attackA", {0: {"attackA": "Etchu"}}))
    assert pending(s)[0] == (0, "attackA:attack")
    assert ({"type": "decline"} in listed(s, 0)) is not forced
    if forced:
        with pytest.raises(IllegalCommand):
            act(s, 0, {"type": "decline"})
        # a missed deadline moves into his own province rather than fighting
        assert RULES.default_command(s, 0) == {"type": "move", "to": "Noto", "armies": 1}
    else:
        assert RULES.default_command(s, 0) == {"type": "decline"}


def test_forced_recruit1_recruits_and_leaves_the_move_optional():
    s = board(forced_execution=True)
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    s, events = run(setup_action(s, "recruit1", {0: {"recruit1": "Etchu"}}))
    assert of_type(events, "Recruited") and s["provinces"]["Etchu"]["armies"] == 4
    assert pending(s)[0] == (0, "recruit1:move") and {"type": "decline"} in listed(s, 0)


def test_forced_execution_never_forces_the_impossible():
    s = board(forced_execution=True)
    s["players"][0]["money"] = 0
    own(s, "Etchu", 0, 2)
    s2, events = run(setup_action(s, "castle", {0: {"castle": "Etchu"}}))
    assert of_type(events, "SpaceRevealed")[0]["next"] == "end"
    assert not [b for b in of_type(events, "Built") if b["seat"] == 0]


# --- theatre_calms: one (§15.7 E01/E02) ---------------------------------------------------


@pytest.mark.parametrize("opts,left", [({}, 0), ({"theatre_calms": "all"}, 0), ({"theatre_calms": "one"}, 2)])
@pytest.mark.parametrize("event", ["E01", "E02"])
def test_theatre_event_removes_all_or_one_marker(event, opts, left):
    s = board(**opts)
    own(s, "Etchu", 0, 2, markers=3)
    s, _ = run(setup_action(s, "theatre", {0: {"theatre": "Etchu"}}, event=event))
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["provinces"]["Etchu"]["theatre"] and s2["provinces"]["Etchu"]["markers"] == left


def test_one_marker_calming_applies_to_a_favour_theatre_too():
    s = _court(theatre_calms="one")
    s["event"] = "E01"
    own(s, "Etchu", 0, 2, markers=2)
    enter(s, "favour")
    s["round"]["favours"] = [[2, 7]]
    s["round"]["court_queue"] = [0]
    s["players"][0]["vestibule"] = 2
    s2, _ = act(s, 0, {"type": "favour", "card": 7, "use": True, "province": "Etchu"})
    assert s2["provinces"]["Etchu"]["theatre"] and s2["provinces"]["Etchu"]["markers"] == 1
