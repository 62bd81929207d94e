"""The view header's ``private`` paths (kit/header.py) name exactly the viewer's own hidden
information: each path resolves in the seat's view, everything a seat sees beyond a
watcher lies under one of them (Rising Sun's alliance proposals aside: both their players
see them), a watcher's header lists none, and none is left once the game is over."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.base import fold
from games.rules.imjin.rules import RULES as IMJIN
from games.rules.rising_sun.rules import RULES as RISING_SUN
from games.rules.shogun.rules import RULES as SHOGUN
from games.rules.testing import play_random_game

MISSING = object()


def resolve(view: Any, path: str) -> Any:
    """The value at a dotted path (list indices as numbers), or MISSING."""
    node = view
    for key in path.split("."):
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return MISSING
    return node


def differences(mine: Any, theirs: Any, prefix: str = "") -> list[str]:
    """The dotted paths where two views differ (a key on one side only counts)."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return [
            found
            for key in sorted(set(mine) | set(theirs))
            for found in differences(mine.get(key, MISSING), theirs.get(key, MISSING), f"{prefix}{key}.")
        ]
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        return [
            found
            for i, pair in enumerate(zip(mine, theirs, strict=True))
            for found in differences(*pair, f"{prefix}{i}.")
        ]
    return [] if mine == theirs else [prefix.rstrip(".")]


SHARED = {
    "rising-sun": ("header", "proposals"),
    "shogun": ("header",),
    "imjin": ("header", "seat"),
}  # Imjin repeats whose view it is


@pytest.mark.parametrize(
    "rules,players,seed",
    [(RISING_SUN, 3, 1), (SHOGUN, 3, 2), (IMJIN, 2, 3), (IMJIN, 4, 4)],
    ids=["rising-sun", "shogun", "imjin-2", "imjin-4"],
)
def test_the_private_paths_are_the_seats_own_hidden_information(rules, players, seed):
    out = play_random_game(rules, [None] * players, {}, seed=seed, check_every=10000, check_views=False)
    state = rules.initial_state()
    listed = 0
    for count, event in enumerate(out.events):
        state = fold(rules, [event], state)
        if count % 17:
            continue
        watcher = rules.view(state, None)
        assert watcher["header"]["private"] == []
        for seat in range(players):
            view = rules.view(state, seat)
            private = view["header"]["private"]
            ruleset = view["header"]["ruleset"]
            listed += len(private)
            if view["header"]["ended"]:
                assert private == []
            for path in private:
                assert resolve(view, path) is not MISSING, path
            for path in differences(view, watcher):
                if path.split(".")[0] in SHARED[ruleset]:
                    continue
                assert any(path == p or path.startswith(p + ".") for p in private), (path, private)
    assert listed
    final = rules.view(out.state, 0)["header"]
    assert final["ended"] and final["private"] == []
