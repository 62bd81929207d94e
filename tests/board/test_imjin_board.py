"""Imjin's secrets in the picture: generals in another seat's hand that the
viewer has not seen are never named; the viewer's own hand is."""

from __future__ import annotations

from games import board
from games.board.imjin import _general, _title
from games.plugins import layer
from games.rules import registry

from .support import SVG_NS, parse, states

RULES = registry.load_strict("imjin")


def test_hidden_hands_are_not_named():
    checked = 0
    for seed in (3, 4):
        for _, state in list(states("imjin", 4, seed))[::15]:
            if state.get("stage") != "play" or state.get("result") is not None:
                continue
            for seat in [None, 0, 1, 2, 3]:
                view = RULES.view(state, seat)
                svg = board.render(layer("imjin"), view)
                words = " ".join(
                    t.text or "" for t in parse(svg).iter(f"{SVG_NS}text")
                )  # wrapped lines joined
                for q in range(4):
                    known = set(view["hands"][q]["cards"])
                    for card in state["hands"][q]:
                        on_map = any(u.get("general") == card for u in view["units"].values())
                        if card in known or on_map:
                            continue
                        checked += 1
                        assert q != seat
                        name = _general(board.texts(layer("imjin")), card)
                        assert name not in svg and _title(card) not in svg and card not in svg, (
                            f"seat {seat} sees {card} of seat {q}"
                        )
                if seat is not None:
                    for card in state["hands"][seat]:
                        assert _general(board.texts(layer("imjin")), card) in words
    assert checked, "no hidden card was ever checked"
