"""Playouts for the `mcts` bot: every seat plays the `heuristic` policy on a
sampled world for a few commands, then the ruleset's evaluation scores the end.

A playout acts on a full sampled state (a determinization), so each seat's
choice is asked exactly as the platform would ask it: from that seat's view of
the world and its own legal set, with an information set that is the world
itself (the world is already a draw of everything the searching seat cannot
see, so nothing the real table hides leaks in).

The ruleset's hooks (`BotParts`: its evaluation and its `Search` horizon) are
handed in by the caller, never looked up here.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.rules.base import Ruleset

from . import heuristic, simulate
from .base import BotParts, Command, InfoSet

PLAYOUT_CANDIDATES = 3  # commands the playout's one-ply lookahead prices where the ruleset has no `decide`
HORIZON_CAP = 400  # commands at most in a playout to the horizon (a whole game is 200-300)
SCALE = 10.0  # evaluation points that make a reward of tanh(1) ~ 0.76 (a won game is +-1000: +-1)


def policy(
    rules: Ruleset, parts: BotParts, state: Any, seat: int, players: int, rng: random.Random
) -> Command | None:
    """What the heuristic bot would play for `seat` on this world: the ruleset's
    `decide` where it answers, else its one-ply lookahead on fewer candidates
    (the lookahead is most of a playout's cost: one evaluation per candidate)."""
    legal = rules.legal_commands(state, seat)
    if legal.empty:
        return None
    view = rules.view(state, seat)
    world = InfoSet(rules, seat, players, lambda _rng: state, parts)
    own = heuristic.ruled_choice(parts, view, seat, legal, rng, world)
    if own is not None:
        return own
    cands = heuristic.options(parts, view, seat, legal, rng)
    if len(cands) > PLAYOUT_CANDIDATES:
        cands = rng.sample(cands, PLAYOUT_CANDIDATES)
    return _greedy(rules, parts, state, seat, cands, rng)


def _greedy(
    rules: Ruleset, parts: BotParts, state: Any, seat: int, cands: list[Command], rng: random.Random
) -> Command | None:
    value = heuristic.evaluator(rules, parts)
    best: tuple[float, Command] | None = None
    for cmd in cands:
        after = simulate.apply(rules, state, seat, cmd, rng)
        score = value(after, seat) if after is not None else -math.inf
        if best is None or score > best[0]:
            best = (score, cmd)
    return best[1] if best is not None else None


def step(rules: Ruleset, parts: BotParts, state: Any, players: int, rng: random.Random) -> Any | None:
    """The world after one command of heuristic play, or None when the game is
    over, nobody is pending, or the world refuses the command."""
    if rules.outcome(state) is not None:
        return None
    pending = rules.pending(state)
    if not pending:
        return None
    seat = rng.choice(pending).seat  # simultaneous choices: any order, as the table would
    cmd = policy(rules, parts, state, seat, players, rng)
    return simulate.apply(rules, state, seat, cmd, rng) if cmd is not None else None


def run(rules: Ruleset, parts: BotParts, state: Any, players: int, depth: int, rng: random.Random) -> Any:
    """The world after at most `depth` commands of heuristic play (fewer if the
    game ends, nobody is pending, or the world refuses a command)."""
    for _ in range(depth):
        after = step(rules, parts, state, players, rng)
        if after is None:
            break
        state = after
    return state


def to_horizon(rules: Ruleset, parts: BotParts, state: Any, players: int, rng: random.Random) -> Any:
    """The world once heuristic play has crossed the ruleset's horizon `STAGES`
    times (the key `stage(state)` changed: a new season, another seat's turn),
    or the game ended (at most HORIZON_CAP commands)."""
    search = parts.search
    if search is None:
        return run(rules, parts, state, players, HORIZON_CAP, rng)
    last, crossed = search.stage(state), 0
    for _ in range(HORIZON_CAP):
        after = step(rules, parts, state, players, rng)
        if after is None:
            break
        state = after
        now = search.stage(state)
        if now != last:
            last, crossed = now, crossed + 1
            if crossed >= search.stages:
                break
    return state


def reward(rules: Ruleset, parts: BotParts, state: Any, seat: int) -> float:
    """The seat's reward in [-1, 1]: the search module's own `reward` where it has
    one (e.g. a forecast of the final scores), else the heuristic's evaluation
    squashed."""
    own = parts.search.reward if parts.search is not None else None
    if own is not None:
        return float(own(state, seat))
    return math.tanh(heuristic.evaluator(rules, parts)(state, seat) / SCALE)
