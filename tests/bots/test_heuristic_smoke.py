"""The heuristic plays the game: in a small seeded sample it wins more games
against random seats than a random seat would (a smoke check, not a strength
proof: bench/bots.py measures that over hundreds of games)."""

from __future__ import annotations

import pytest

from games import plugins
from games.bots import arena
from games.rules.registry import get


@pytest.mark.parametrize(("ruleset", "players"), [("rising-sun", 3), ("shogun", 3), ("imjin", 2)])
def test_heuristic_beats_random_more_often_than_not(ruleset, players):
    wins = 0
    games = 8
    for seed in range(games):
        bots = ["random"] * players
        bots[seed % players] = "heuristic"
        m = arena.run(get(ruleset), bots, 100 + seed, parts=plugins.bots_of(ruleset))
        wins += (seed % players) in m.outcome.winners
    assert wins >= 5, f"heuristic won {wins} of {games}"  # an even seat: 2.7 (3p) or 4 (Imjin)
