"""The data files against the reference's checks (15.1-15.5, Appendix R #26 #27)."""

from collections import Counter

from games.rules.shogun import data


def connected(nodes):
    nodes = set(nodes)
    if not nodes:
        return True
    seen, todo = set(), [next(iter(nodes))]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo += [m for m in data.ADJ[n] if m in nodes]
    return seen == nodes


def test_45_provinces_9_per_region_on_both_sides():
    assert len(data.PROVINCES) == 45
    for side in ("sun", "moon"):
        counts = Counter(data.regions(side).values())
        assert counts == {c: 9 for c in data.REGION_COLOURS}


def test_97_symmetric_edges_with_6_sea_routes():
    edges = {frozenset((a, b)) for a, b, _ in data.EDGES}
    assert len(edges) == 97 == len(data.EDGES)
    assert sum(sea for *_, sea in data.EDGES) == 6
    for a, nbrs in data.ADJ.items():
        assert a not in nbrs
        for b in nbrs:
            assert a in data.ADJ[b]
    assert "Mikawa" not in data.ADJ["Kai"]  # the one-sided [imr] link is dropped
    assert "Harima" in data.ADJ["Hoki"]  # confirmed on the scan (R #28)


def test_province_values_spot_checks():
    assert (
        data.PROVINCES["Etchu"]["tax"],
        data.PROVINCES["Etchu"]["rice"],
        data.PROVINCES["Etchu"]["sites"],
    ) == (
        7,
        3,
        3,
    )
    assert (data.PROVINCES["Shimosa"]["tax"], data.PROVINCES["Shimosa"]["rice"]) == (5, 5)
    assert data.PROVINCES["Sanuki"]["sun"] == "purple" and data.PROVINCES["Sanuki"]["moon"] == "green"
    assert sum(p["sites"] for p in data.PROVINCES.values()) == 87  # R #20


def test_three_player_exclusions_and_connectivity():
    out = {n for n in data.NAMES if n not in data.in_play(3)}
    assert out == {"Mutsu", "Echigo", "Awa-Boso", "Kazusa", "Sanuki", "Tosa", "Izumo", "Iwami"}
    assert len(data.in_play(3)) == 37 and len(data.in_play(4)) == 45
    assert connected(data.NAMES) and connected(data.in_play(3))
    sun = data.regions("sun")
    for colour in data.REGION_COLOURS:
        members = [n for n in data.NAMES if sun[n] == colour]
        assert connected(members)
        assert connected([n for n in members if n in data.in_play(3)])


def test_moon_fallback_map_is_unsound_as_documented():
    """R #27: sun adjacency + moon regions leaves moon-green non-contiguous, and the sun 3p
    exclusions split moon-brown. These facts are why the moon side is experimental."""
    moon = data.regions("moon")
    green = [n for n in data.NAMES if moon[n] == "green"]
    assert not connected(green)
    brown3 = [n for n in data.NAMES if moon[n] == "brown" and n in data.in_play(3)]
    assert not connected(brown3)


def test_beginner_setups_match_the_village_lists():
    for n in (3, 4, 5):
        table = data.SETUP["beginner"][n]
        assert len(table) == n
        used = [p for letter in table for p in table[letter]]
        assert len(used) == len(set(used)) and set(used) <= set(data.in_play(n))
        for letter in table:
            assert sorted(table[letter].values()) == sorted(data.SETUP["start_villages"][n])
    assert [sum(data.SETUP["start_villages"][n]) for n in (5, 4, 3)] == [23, 25, 27]


def test_cards():
    assert len(data.ACTION_IDS) == 10 and len(data.EVENTS) == 12 and len(data.SPECIALS) == 5
    assert [data.ACTIONS[a]["cost"] for a in data.ACTION_IDS] == [3, 2, 1, 0, 0, 3, 2, 1, 0, 0]
    assert sorted(e["rice_loss"] for e in data.EVENTS.values()) == [0, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7]
    assert data.FAVOUR_IDS == list(range(1, 22))
    groups = {}
    for k, f in data.FAVOURS.items():
        groups.setdefault(f["type"], []).append(k)
    assert groups["chests"] == [2, 9, 16] and groups["tray"] == [3, 8, 14]
    assert groups["rice"] == [5, 15, 20] and groups["vp"] == [6, 13, 19]
    assert groups["building"] == [7, 17, 21] and groups["immunity"] == [10, 11, 18]


def test_famine_table():
    assert [data.famine_row(s) for s in range(0, 9)] == [
        (0, 0),
        (1, 1),
        (1, 2),
        (2, 2),
        (2, 2),
        (2, 3),
        (2, 3),
        (3, 3),
        (3, 3),
    ]


def test_event_cards_match_the_reference_table():
    """Reference 15.7: effect and winter rice loss of each of the 12 event cards."""
    table = {
        "E01": ("theatre_calms", 5),
        "E02": ("theatre_calms", 7),
        "E03": ("neutral_green", 3),
        "E04": ("castle_defence", 2),
        "E05": ("castle_defence", 6),
        "E06": ("temple_immune", 3),
        "E07": ("tax_max", 0),
        "E08": ("tax_min", 2),
        "E09": ("temple_immune", 4),
        "E10": ("rice_min", 3),
        "E11": ("rice_max", 4),
        "E12": ("shortage", 1),
    }
    assert {k: (v["effect"], v["rice_loss"]) for k, v in data.EVENTS.items()} == table


def test_rice_track_maximum_is_18_per_year_without_favours():
    """R #19: one rice collection per season, at most 5 (+1 special); 3 seasons = 18."""
    best = max(p["rice"] for p in data.PROVINCES.values())
    assert best == 5 and 3 * (max(best, 4) + 1) == 18
