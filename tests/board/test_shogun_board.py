"""Shogun in the picture: another seat's face-down plan is never drawn; the
provinces out of play with 3 players are marked; the moon side says it is
experimental; the tower shows the cubes the view shows."""

from __future__ import annotations

from collections import Counter

from games import board
from games.plugins import layer
from games.rules import registry

from .support import SVG_NS, attrs, parse, pieces, states

RULES = registry.load_strict("shogun")


def test_plans_only_for_their_owner_until_the_end():
    checked = 0
    for _, state in list(states("shogun", 3, 5))[::5]:
        over = RULES.outcome(state) is not None
        for seat in [None, 0, 1, 2]:
            view = RULES.view(state, seat)
            root = parse(board.render(layer("shogun"), view))
            shown = {int(a["data-seat"]) for a in attrs(root, "plan")}
            planned = {int(q) for q in (view.get("round") or {}).get("plans", {})}
            assert shown == planned
            if not over and state.get("round"):
                checked += 1
                assert shown <= ({seat} if seat is not None else set())
    assert checked


def test_out_of_play_provinces_and_the_tower():
    _, state = list(states("shogun", 3, 6))[40]
    view = RULES.view(state, None)
    root = parse(board.render(layer("shogun"), view))
    out = {
        el.get("data-province") for el in root.iter(f"{SVG_NS}path") if "out-of-play" in el.get("class", "")
    }
    assert out == set(board.board(layer("shogun")).provinces) - set(view["in_play"])
    assert len(out) == 8
    cubes = pieces(root, {"cube"}, where="panel")
    want: Counter = Counter()
    for c in view["tower"]["tray"]:
        want[("cube", None if c == -1 else c, None)] += 1
    # nobody sees inside the tower (Shogun rules version 4): the panel draws the cubes
    # inside per colour, never per level
    for seat, n in enumerate(view["tower"]["inside"]["seats"]):
        want[("cube", seat, None)] += n
    want[("cube", None, None)] += view["tower"]["inside"]["green"]
    assert cubes == +want
    levels = {el.get("data-level") for el in root.iter() if el.get("data-level")}
    assert levels <= {"inside", "tray"}


def test_moon_side_is_marked_experimental():
    _, state = list(states("shogun", 4, 2, {"board": "moon"}))[10]
    root = parse(board.render(layer("shogun"), RULES.view(state, 0)))
    notice = [el.text for el in root.iter(f"{SVG_NS}text") if el.get("class") == "notice"]
    assert notice and "experimental" in " ".join(notice).lower()
