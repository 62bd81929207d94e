"""Unrest and revolts (reference 9, Appendix R #11), winter famine and scoring (10, R #17
#18), game end."""

from shogun_helpers import act, clear_board, new_game, of_type, own, run, setup_action

from games.rules.shogun.rules import RULES
from games.rules.shogun.scoring import score
from games.rules.shogun.state import enter, owned, phase_of, winter_step


def board(**opts):
    s = clear_board(new_game(4, **opts))
    for pl in s["players"]:
        pl["money"] = 10
    return s


def collect(s, prov, what="taxes", seat=0):
    s, _ = run(setup_action(s, what, {seat: {what: prov}}))
    return act(s, seat, {"type": "execute"})


def test_t4_suppressed_collection_revolt_adds_exactly_one_marker():
    s = board()
    own(s, "Etchu", 0, 3, markers=1)
    s2, events = collect(s, "Etchu")
    b = of_type(events, "BattleFought")[0]
    assert b["kind"] == "revolt" and b["thrown"]["green"] == 1 and b["result"] == "suppressed"
    assert s2["provinces"]["Etchu"]["armies"] == 2
    assert s2["provinces"]["Etchu"]["markers"] == 2  # not 3
    assert s2["players"][0]["money"] == 17  # the taxes were collected first


def test_first_collection_never_revolts():
    s = board()
    own(s, "Etchu", 0, 1)
    s2, events = collect(s, "Etchu")
    assert not of_type(events, "BattleFought") and s2["provinces"]["Etchu"]["markers"] == 1


def test_successful_revolt_makes_the_province_neutral_without_marker():
    s = board()
    own(s, "Etchu", 0, 2, markers=2, castle=True)
    s2, events = collect(s, "Etchu", "rice")
    assert of_type(events, "BattleFought")[0]["result"] == "revolted"
    assert s2["provinces"]["Etchu"] == {
        "owner": None,
        "armies": 0,
        "castle": False,
        "temple": False,
        "theatre": False,
        "markers": 0,
    }
    assert not of_type(events, "RevoltMarkerPlaced")
    assert s2["players"][0]["rice"] == 3


def test_revolt_defender_gets_defence_special_and_castle_event():
    s = board()
    own(s, "Etchu", 0, 1, markers=2, castle=True)
    s["players"][0]["special"] = "defence"
    s, _ = run(setup_action(s, "taxes", {0: {"taxes": "Etchu"}}, event="E05"))
    s2, events = act(s, 0, {"type": "execute"})
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"]["defender"] == 3 and b["result"] == "suppressed"
    assert s2["provinces"]["Etchu"]["armies"] == 1 and s2["provinces"]["Etchu"]["markers"] == 3


def test_marker_first_order_option():
    """[imr]: marker first; revolt at >= 2 markers with green = markers; +1 if suppressed."""
    s = board(revolt_order="marker_first")
    own(s, "Etchu", 0, 4, markers=1)
    s2, events = collect(s, "Etchu")
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"]["green"] == 2 and b["result"] == "suppressed"
    assert s2["provinces"]["Etchu"]["markers"] == 3 and s2["provinces"]["Etchu"]["armies"] == 2
    s = board(revolt_order="marker_first")
    own(s, "Etchu", 0, 4)
    s2, events = collect(s, "Etchu")
    assert not of_type(events, "BattleFought") and s2["provinces"]["Etchu"]["markers"] == 1


def winter_state(year=1):
    s = board()
    s = setup_action(s, "castle", {}, blocker=False)
    s["round"]["order"] = [2, 0, 1, 3]
    s["year"] = year
    s["year_events"] = ["E01", "E02", "E03", "E04"]
    s["used_events"] = ["E01", "E02", "E03"]  # the 4th is E04: rice loss 2
    s["past_events"] = list(s["year_events"])
    enter(s, "winter")
    s["season"] = 3
    return s


