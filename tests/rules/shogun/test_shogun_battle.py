"""Battles through the cube tower (reference 8, Appendix R #11 #25); the tower model itself
is tested in test_shogun_tower.py."""

from collections import Counter

import pytest
from shogun_helpers import FixedRng, act, clear_board, new_game, of_type, own, run, setup_action

from games.rules.shogun import data, state
from games.rules.shogun.battle import _resolve, fight
from games.rules.shogun.tower import drop

G = data.GREEN


def board():
    s = clear_board(new_game(4))
    for pl in s["players"]:
        pl["money"] = 10
    return s


def attack(s, to, armies, origin="Etchu", mode="fall", event=None):
    s, _ = run(setup_action(s, "attackA", {0: {"attackA": origin}}, event=event))
    return act(s, 0, {"type": "move", "to": to, "armies": armies}, rng=lambda p: FixedRng(mode))


def test_neutral_attack_won_leaves_a_minus_green():
    s = board()
    own(s, "Etchu", 0, 4)
    s2, events = attack(s, "Hida", 3)
    b = of_type(events, "BattleFought")[0]
    assert b["kind"] == "neutral" and b["thrown"] == {"attacker": 3, "defender": 0, "green": 1}
    assert b["result"] == "conquered"
    assert s2["provinces"]["Hida"] == {
        "owner": 0,
        "armies": 2,
        "castle": False,
        "temple": False,
        "theatre": False,
        "markers": 0,
    }
    assert s2["provinces"]["Etchu"]["armies"] == 1
    assert s2["tower"]["tray"] == []
    assert state.supply(s2, 0) == state.supply(s, 0) + 1  # the 1 casualty went home


def test_neutral_attack_needs_strictly_more():
    s = board()
    own(s, "Etchu", 0, 2)
    s2, events = attack(s, "Hida", 1)
    assert of_type(events, "BattleFought")[0]["result"] == "repelled"
    assert s2["provinces"]["Hida"]["owner"] is None
    assert s2["provinces"]["Etchu"]["armies"] == 1


def test_peasant_resistance_event_throws_two_green():
    s = board()
    own(s, "Etchu", 0, 3)
    _, events = attack(s, "Hida", 2, event="E03")
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"]["green"] == 2 and b["result"] == "repelled"


def test_attack_special_adds_a_cube_from_supply():
    s = board()
    own(s, "Etchu", 0, 3)
    s["players"][0]["special"] = "attack"
    s2, events = attack(s, "Hida", 2)
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"]["attacker"] == 3 and s2["provinces"]["Hida"]["armies"] == 2


def test_player_battle_green_fights_for_defender_without_markers():
    s = board()
    own(s, "Etchu", 0, 5)
    own(s, "Noto", 1, 2)
    s["tower"]["tray"] = [G]
    s2, events = attack(s, "Noto", 4)
    b = of_type(events, "BattleFought")[0]
    assert b["out"] == {"attacker": 4, "defender": 2, "green": 1, "green_counts": True}
    assert b["result"] == "conquered" and s2["provinces"]["Noto"]["armies"] == 1
    assert s2["tower"]["tray"] == []


def test_player_battle_green_ignored_with_revolt_markers():
    s = board()
    own(s, "Etchu", 0, 5)
    own(s, "Noto", 1, 2, markers=1, theatre=True)
    s["tower"]["tray"] = [G, 2]  # seat 2 is not a party
    s2, events = attack(s, "Noto", 4)
    b = of_type(events, "BattleFought")[0]
    assert b["result"] == "conquered" and s2["provinces"]["Noto"]["armies"] == 2
    assert sorted(s2["tower"]["tray"]) == sorted([G, 2])  # stays for the next battle
    # buildings and markers change hands with the province
    assert s2["provinces"]["Noto"]["theatre"] and s2["provinces"]["Noto"]["markers"] == 1


def test_defender_holds_and_keeps_min_of_surplus_and_own_cubes():
    s = board()
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 1, 4)
    s["tower"]["tray"] = [G, G]
    s2, events = attack(s, "Noto", 2)
    b = of_type(events, "BattleFought")[0]
    assert b["result"] == "held"
    assert s2["provinces"]["Noto"]["armies"] == 4  # min(6 - 2, 4)


