"""Every ruleset's board picture, from every seat's view and a spectator's,
mid-game and at the end: well-formed SVG, every province exactly once with its
name, exactly the pieces the viewer's view holds, names clear of pieces."""

from __future__ import annotations

import pytest

from games import board
from games.board.draw import layout
from games.plugins import layer
from games.rules import registry

from .expect import EXPECT, province_ids
from .support import SVG_NS, attrs, parse, pieces, provinces, states

GAMES = {"rising-sun": 5, "imjin": 4, "shogun": 5}
SEEDS = (7, 8)


@pytest.fixture(scope="module")
def played():
    return {(r, s): list(states(r, n, s)) for r, n in GAMES.items() for s in SEEDS}


@pytest.mark.parametrize("ruleset", list(GAMES))
@pytest.mark.parametrize("moment", ["start", "mid", "end"])
def test_every_viewer_sees_exactly_their_view(played, ruleset, moment):
    rules = registry.load_strict(ruleset)
    game = played[(ruleset, SEEDS[0])]
    _, state = {"start": game[0], "mid": game[len(game) // 2], "end": game[-1]}[moment]
    assert (rules.outcome(state) is not None) == (moment == "end")
    names = layer(ruleset).names()
    for seat in [None, *range(GAMES[ruleset])]:
        view = rules.view(state, seat)
        root = parse(board.render(layer(ruleset), view))
        assert set(provinces(root)) == province_ids(ruleset) and set(provinces(root).values()) == {1}
        titles = {
            el.get("data-province"): el.find(f"{SVG_NS}title").text
            for el in root.iter()
            if el.get("data-province")
        }
        assert titles == {p: names[p] for p in province_ids(ruleset)}
        assert pieces(root) == EXPECT[ruleset](view), f"seat {seat}"
        turns = sorted((int(a["data-seat"]), a["data-kind"]) for a in attrs(root, "turn"))
        assert turns == sorted((p.seat, p.kind) for p in rules.pending(state))


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_names_never_overlap_pieces_or_each_other(played, ruleset):
    rules = registry.load_strict(ruleset)
    scene, names = layer(ruleset).scene, layer(ruleset).names()
    for seed in SEEDS:
        for _, state in played[(ruleset, seed)][::7]:
            boxes = [
                b
                for b, _ in layout(
                    board.board(layer(ruleset)),
                    scene(rules.view(state, 0), board.texts(layer(ruleset))),
                    names,
                )
            ]
            labels = [b for b in boxes if b.what == "label"]
            chips = [b for b in boxes if b.what == "piece"]
            clash = {(a.province, b.province) for a in labels for b in chips if a.meets(b)}
            clash |= {(a.province, b.province) for a in labels for b in labels if a is not b and a.meets(b)}
            assert not clash, clash


def test_names_come_from_the_caller(played):
    _, state = played[("rising-sun", SEEDS[0])][-1]
    view = registry.load_strict("rising-sun").view(state, None)
    root = parse(board.render(layer("rising-sun"), view, names={"Edo": "江戸"}))
    edo = next(el for el in root.iter() if el.get("data-province") == "Edo")
    assert edo.find(f"{SVG_NS}title").text == "江戸"
    assert any(el.text == "江戸" and el.get("data-at") == "Edo" for el in root.iter(f"{SVG_NS}text"))
