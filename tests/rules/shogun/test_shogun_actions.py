"""The 10 actions, event cards and special cards (reference 5-7, Appendix R #10 #12 #16
#23 #24)."""

import pytest
from shogun_helpers import act, clear_board, new_game, of_type, own, run, setup_action

from games.rules.base import IllegalCommand
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import card_lost, clone


def board(n=4):
    s = clear_board(new_game(n))
    for pl in s["players"]:
        pl["money"] = 10
    return s


def at(s, action, plans, **kw):
    s, events = run(setup_action(s, action, plans, **kw))
    return s, events


def pending(s):
    return [(p.seat, p.kind) for p in RULES.pending(s)]


@pytest.mark.parametrize(
    "action,kind,cost", [("castle", "castle", 3), ("temple", "temple", 2), ("theatre", "theatre", 1)]
)
def test_build(action, kind, cost):
    s = board()
    own(s, "Etchu", 0, 2)
    s, _ = at(s, action, {0: {action: "Etchu"}})
    assert pending(s) == [(0, f"{action}:execute")]
    s2, events = act(s, 0, {"type": "execute"})
    assert s2["provinces"]["Etchu"][kind] and s2["players"][0]["money"] == 10 - cost
    assert s2["tiles"][kind] == s["tiles"][kind] - 1


def test_build_declined_costs_nothing():
    s = board()
    own(s, "Etchu", 0, 2)
    s, _ = at(s, "castle", {0: {"castle": "Etchu"}})
    s2, _ = act(s, 0, {"type": "decline"})
    assert not s2["provinces"]["Etchu"]["castle"] and s2["players"][0]["money"] == 10


@pytest.mark.parametrize("why", ["money", "sites", "same", "tiles"])
def test_build_cancelled_when_impossible(why):
    s = board()
    own(s, "Kai", 0, 2)  # Kai: 1 building site
    if why == "money":
        s["players"][0]["money"] = 2
    elif why == "sites":
        s["provinces"]["Kai"]["theatre"] = True
    elif why == "same":
        s["provinces"]["Kai"]["castle"] = True
    else:
        s["tiles"]["castle"] = 0
    s, events = at(s, "castle", {0: {"castle": "Kai"}})
    assert of_type(events, "SpaceRevealed")[0]["next"] == "end"
    assert (0, "castle:execute") not in pending(s)


def test_collect_taxes_and_rice_add_a_marker():
    s = board()
    own(s, "Etchu", 0, 2)
    s, _ = at(s, "taxes", {0: {"taxes": "Etchu"}})
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["players"][0]["money"] == 17 and s2["provinces"]["Etchu"]["markers"] == 1
    s = board()
    own(s, "Etchu", 0, 2)
    s, _ = at(s, "rice", {0: {"rice": "Etchu"}})
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["players"][0]["rice"] == 3 and s2["provinces"]["Etchu"]["markers"] == 1


@pytest.mark.parametrize(
    "event,action,prov,expect",
    [
        ("E07", "taxes", "Etchu", 5),
        ("E08", "taxes", "Kozuke", 6),
        ("E08", "taxes", "Etchu", 7),
        ("E10", "rice", "Noto", 4),
        ("E11", "rice", "Kaga", 3),
        ("E11", "rice", "Noto", 2),
    ],
)
def test_collection_events_clamp(event, action, prov, expect):
    s = board()
    own(s, prov, 0, 2)
    s, _ = at(s, action, {0: {action: prov}}, event=event)
    s2, _ = act(s, 0, {"type": "execute"})
    field = "money" if action == "taxes" else "rice"
    base = 10 if action == "taxes" else 0
    assert s2["players"][0][field] - base == expect