def test_tie_devastates_the_province():
    s = board()
    own(s, "Etchu", 0, 4)
    own(s, "Noto", 1, 3, castle=True, temple=True)
    tiles = dict(s["tiles"])
    s2, events = attack(s, "Noto", 3)
    b = of_type(events, "BattleFought")[0]
    assert b["result"] == "devastated"
    assert s2["provinces"]["Noto"] == {
        "owner": None,
        "armies": 0,
        "castle": False,
        "temple": False,
        "theatre": False,
        "markers": 0,
    }
    assert s2["tiles"]["castle"] == tiles["castle"] + 1 and s2["tiles"]["temple"] == tiles["temple"] + 1


@pytest.mark.parametrize("event", ["E04", "E05"])
def test_castle_event_and_defence_special_add_defender_cubes(event):
    s = board()
    own(s, "Etchu", 0, 6)
    own(s, "Noto", 1, 2, castle=True)
    s["players"][1]["special"] = "defence"
    _, events = attack(s, "Noto", 5, event=event)
    b = of_type(events, "BattleFought")[0]
    assert b["thrown"]["defender"] == 4 and b["result"] == "conquered"


def test_castle_event_needs_a_castle_and_a_defender_supply():
    s = board()
    own(s, "Etchu", 0, 6)
    own(s, "Noto", 1, 2)
    _, events = attack(s, "Noto", 5, event="E04")
    assert of_type(events, "BattleFought")[0]["thrown"]["defender"] == 2
    s = board()
    own(s, "Etchu", 0, 6)
    own(s, "Noto", 1, 62, castle=True)  # no army left in supply
    _, events = attack(s, "Noto", 5, event="E04")
    assert of_type(events, "BattleFought")[0]["thrown"]["defender"] == 62


def test_cubes_stuck_in_the_tower_stay_there():
    s = board()
    own(s, "Etchu", 0, 4)
    own(s, "Noto", 1, 2)
    s2, events = attack(s, "Noto", 3, mode="stick")
    b = of_type(events, "BattleFought")[0]
    assert b["out"]["attacker"] == 0 and b["result"] == "devastated"  # 0-0 is a tie
    assert Counter(s2["tower"]["l1"]) == {0: 3, 1: 2}
    assert state.supply(s2, 0) == state.supply(s, 0)  # the 3 are neither on map nor home


@pytest.mark.parametrize(
    "kind,a,d,g,result,armies",
    [
        ("attack", 0, 0, 0, "devastated", 0),  # R #25
        ("attack", 1, 0, 2, "devastated", 0),  # defender 'wins' with peasants only: tie
        ("attack", 2, 3, 1, "held", 2),
        ("attack", 5, 2, 1, "conquered", 2),
        ("neutral", 0, 0, 0, "repelled", 0),
        ("neutral", 2, 0, 1, "conquered", 1),
        ("revolt", 0, 0, 0, "revolted", 0),
        ("revolt", 0, 2, 2, "revolted", 0),
        ("revolt", 0, 3, 1, "suppressed", 2),
        ("famine", 0, 1, 3, "revolted", 0),
    ],
)
def test_battle_arithmetic(kind, a, d, g, result, armies):
    p = {
        "owner": None if kind == "neutral" else 1,
        "armies": 0 if kind == "neutral" else 3,
        "castle": kind != "neutral",
        "temple": False,
        "theatre": False,
        "markers": 0,
    }
    res, after = _resolve(kind, p, 0, a, d, g)
    assert res == result and after["armies"] == armies


def test_tray_leftovers_are_thrown_with_the_next_batch():
    t = drop({"l1": [], "l2": [], "tray": [3, 3]}, [0], FixedRng("fall"))
    assert sorted(t["tray"]) == [0, 3, 3]
    s = board()
    own(s, "Etchu", 0, 3)
    own(s, "Noto", 1, 1)
    s["tower"]["tray"] = [1, 1]  # earlier-fallen defender cubes count
    _, events = attack(s, "Noto", 2)
    b = of_type(events, "BattleFought")[0]
    assert b["out"]["defender"] == 3 and b["result"] == "held"


def test_fight_reports_the_lost_card_of_the_defender():
    s = board()
    own(s, "Noto", 1, 1)
    s = setup_action(s, "castle", {1: {"rice": "Noto"}})
    payload = fight(s, FixedRng(), "revolt", "Noto", green=1)
    assert payload["result"] == "revolted" and payload["lost"] == [1, "Noto"]
    assert payload["reveals"][0]["choice"] == "Noto"
