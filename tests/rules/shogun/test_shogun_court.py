"""Tenno's Court: the seed's worked examples (T1, T2, T3, T5, T6) and every favour."""

import pytest
from shogun_helpers import act, clear_board, fixed, new_game, of_type, own, run, setup_action

from games.rules.base import Event, IllegalCommand
from games.rules.shogun import data, state
from games.rules.shogun import events as ev
from games.rules.shogun.evolve import evolve
from games.rules.shogun.setup import seeding
from games.rules.shogun.state import enter, phase_of

G = data.GREEN
JENS, DIRK, ANIKA, BARBARA = 0, 1, 2, 3


def test_t1_tower_seeding_makes_officials():
    """Seed example: 2 green, 2 Jens, 2 Dirk and 1 Anika fall out when the tower is seeded."""
    s = new_game(3)
    s["tower"] = {"l1": [], "l2": [], "tray": []}
    for pl in s["players"]:
        pl.update(officials=7, vestibule=0)
    thrown = {
        "l1": [JENS] * 5 + [G] * 8,
        "l2": [DIRK] * 5 + [ANIKA] * 6,
        "tray": [G, G, JENS, JENS, DIRK, DIRK, ANIKA],
    }
    payload = seeding(s, thrown)
    assert payload["fell"] == [2, 2, 1] and payload["green_fell"] == 2
    s2 = evolve(s, Event(ev.TOWER_SEEDED, payload))
    assert [p["vestibule"] for p in s2["players"]] == [2, 2, 1]
    assert [p["officials"] for p in s2["players"]] == [5, 5, 6]
    assert s2["tower"]["tray"] == []  # fallen cubes went home
    on_map = [state.on_map(s2, x) for x in range(3)]
    assert [state.supply(s2, x) for x in range(3)] == [
        62 - on_map[0] - 5,
        62 - on_map[1] - 5,
        62 - on_map[2] - 6,
    ]


def test_seeding_without_court_makes_no_officials():
    s = new_game(3, tennos_court=False)
    assert seeding(s, {"l1": [], "l2": [], "tray": [0, 0, 1]})["officials"] == [0, 0, 0]


def _court_state(n=4):
    """At the court step; seat 3 then has a castle to build in Yamato, so the automatic
    steps stop at the first action instead of running the season to its end."""
    s = clear_board(new_game(n))
    own(s, "Yamato", 3, 2)
    s = setup_action(s, "castle", {3: {"castle": "Yamato"}}, blocker=False)
    s["players"][3]["money"] = 10
    enter(s, "court")
    for pl in s["players"]:
        pl.update(officials=7, vestibule=0, hall=0)
    return s


def _plan_court(s, seat, c3, c2, c1):
    s["plans"][seat].update(
        {
            "court3": {"card": c3, "salt": "a"},
            "court2": {"card": c2, "salt": "b"},
            "court1": {"card": c1, "salt": "c"},
        }
    )


def test_t2_barbara_converts_five():
    s = _court_state()
    own(s, "Kai", BARBARA, 4)
    s["tower"]["tray"] = [BARBARA, BARBARA, BARBARA]
    _plan_court(s, BARBARA, "Kai", "tower1", "chest2")
    supply = state.supply(s, BARBARA)
    s2, events = run(s)
    assert s2["provinces"]["Kai"]["armies"] == 1
    assert s2["tower"]["tray"].count(BARBARA) == 1
    assert state.supply(s2, BARBARA) == supply + 5
    assert s2["players"][BARBARA]["vestibule"] == 5
    assert s2["players"][BARBARA]["officials"] == 2
    done = [(c["space"], c["done"]) for c in of_type(events, "CourtConverted") if c["seat"] == BARBARA]
    assert done == [("court3", True), ("court2", True), ("court1", False)]


