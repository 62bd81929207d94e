"""Appendix R decisions not covered elsewhere, one test each (R #6 #7 #9 #15 #16 #20 #22)."""

import pytest
from shogun_helpers import act, clear_board, new_game, of_type, own, run, setup_action

from games.rules.base import IllegalCommand
from games.rules.shogun import data, planning
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import enter, hand, owned, plan_card


def favour_state(card, n=4, vestibule=4, event=None):
    """Seat 0 first at the court with `card` on the 4-official space."""
    s = clear_board(new_game(n))
    own(s, "Yamato", n - 1, 2)
    s = setup_action(s, "castle", {n - 1: {"castle": "Yamato"}}, blocker=False, event=event)
    s["players"][n - 1]["money"] = 10
    enter(s, "court")
    for x, pl in enumerate(s["players"]):
        pl.update(officials=7 - (vestibule if x == 0 else 0), vestibule=vestibule if x == 0 else 0, hall=0)
        s["plans"][x].update(
            {sp: {"card": f"chest{i + 1}", "salt": "a"} for i, sp in enumerate(data.COURT_SPACES)}
        )
    s["round"]["favours"] = [[4, card]]
    return run(s)[0]


def favour_options(s, card):
    return [c for c in RULES.legal_commands(s, 0).commands if c.get("card") == card]


def test_r6_favour_4_cannot_be_kept_while_a_marker_is_on_his_provinces():
    s = favour_state(4)
    own(s, "Izu", 0, 2, markers=1)
    own(s, "Kai", 0, 2)
    options = favour_options(s, 4)
    assert {c["province"] for c in options if c["use"]} == {"Izu"}  # no "keep" (province None)
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "favour", "card": 4, "use": True, "province": None})
    s2, _ = act(s, 0, {"type": "favour", "card": 4, "use": False, "province": None})  # declined: gone
    assert not s2["players"][0]["fav4"] and s2["provinces"]["Izu"]["markers"] == 1


def test_r7_favour_12_targets_and_supply():
    s = favour_state(12, n=3)
    targets = {c["province"] for c in favour_options(s, 12) if c["use"]}
    neutral = {n for n in s["in_play"] if s["provinces"][n]["owner"] is None}
    assert targets == neutral and len(neutral) == 36  # every in-play neutral one, anywhere
    assert not targets & {n for n in data.NAMES if data.PROVINCES[n]["out_3p"]}  # 3p exclusions are out
    own(s, "Kai", 0, 61)  # supply 1: places what he has
    s2, events = act(s, 0, {"type": "favour", "card": 12, "use": True, "province": "Omi"})
    assert of_type(events, "FavourTaken")[0]["n"] == 1
    assert s2["provinces"]["Omi"]["owner"] == 0 and s2["provinces"]["Omi"]["armies"] == 1
    own(s, "Kai", 0, 62)  # supply 0: no neutral target (at least 1 army), own province still allowed
    assert {c["province"] for c in favour_options(s, 12) if c["use"]} == {"Kai"}


def test_r7_favour_12_province_cannot_act_this_season():
    s = favour_state(12)
    s, _ = act(s, 0, {"type": "favour", "card": 12, "use": True, "province": "Omi"})
    assert "Omi" in hand(s, 0) and plan_card(s, 0, "taxes") != "Omi"


def test_r9_favour_theatre_counts_for_the_no_theatre_event_and_needs_a_tile():
    s = favour_state(7, event="E01")
    own(s, "Etchu", 0, 2, markers=2)
    s2, _ = act(s, 0, {"type": "favour", "card": 7, "use": True, "province": "Etchu"})
    assert s2["provinces"]["Etchu"]["theatre"] and s2["provinces"]["Etchu"]["markers"] == 0
    s["tiles"]["theatre"] = 0  # R #20: no tile left - the favour fizzles, the card may be taken
    assert favour_options(s, 7) == [{"type": "favour", "card": 7, "use": False, "province": None}]


def test_r15_non_chest_bids_are_zero():
    s = new_game(4)
    p = planning.default(s, 0)
    prov = next(c for c in p.values() if data.is_province(c))
    where = next(k for k, c in p.items() if c == prov)
    p[where], p["bid"] = p["bid"], prov  # a province card on the bid space
    planning.validate(s, 0, p)
    assert data.chest_value(prov) == 0 and data.chest_value("tower2") == 0 and data.chest_value(None) == 0


def test_r16_reconquest_does_not_restore_the_planned_action():
    s = clear_board(new_game(4))
    own(s, "Noto", 1, 3)  # lost earlier this season, then taken back
    s = setup_action(s, "taxes", {1: {"taxes": "Noto"}})
    s["round"]["lost"] = [[1, "Noto"]]
    s, events = run(s)
    reveal = of_type(events, "SpaceRevealed")[1]
    assert (reveal["seat"], reveal["next"], reveal["reason"]) == (1, "end", "province lost")


def test_r22_a_player_without_provinces_plans_converts_and_can_return():
    s = new_game(4)
    for name in owned(s, 0):
        s["provinces"][name].update(owner=None, armies=0)
    assert len(hand(s, 0)) == 8  # 5 chest + 3 tower cards
    p = planning.default(s, 0)
    planning.validate(s, 0, p)
    assert list(p.values()).count(None) == 6 and all(p[c] for c in data.COURT_SPACES)
    s = favour_state(12, vestibule=0)
    for name in owned(s, 0):
        s["provinces"][name].update(owner=None, armies=0)
    s["tower"]["tray"] = [0, 0]
    enter(s, "court")
    s["plans"][0]["court2"] = {"card": "tower1", "salt": "b"}
    s["round"]["court_queue"] = []
    s, _ = run(s)
    assert s["players"][0]["vestibule"] == 2 and s["tower"]["tray"] == []  # converted from the tray