@pytest.mark.parametrize(
    "special,event,action,expect",
    [("taxes", "E07", "taxes", 6), ("rice", "E11", "rice", 4), ("taxes", None, "taxes", 8)],
)
def test_specials_apply_after_the_event(special, event, action, expect):
    """'max 3 rice + 1 special = 4' [frsum]."""
    s = board()
    own(s, "Etchu", 0, 2)
    s["players"][0]["special"] = special
    s, _ = at(s, action, {0: {action: "Etchu"}}, event=event)
    s2, _ = act(s, 0, {"type": "execute"})
    field = "money" if action == "taxes" else "rice"
    assert s2["players"][0][field] - (10 if action == "taxes" else 0) == expect


@pytest.mark.parametrize(
    "action,special,event,armies,cost",
    [
        ("recruit5", None, None, 5, 3),
        ("recruit3", None, None, 3, 2),
        ("recruit5", None, "E12", 3, 3),
        ("recruit3", None, "E12", 2, 2),
        ("recruit5", "recruit6", None, 6, 3),
        ("recruit5", "recruit6", "E12", 6, 3),
    ],
)
def test_recruit(action, special, event, armies, cost):
    s = board()
    own(s, "Etchu", 0, 2)
    s["players"][0]["special"] = special
    s, _ = at(s, action, {0: {action: "Etchu"}}, event=event)
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["provinces"]["Etchu"]["armies"] == 2 + armies
    assert s2["players"][0]["money"] == 10 - cost


def test_recruit_cancelled_when_supply_short():
    s = board()
    own(s, "Etchu", 0, 58)  # 62 - 58 = 4 in supply < 5
    s, events = at(s, "recruit5", {0: {"recruit5": "Etchu"}})
    assert of_type(events, "SpaceRevealed")[0]["next"] == "end"


def test_recruit1_recruit_and_move_to_own_province_only():
    s = board()
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    own(s, "Kaga", 1, 1)
    s, _ = at(s, "recruit1", {0: {"recruit1": "Etchu"}})
    assert pending(s) == [(0, "recruit1:recruit")]
    s, _ = act(s, 0, {"type": "execute"})
    assert s["provinces"]["Etchu"]["armies"] == 4 and s["players"][0]["money"] == 9
    assert pending(s) == [(0, "recruit1:move")]
    targets = {c.get("to") for c in RULES.legal_commands(s, 0).commands}
    assert targets == {"Noto", None}  # not the enemy Kaga, not neutral Hida
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "move", "to": "Kaga", "armies": 1})
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "move", "to": "Noto", "armies": 4})  # must leave 1
    s2, _ = act(s, 0, {"type": "move", "to": "Noto", "armies": 3})
    assert s2["provinces"]["Etchu"]["armies"] == 1 and s2["provinces"]["Noto"]["armies"] == 4


def test_recruit1_move_only_is_free():
    s = board()
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 0, 1)
    s, _ = at(s, "recruit1", {0: {"recruit1": "Etchu"}})
    s, _ = act(s, 0, {"type": "decline"})
    s2, _ = act(s, 0, {"type": "move", "to": "Noto", "armies": 2})
    assert s2["players"][0]["money"] == 10 and s2["provinces"]["Noto"]["armies"] == 3


@pytest.mark.parametrize("action", ["attackA", "attackB"])
def test_attack_move_to_own_province_is_a_plain_move(action):
    s = board()
    own(s, "Etchu", 0, 5)
    own(s, "Noto", 0, 1)
    s, _ = at(s, action, {0: {action: "Etchu"}})
    s2, events = act(s, 0, {"type": "move", "to": "Noto", "armies": 4})
    assert not of_type(events, "BattleFought")
    assert s2["provinces"]["Noto"]["armies"] == 5


def test_attack_needs_two_armies():
    s = board()
    own(s, "Etchu", 0, 1)
    s, events = at(s, "attackA", {0: {"attackA": "Etchu"}})
    assert of_type(events, "SpaceRevealed")[0]["next"] == "end"


