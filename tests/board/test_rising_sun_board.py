"""Rising Sun's secrets in the picture: a sealed war bid and a face-down mandate
tile are drawn only for their owner until revealed."""

from __future__ import annotations

from games import board
from games.plugins import layer
from games.rules import registry

from .support import attrs, parse, states

RULES = registry.load_strict("rising-sun")
PLAYERS = 5


def viewers():
    return [None, *range(PLAYERS)]


def game(seed: int) -> list:
    return list(states("rising-sun", PLAYERS, seed))


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
                root = parse(board.render(layer("rising-sun"), RULES.view(state, seat)))
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
