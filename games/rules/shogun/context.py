"""The scratch of one decision: the kit's `Context` (emit, fold, named random streams)
with the rules version of the game being decided."""

from __future__ import annotations

from games.rules.base import RngFactory
from games.rules.kit import Context

from . import data
from .evolve import evolve
from .state import State


class Ctx(Context[State]):
    """Every payload goes through JSON before it is folded (tuples become lists, keys
    become strings), so the working state equals what a replay from the store computes.
    The fold is copy-on-write: the input state of `decide` is shared, never mutated."""

    def __init__(self, state: State, rng: RngFactory, version: int = data.RULES_VERSION) -> None:
        super().__init__(state, rng, evolve, normalise=True)
        self.version = version  # the rules version the game was started under
