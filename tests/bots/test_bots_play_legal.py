"""No bot ever offers a command the engine refuses: seeded whole games per
ruleset and player count, every seat a bot, every command through `decide`
(games.bots.arena raises on a refusal)."""

from __future__ import annotations

import pytest

from games import plugins
from games.bots import arena, info_set
from games.rules.registry import get

TABLES = [
    ("rising-sun", ["heuristic", "mcts", "random"]),
    ("rising-sun", ["mcts", "heuristic", "random", "heuristic", "mcts"]),
    ("shogun", ["heuristic", "mcts", "random"]),
    ("shogun", ["random", "heuristic", "mcts", "heuristic"]),
    ("imjin", ["heuristic", "mcts"]),
    ("imjin", ["mcts", "heuristic", "random", "heuristic"]),
]


@pytest.mark.parametrize(("ruleset", "bots"), TABLES, ids=[f"{r}-{len(b)}p" for r, b in TABLES])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_command_a_bot_offers_is_accepted(ruleset, bots, seed):
    m = arena.run(get(ruleset), bots, seed, seconds=0.02, parts=plugins.bots_of(ruleset))
    assert m.outcome.winners, m.outcome  # a whole game was played to its end
    for name in set(bots):
        assert m.seconds[name], f"{name} never decided"


def test_a_ruleset_without_a_sampler_gets_random_play_not_a_cheat():
    """A test ruleset has no world sampler: search bots must not read its state."""
    rules = get("toy-auction")
    assert info_set(rules, plugins.bots_of("toy-auction"), rules.initial_state(), 0, 2) is None


def test_bots_do_not_loop_on_a_cancel():
    """Imjin's declaration can be cancelled; heuristic seats that picked `cancel`
    declared and cancelled forever in this seeded game (found by bench/bots.py)."""
    m = arena.run(get("imjin"), ["heuristic", "heuristic"], 1, parts=plugins.IMJIN.bots)
    assert m.commands < 1000, m.commands
