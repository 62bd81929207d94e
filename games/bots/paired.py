"""Paired rollouts: how the `mcts` bot tests a rule-based answer against a few
alternatives (games/bots/mcts.py says when).

Every round samples one world of the seat's information set (`budget.worlds`)
and one random seed, plays each candidate on that same world with that same
seed (the same dice, the same draws: common random numbers), lets every seat
follow the `heuristic` policy to the ruleset's horizon (the end of the season,
of the turns: `games/bots/<ruleset>/search.py`) and scores the end with the
evaluation. The rules' answer is left only for an alternative whose gain over it,
paired round by round, stays above zero by Z standard errors: the rules are
right far more often than a handful of rollouts can tell, so a switch needs
evidence, not a lucky draw.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from games.rules.base import Ruleset

from . import playout, simulate
from .base import Budget, Command, InfoSet

Z = 1.0  # standard errors by which an alternative must beat the rules' answer
MIN_ROUNDS = 3  # rounds before any switch (a standard error of 2 samples says little)


def rollout(rules: Ruleset, world: Any, me: int, cmd: Command, seed: int, worlds: InfoSet) -> float | None:
    """The seat's reward after `cmd` and heuristic play to the horizon (None when
    this world refuses the command)."""
    rng = random.Random(seed)
    after = simulate.apply(rules, world, me, cmd, rng)
    if after is None:
        return None
    end = playout.to_horizon(rules, after, worlds.players, rng)
    return playout.reward(rules, end, me)


def gains(rules: Ruleset, cands: Sequence[Command], rng: random.Random, budget: Budget) -> list[list[float]]:
    """Per alternative (index 1 on), its paired gains over the first candidate."""
    assert budget.worlds is not None
    worlds, me = budget.worlds, budget.worlds.seat
    out: list[list[float]] = [[] for _ in cands]
    done = 0
    while done == 0 or not budget.spent(done):
        world = worlds.sample(rng)
        seed = rng.getrandbits(64)
        rewards = [rollout(rules, world, me, c, seed, worlds) for c in cands]
        done += len(cands)
        if rewards[0] is None:
            continue
        for i, r in enumerate(rewards[1:], 1):
            if r is not None:
                out[i].append(r - rewards[0])
    return out


def _lower(xs: list[float]) -> float:
    """The mean gain less Z standard errors (-inf with too few rounds)."""
    if len(xs) < MIN_ROUNDS:
        return -math.inf
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m - Z * sd / math.sqrt(len(xs))


def best(rules: Ruleset, cands: Sequence[Command], rng: random.Random, budget: Budget) -> Command:
    """The first candidate unless an alternative beats it with confidence."""
    paired = gains(rules, cands, rng, budget)
    scored = [(_lower(xs), i) for i, xs in enumerate(paired) if i]
    top = max(scored, default=(-math.inf, 0))
    return cands[top[1]] if top[0] > 0 else cands[0]