def test_t2_variant_four_officials_only_three_deployed():
    s = _court_state()
    own(s, "Kai", BARBARA, 4)
    s["tower"]["tray"] = [BARBARA, BARBARA]
    s["players"][BARBARA]["officials"] = 4
    _plan_court(s, BARBARA, "Kai", "tower1", "chest2")
    s2, _ = run(s)
    assert s2["players"][BARBARA]["vestibule"] == 3
    assert s2["tower"]["tray"].count(BARBARA) == 2  # the tower card failed


def test_t5_three_armies_fail_on_space_3_but_succeed_on_2():
    s = _court_state()
    own(s, "Kai", BARBARA, 3)
    own(s, "Izu", BARBARA, 1)
    _plan_court(s, BARBARA, "Kai", "chest1", "Izu")
    s2, _ = run(s)
    assert s2["provinces"]["Kai"]["armies"] == 3 and s2["players"][BARBARA]["vestibule"] == 0
    s = _court_state()
    own(s, "Kai", BARBARA, 3)
    own(s, "Izu", BARBARA, 1)
    _plan_court(s, BARBARA, "chest1", "Kai", "Izu")
    s2, _ = run(s)
    assert s2["provinces"]["Kai"]["armies"] == 1 and s2["players"][BARBARA]["vestibule"] == 2
    assert s2["provinces"]["Izu"]["armies"] == 1  # 1 army never converts


def test_t3_favour_ranking_and_payment():
    s = _court_state()
    s["round"]["order"] = [BARBARA, DIRK, JENS, ANIKA]  # Jens before Anika
    s["round"]["favours"] = [[4, 10], [3, 8], [2, 2]]
    s["favour_pool"] = [c for c in data.FAVOUR_IDS if c not in (10, 8, 2)]
    for seat in range(4):
        _plan_court(s, seat, "chest1", "chest2", "chest3")
    for seat, v in ((BARBARA, 5), (DIRK, 3), (JENS, 2), (ANIKA, 2)):
        s["players"][seat]["vestibule"] = v
        s["players"][seat]["officials"] = 7 - v
    s, events = run(s)
    assert of_type(events, "CourtRanked")[0]["queue"] == [BARBARA, DIRK, JENS, ANIKA]
    assert rules_pending(s) == [(BARBARA, "favour")]
    money = s["players"][BARBARA]["money"]
    s, _ = act(s, BARBARA, {"type": "favour", "card": 8, "use": True, "province": None})
    assert s["tower"]["tray"].count(BARBARA) == 2 and s["players"][BARBARA]["money"] == money
    # Barbara moved her 5 officials to the hall and paid 3 of them back to her supply
    assert (s["players"][BARBARA]["vestibule"], s["players"][BARBARA]["hall"]) == (0, 2)
    assert s["players"][BARBARA]["officials"] == 2 + 3
    assert s["round"]["favours"] == [[4, 10], [2, 2]]
    dmoney = s["players"][DIRK]["money"]
    s, events = act(s, DIRK, {"type": "favour", "card": 2, "use": True, "province": None})
    assert s["players"][DIRK]["money"] == dmoney + 2
    assert s["players"][DIRK]["officials"] == 4 + 2  # paid the 2 of the 2-space
    passed = [e["seat"] for e in of_type(events, "CourtPassed")]
    assert passed == [JENS, ANIKA]  # cannot afford #10: auto
    assert of_type(events, "CourtEnded")[0]["removed"] == [10]
    assert [s["players"][x]["vestibule"] for x in (BARBARA, DIRK, JENS, ANIKA)] == [2, 1, 2, 2]
    assert [s["players"][x]["officials"] for x in (BARBARA, DIRK, JENS, ANIKA)] == [5, 6, 5, 5]
    assert all(p["hall"] == 0 for p in s["players"])
    assert s["round"]["favours"] == [] and 10 not in s["favour_pool"]  # #10 left the game
    assert phase_of(s) == "actions"


def rules_pending(s):
    from games.rules.shogun.rules import RULES

    return [(p.seat, p.kind) for p in RULES.pending(s)]


