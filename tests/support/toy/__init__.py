"""A small test-only ruleset ("toy-auction"), never registered in production.

Each of 3 rounds a prize (1..6, drawn with the game's RNG) is shown; every seat
bids secretly (commit-reveal) from its coins; when all bids are in they are
revealed, the highest bid wins (ties: lower seat), pays its bid and then chooses
to keep the prize or give it to another seat. Most points wins; ties share.
It exercises every platform path: randomness, simultaneous secret choices,
single-seat decisions, defaults and outcome. It is built like the real rulesets
(the kit's folder shape, README.md) and declared like them: `RULES` for the
engine registry and `PLUGINS`, its record of parts (games/plugins.py).
"""

from __future__ import annotations

from games.bots.base import NO_PARTS
from games.plugins import Plugins

from . import catalogue, describe
from .rules import RULES, ToyRules
from .state import State

# No board and no bot hooks: the picture answers 404 and the search bots play as `random`.
PLUGINS = Plugins(
    key=ToyRules.id,
    rules=RULES,
    catalogue=catalogue.build,
    describe=describe.describe,
    board=None,
    bots=NO_PARTS,
)

__all__ = ["PLUGINS", "RULES", "State", "ToyRules"]
