"""Paired rollouts: how the `mcts` bot tests a rule-based answer against a few
alternatives (games/bots/mcts.py says when).

Every round samples one world of the seat's information set (`budget.worlds`)
and one random seed, plays each candidate on that same world with that same
seed (the same dice, the same draws: common random numbers), lets every seat
follow the `heuristic` policy to the ruleset's horizon (the end of the season,
of the turns: the ruleset's `Search`, `worlds.parts.search`) and scores the end with the
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
HALVE_FROM = 4  # candidates from which the alternatives are halved as the budget runs


def rollout(rules: Ruleset, world: Any, me: int, cmd: Command, seed: int, worlds: InfoSet) -> float | None:
    """The seat's reward after `cmd` and heuristic play to the horizon (None when
    this world refuses the command)."""
    rng = random.Random(seed)
    after = simulate.apply(rules, world, me, cmd, rng)
    if after is None:
        return None
    end = playout.to_horizon(rules, worlds.parts, after, worlds.players, rng)
    return playout.reward(rules, worlds.parts, end, me)


def gains(
    rules: Ruleset, cands: Sequence[Command], rng: random.Random, budget: Budget
) -> tuple[list[list[float]], list[int]]:
    """Per alternative (index 1 on), its paired gains over the first candidate, and
    the candidates still played at the end. With more than HALVE_FROM candidates, successive halving: the budget is cut
    into phases, and after each the worse half of the alternatives (by mean
    gain) stops being played, so the close ones get the rounds."""
    assert budget.worlds is not None
    worlds, me = budget.worlds, budget.worlds.seat
    out: list[list[float]] = [[] for _ in cands]
    alive = list(range(len(cands)))
    phases = max(1, math.ceil(math.log2(len(cands) - 1))) if len(cands) > HALVE_FROM else 1
    done, phase, lap = 0, 1, 0.0
    while done == 0 or not (budget.spent(done) or _no_room(budget, lap)):
        started = budget.clock()
        world = worlds.sample(rng)
        seed = rng.getrandbits(64)
        rewards = {}
        for i in alive:
            if _over(budget):  # the clock ran out inside the round: it is not counted
                return out, alive
            rewards[i] = rollout(rules, world, me, cands[i], seed, worlds)
        done += len(alive)
        lap = budget.clock() - started
        if rewards[0] is not None:
            for i in alive[1:]:
                r = rewards[i]
                if r is not None:
                    out[i].append(r - rewards[0])
        if phase < phases and _share(budget, done) >= phase / phases:
            alive = _halved(alive, out)
            phase += 1
    return out, alive


def _over(budget: Budget) -> bool:
    """On the clock, the time is up. A round is checked between its rollouts, so a
    decision overruns its budget by one rollout at most (a round of 8 rollouts to
    the season's end took up to ~2 s on a loaded machine); with no round done, the
    rules' answer is played (best() needs rounds to switch)."""
    return budget.iterations is None and budget.elapsed() > budget.seconds


def _no_room(budget: Budget, lap: float) -> bool:
    """On the clock: another round as long as the last would overrun the budget
    (a 5-player plan's round is a quarter of a second)."""
    if budget.iterations is not None:
        return False
    return budget.elapsed() + lap > budget.seconds


def _share(budget: Budget, done: int) -> float:
    """How much of the budget is spent (rollouts or time)."""
    if budget.iterations is not None:
        return done / max(1, budget.iterations)
    return (budget.elapsed()) / max(budget.seconds, 1e-9)


def _halved(alive: list[int], out: list[list[float]]) -> list[int]:
    """The first candidate and the better half of the alternatives still played."""
    rest = sorted(alive[1:], key=lambda i: -sum(out[i]) / max(1, len(out[i])))
    return [0, *sorted(rest[: max(1, (len(rest) + 1) // 2)])]


def _lower(xs: list[float]) -> float:
    """The mean gain less Z standard errors (-inf with too few rounds)."""
    if len(xs) < MIN_ROUNDS:
        return -math.inf
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m - Z * sd / math.sqrt(len(xs))


def best(rules: Ruleset, cands: Sequence[Command], rng: random.Random, budget: Budget) -> Command:
    """The first candidate unless an alternative beats it with confidence."""
    paired, alive = gains(rules, cands, rng, budget)
    scored = [(_lower(paired[i]), i) for i in alive[1:]]
    top = max(scored, default=(-math.inf, 0))
    return cands[top[1]] if top[0] > 0 else cands[0]