def _favour_state(card, seat=0, vestibule=4):
    s = _court_state()
    s["round"]["order"] = [0, 1, 2, 3]
    s["round"]["favours"] = [[4, card]]
    for x in range(4):
        _plan_court(s, x, "chest1", "chest2", "chest3")
    s["players"][seat]["vestibule"] = vestibule
    s, _ = run(s)
    return s


def test_favour_cannot_be_afforded_and_use_needs_valid_target():
    s = _favour_state(21)
    own(s, "Kai", 0, 2)  # Kai has 1 site
    own(s, "Izu", 0, 2)
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "favour", "card": 21, "use": True, "province": "Omi"})
    s2, _ = act(s, 0, {"type": "favour", "card": 21, "use": True, "province": "Kai"})
    assert s2["provinces"]["Kai"]["castle"] and s2["tiles"]["castle"] == s["tiles"]["castle"] - 1
    s["provinces"]["Kai"]["temple"] = True  # no free site left in Kai
    from games.rules.shogun.rules import RULES

    targets = [c["province"] for c in RULES.legal_commands(s, 0).commands if c.get("card") == 21 and c["use"]]
    assert targets == ["Izu"]


@pytest.mark.parametrize(
    "card,field,gain",
    [
        (2, "money", 2),
        (9, "money", 4),
        (16, "money", 6),
        (5, "rice", 1),
        (15, "rice", 2),
        (20, "rice", 3),
        (6, "vp", 1),
        (13, "vp", 2),
        (19, "vp", 3),
    ],
)
def test_amount_favours(card, field, gain):
    s = _favour_state(card)
    before = s["players"][0][field]
    s2, _ = act(s, 0, {"type": "favour", "card": card, "use": True, "province": None})
    assert s2["players"][0][field] == before + gain
    assert s2["players"][0]["officials"] == s["players"][0]["officials"] + 4


@pytest.mark.parametrize("card,n", [(3, 1), (8, 2), (14, 3)])
def test_tray_favours_put_armies_in_the_tray(card, n):
    s = _favour_state(card)
    s2, _ = act(s, 0, {"type": "favour", "card": card, "use": True, "province": None})
    assert s2["tower"]["tray"].count(0) == n
    assert state.supply(s2, 0) == state.supply(s, 0) - n


def test_favour_1_cancels_the_event():
    s = _favour_state(1)
    s["event"] = "E07"  # taxes max 5
    assert state.event(s)["effect"] == "tax_max"
    s2, _ = act(s, 0, {"type": "favour", "card": 1, "use": True, "province": None})
    assert s2["event_cancelled"] and state.event(s2) == {}
    s3, _ = act(s, 0, {"type": "favour", "card": 1, "use": False, "province": None})
    assert not s3["event_cancelled"]


@pytest.mark.parametrize("card,letters", [(10, ["A"]), (11, ["B"]), (18, ["A", "B"])])
def test_immunity_favours(card, letters):
    s = _favour_state(card)
    s2, _ = act(s, 0, {"type": "favour", "card": card, "use": True, "province": None})
    assert s2["players"][0]["immune"] == letters


def test_favour_12_takes_a_neutral_province_without_battle():
    s = _favour_state(12)
    s2, events = act(s, 0, {"type": "favour", "card": 12, "use": True, "province": "Omi"})
    assert s2["provinces"]["Omi"]["owner"] == 0 and s2["provinces"]["Omi"]["armies"] == 3
    assert not of_type(events, "BattleFought")
    own(s, "Izu", 0, 2)
    s3, _ = act(s, 0, {"type": "favour", "card": 12, "use": True, "province": "Izu"})
    assert s3["provinces"]["Izu"]["armies"] == 5


def test_favour_4_removes_a_marker_now():
    s = _favour_state(4)
    own(s, "Izu", 0, 2, markers=2)
    s2, _ = act(s, 0, {"type": "favour", "card": 4, "use": True, "province": "Izu"})
    assert s2["provinces"]["Izu"]["markers"] == 1 and not s2["players"][0]["fav4"]


