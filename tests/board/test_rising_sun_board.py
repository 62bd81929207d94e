"""Rising Sun's board picture, from every seat's view and a spectator's, mid-game
and at the end: well-formed SVG, every province once, exactly the pieces the
viewer's view holds, nothing hidden from that viewer."""

from __future__ import annotations

from collections import Counter

import pytest

from games import board
from games.board.draw import layout
from games.rules import registry
from games.rules.rising_sun.data import BOARD

from .support import attrs, parse, pieces, provinces, states

RULES = registry.load_strict("rising-sun")
PLAYERS = 5
FIGURES = {"daimyo", "shinto", "bushi", "monster"}


def game(seed: int) -> list:
    return list(states("rising-sun", PLAYERS, seed))


@pytest.fixture(scope="module")
def played():
    return game(7)


def expected_map_pieces(view) -> Counter:
    out: Counter = Counter()
    for f in view["figures"].values():
        if f["at"] in BOARD["provinces"]:
            out[(f["type"], f["owner"], f["at"])] += 1
    for q, p in enumerate(view["players"]):
        for prov in p["strongholds"]:
            out[("stronghold", q, prov)] += 1
    for prov in view["war_provinces"]:
        out[("war", None, prov)] += 1
    if view.get("battle"):
        out[("battle", None, view["battle"]["province"])] += 1
    return out


def viewers():
    return [None, *range(PLAYERS)]


@pytest.mark.parametrize("moment", ["mid", "end"])
def test_every_viewer_sees_exactly_their_view(played, moment):
    _, state = played[len(played) // 2] if moment == "mid" else played[-1]
    assert (RULES.outcome(state) is not None) == (moment == "end")
    for seat in viewers():
        view = RULES.view(state, seat)
        root = parse(board.render("rising-sun", view))
        assert provinces(root) == Counter(set(BOARD["provinces"])), "every province exactly once"
        titles = {
            el.get("data-province"): el.find("{http://www.w3.org/2000/svg}title").text
            for el in root.iter()
            if el.get("data-province")
        }
        assert titles == {p: p for p in BOARD["provinces"]}
        assert pieces(root) == expected_map_pieces(view)
        scores = {a["data-seat"]: a["data-vp"] for a in attrs(root, "score")}
        assert scores == {str(q): str(p["vp"]) for q, p in enumerate(view["players"])}


def test_hidden_bids_and_face_down_tiles_are_not_drawn_for_others():
    """Scan games for a sealed war bid and a face-down mandate tile: only their
    owner's picture shows them until they are revealed."""
    seen_bid = seen_tile = False
    for seed in (1, 2, 3):
        for _, state in game(seed)[::3]:
            battle, track = state.get("battle"), state.get("track", [])
            sealed = [int(q) for q in (battle or {}).get("bids", {}) if not battle["revealed"]]
            hidden = [t for t in track if t["face_down"] and t["tile"]]
            if not sealed and not hidden:
                continue
            for seat in viewers():
                root = parse(board.render("rising-sun", RULES.view(state, seat)))
                bids = {int(a["data-seat"]) for a in attrs(root, "bid")}
                for q in sealed:
                    seen_bid = True
                    assert (q in bids) == (q == seat), f"seat {seat} sees seat {q}'s sealed bid"
                tiles = {int(a["data-slot"]): a["data-tile"] for a in attrs(root, "mandate")}
                for i, t in enumerate(track):
                    if t in hidden:
                        seen_tile = True
                        assert (tiles[i] == t["tile"]) == (t["seat"] == seat), f"seat {seat}, slot {i}"
    assert seen_bid and seen_tile, "the games never reached a sealed bid and a face-down tile"


def test_names_come_from_the_caller(played):
    _, state = played[-1]
    root = parse(board.render("rising-sun", RULES.view(state, None), names={"Edo": "江戸"}))
    edo = next(el for el in root.iter() if el.get("data-province") == "Edo")
    assert edo.find("{http://www.w3.org/2000/svg}title").text == "江戸"
    assert any(
        el.text == "江戸" and el.get("data-at") == "Edo"
        for el in root.iter("{http://www.w3.org/2000/svg}text")
    )


def test_names_never_overlap_pieces_on_busy_boards():
    for seed in (7, 8):
        for _, state in game(seed)[::10]:
            sc = board.LAYERS["rising-sun"][1](RULES.view(state, 0))
            boxes = [b for b, _ in layout(board.board("rising-sun"), sc, board.LAYERS["rising-sun"][2]())]
            labels = [b for b in boxes if b.what == "label"]
            chips = [b for b in boxes if b.what == "piece"]
            clash = [(a.province, b.province) for a in labels for b in chips if a.meets(b)]
            assert not clash, clash