def test_winter_rice_loss_famine_and_reset():
    s = winter_state()
    for prov in ("Etchu", "Hida", "Kaga"):
        own(s, prov, 0, 1, markers=1)
    own(s, "Omi", 1, 1)
    s["players"][0]["rice"] = 2  # 2 - 2 = 0: shortfall 3
    s["players"][1]["rice"] = 5  # 5 - 2 = 3 >= 1 province
    s["players"][2]["rice"] = 1  # loses only what he has
    s1, events = run(s)
    assert of_type(events, "WinterRiceLost")[0]["losses"] == [2, 2, 1, 0]
    assert of_type(events, "WinterRiceLost")[0]["starving"] == [0]  # no provinces: no need
    famine = of_type(events, "FamineStruck")
    assert [(f["seat"], f["shortfall"], f["revolts"], f["extra"]) for f in famine] == [(0, 3, 2, 2)]
    assert famine[0]["provinces"] == ["Etchu", "Hida"]  # FixedRng: first two drawn
    # the starving player chooses the order of his revolts [sbw pg11]
    assert [(p.seat, p.kind) for p in RULES.pending(s1)] == [(0, "famine_order")]
    assert RULES.legal_commands(s1, 0).commands == (
        {"type": "revolt", "province": "Etchu"},
        {"type": "revolt", "province": "Hida"},
    )
    s2, events2 = act(s1, 0, {"type": "revolt", "province": "Hida"})
    battles = of_type(events2, "BattleFought")
    assert [(b["kind"], b["province"]) for b in battles] == [("famine", "Hida"), ("famine", "Etchu")]
    assert [b["thrown"]["green"] for b in battles] == [3, 3]  # extra 2 + 1 marker
    assert sorted(owned(s2, 0)) == ["Kaga"]
    assert all(p["markers"] == 0 for p in s2["provinces"].values())
    assert s2["year"] == 2 and all(p["rice"] == 0 for p in s2["players"])
    assert phase_of(s2) in ("plan", "samurai") and winter_step(s2) is None
    assert len(set(s2["year_events"]) & set(s["year_events"])) == 0


def test_famine_revolts_ignore_specials_and_events():
    s = winter_state()
    own(s, "Etchu", 0, 1, castle=True)
    s["players"][0]["special"] = "defence"
    s["event"] = "E04"
    _, events = run(s)
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"] == {"attacker": 0, "defender": 1, "green": 1}


def test_scoring_provinces_buildings_and_majorities():
    s = board()
    own(s, "Etchu", 0, 1, castle=True)  # brown
    own(s, "Kaga", 0, 1, castle=True, theatre=True)  # brown
    own(s, "Noto", 1, 1, castle=True)  # brown
    own(s, "Izu", 0, 1, temple=True)  # yellow
    own(s, "Kai", 1, 1, temple=True)  # yellow
    own(s, "Sagami", 1, 1, theatre=True)  # yellow
    own(s, "Suruga", 2, 1, theatre=True)  # yellow
    rows = score(s)
    assert rows[0]["majorities"] == {"brown:castle": 3, "brown:theatre": 1, "yellow:temple": 1}
    assert rows[1]["majorities"] == {"yellow:temple": 1}
    assert rows[2]["majorities"] == {}  # tied theatres score 0
    assert [r["provinces"] for r in rows] == [3, 3, 1, 0]
    assert [r["buildings"] for r in rows] == [4, 3, 1, 0]
    assert [r["total"] for r in rows] == [12, 7, 2, 0]


def test_scoring_tied_castles_and_temples():
    s = board()
    own(s, "Etchu", 0, 1, castle=True, temple=True)
    own(s, "Noto", 1, 1, castle=True, temple=True)
    rows = score(s)
    assert rows[0]["majorities"] == {"brown:castle": 2, "brown:temple": 1}
    assert rows[1]["majorities"] == rows[0]["majorities"]


def test_moon_side_uses_moon_regions_for_majorities():
    s = board(board="moon")
    own(s, "Hitachi", 0, 1, castle=True)  # brown on the sun side, yellow on moon
    assert score(s)[0]["majorities"] == {"yellow:castle": 3}


def test_game_ends_after_second_winter_and_ties_share_the_win():
    s = winter_state(year=2)
    own(s, "Etchu", 0, 1)
    own(s, "Noto", 1, 1)
    for pl in s["players"]:
        pl["rice"], pl["vp"] = 5, 10
    s2, events = run(s)
    assert phase_of(s2) == "over"
    out = RULES.outcome(s2)
    assert out.winners == (0, 1) and out.scores == {0: 11.0, 1: 11.0, 2: 10.0, 3: 10.0}
    assert RULES.pending(s2) == []


def test_famine_in_autumn_turn_order_and_single_revolts_resolve_alone():
    s = winter_state()
    own(s, "Etchu", 0, 1)
    own(s, "Omi", 2, 3)
    for seat in (0, 2):
        s["players"][seat]["rice"] = 0
    s2, events = run(s)
    assert [f["seat"] for f in of_type(events, "FamineStruck")] == [2, 0]
    assert [b["province"] for b in of_type(events, "BattleFought")] == ["Omi", "Etchu"]
    assert s2["provinces"]["Omi"]["owner"] == 2 and s2["provinces"]["Omi"]["armies"] == 2
    assert s2["provinces"]["Etchu"]["owner"] is None