def test_t6_favour_4_kept_cancels_the_next_collection_marker():
    s = _favour_state(4)
    own(s, "Izu", 0, 2)
    from games.rules.shogun.rules import RULES

    options = [c for c in RULES.legal_commands(s, 0).commands if c.get("card") == 4]
    assert {"type": "favour", "card": 4, "use": True, "province": None} in options
    s, _ = act(s, 0, {"type": "favour", "card": 4, "use": True, "province": None})
    assert s["players"][0]["fav4"]
    s = setup_action(s, "taxes", {0: {"taxes": "Izu"}})
    s, _ = run(s)
    s, events = act(s, 0, {"type": "execute"})
    assert of_type(events, "RevoltMarkerPlaced") == [{"province": "Izu", "cancelled": True}]
    assert s["provinces"]["Izu"]["markers"] == 0 and not s["players"][0]["fav4"]


@pytest.mark.parametrize("card,kind", [(7, "theatre"), (17, "temple"), (21, "castle")])
def test_building_favours(card, kind):
    s = _favour_state(card)
    own(s, "Etchu", 0, 2)
    s2, _ = act(s, 0, {"type": "favour", "card": card, "use": True, "province": "Etchu"})
    assert s2["provinces"]["Etchu"][kind]


def test_player_may_pass_and_keep_officials():
    s = _favour_state(2)
    s2, _ = act(s, 0, {"type": "pass"})
    assert s2["players"][0]["vestibule"] == 4 and phase_of(s2) == "actions"


def test_favours_revealed_highest_on_the_4_space():
    s = new_game(4)
    s["favour_pool"] = [2, 8, 10, 15]
    enter(s, "season_start")
    s2, events = run(s)  # FixedRng: the first three of the pool
    assert of_type(events, "SeasonBegan")[0]["favours"] == [[4, 10], [3, 8], [2, 2]]
    assert s2["favour_pool"] == [15]


MAY = {1, 2, 3, 4, 7, 8, 9, 12, 14, 16, 17, 21}  # the seed words these with "may" (可以)


def test_optional_flags_follow_the_seed_wording():
    assert {k for k, f in data.FAVOURS.items() if f.get("optional")} == MAY


@pytest.mark.parametrize("card", [5, 15, 20, 6, 13, 19, 10, 11, 18])
def test_favours_without_may_apply_when_taken(card):
    """Seed: "他必须立即获得卡牌恩惠效果" - rice, VP ("玩家获得…") and the immunities have no
    "may": taking the card applies it (rules_version 2)."""
    from games.rules.shogun.rules import RULES

    s = _favour_state(card)
    options = [c for c in RULES.legal_commands(s, 0).commands if c.get("card") == card]
    assert options == [{"type": "favour", "card": card, "use": True, "province": None}]
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "favour", "card": card, "use": False, "province": None})
    # games started under rules_version 1 keep the old behaviour (replays of old games)
    v1 = RULES.for_rules_version(1)
    assert v1.rules_version == 1 and RULES.for_rules_version(4) is RULES is v1.for_rules_version(4)
    assert RULES.for_rules_version(2).rules_version == 2 and RULES.for_rules_version(3).rules_version == 3
    assert {"type": "favour", "card": card, "use": False, "province": None} in v1.legal_commands(
        s, 0
    ).commands
    events = v1.decide(s, 0, {"type": "favour", "card": card, "use": False, "province": None}, fixed())
    assert of_type(events, "FavourTaken")[0]["use"] is False


@pytest.mark.parametrize("card", sorted(MAY))
def test_may_favours_can_be_taken_without_applying_them(card):
    s = _favour_state(card)
    s2, events = act(s, 0, {"type": "favour", "card": card, "use": False, "province": None})
    assert of_type(events, "FavourTaken")[0]["use"] is False
    assert s2["players"][0]["officials"] == s["players"][0]["officials"] + 4
    for key in ("money", "rice", "vp", "immune", "fav4"):
        assert s2["players"][0][key] == s["players"][0][key]
    assert s2["provinces"] == s["provinces"] and s2["event_cancelled"] is False