@pytest.mark.parametrize("event", ["E06", "E09"])
def test_temple_event_protects_other_players_temples_only(event):
    s = board()
    own(s, "Etchu", 0, 5)
    own(s, "Noto", 1, 1, temple=True)
    own(s, "Kaga", 0, 1, temple=True)
    s, _ = at(s, "attackA", {0: {"attackA": "Etchu"}}, event=event)
    targets = {c.get("to") for c in RULES.legal_commands(s, 0).commands}
    assert "Noto" not in targets and "Kaga" in targets and "Hida" in targets


@pytest.mark.parametrize(
    "immune,action,blocked",
    [
        (["A"], "attackA", True),
        (["A"], "attackB", False),
        (["B"], "attackB", True),
        (["A", "B"], "attackB", True),
    ],
)
def test_immunity_blocks_only_the_named_letter(immune, action, blocked):
    s = board()
    own(s, "Etchu", 0, 5)
    own(s, "Noto", 1, 1)
    s["players"][1]["immune"] = immune
    s, _ = at(s, action, {0: {action: "Etchu"}})
    targets = {c.get("to") for c in RULES.legal_commands(s, 0).commands}
    assert ("Noto" not in targets) == blocked


def test_lost_province_cancels_its_planned_action_and_is_revealed():
    """R #16: the conquered card is revealed at once; reconquest does not restore it."""
    s = board()
    own(s, "Etchu", 0, 6)
    own(s, "Noto", 1, 1)
    s, _ = at(s, "attackA", {0: {"attackA": "Etchu"}, 1: {"taxes": "Noto"}})
    s, events = act(s, 0, {"type": "move", "to": "Noto", "armies": 5})
    battle = of_type(events, "BattleFought")[0]
    assert battle["result"] == "conquered" and s["provinces"]["Noto"]["owner"] == 0
    assert battle["reveals"][0]["choice"] == "Noto" and battle["reveals"][0]["seat"] == 1
    assert s["round"]["revealed"][1]["taxes"] == "Noto"
    assert card_lost(s, 1, "Noto")


def test_declined_collection_places_no_marker():
    s = board()
    own(s, "Etchu", 0, 2, markers=1)
    s, _ = at(s, "rice", {0: {"rice": "Etchu"}})
    s2, events = act(s, 0, {"type": "decline"})
    assert s2["provinces"]["Etchu"]["markers"] == 1 and not of_type(events, "BattleFought")


@pytest.mark.parametrize("event", ["E01", "E02"])
def test_theatre_event_calms_unrest(event):
    s = board()
    own(s, "Etchu", 0, 2, markers=2)
    s, _ = at(s, "theatre", {0: {"theatre": "Etchu"}}, event=event)
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["provinces"]["Etchu"]["markers"] == 0
    s = board()
    own(s, "Etchu", 0, 2, markers=2)
    s, _ = at(s, "theatre", {0: {"theatre": "Etchu"}}, event="E04")
    s2, _ = act(s, 0, {"type": "execute"})
    assert s2["provinces"]["Etchu"]["markers"] == 2


def test_blank_cards_are_revealed_and_skipped():
    s = board()
    own(s, "Etchu", 0, 2)
    s, events = at(s, "castle", {0: {"castle": "chest3"}, 1: {"castle": "tower2"}})
    revealed = {
        e["seat"]: (e["card"], e["next"], e["reason"])
        for e in of_type(events, "SpaceRevealed")
        if e["space"] == "castle"
    }
    assert revealed[0] == ("chest3", "end", "blank") and revealed[1] == ("tower2", "end", "blank")
    assert revealed[2] == (None, "end", "blank")


def test_action_order_and_next_card_revealed():
    s = board()
    s, events = at(s, "castle", {})
    done = of_type(events, "ActionCompleted")[0]
    assert done["action"] == "castle" and done["next"] in clone(s["round"]["actions"])
    assert len(s["round"]["actions"]) == 6 and len(s["round"]["pool"]) == 4
