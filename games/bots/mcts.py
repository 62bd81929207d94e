"""The `mcts` bot: single-observer information-set Monte-Carlo tree search
(Cowling, Powley & Whitehouse 2012) with determinization.

Why, with the measurements and history: docs/modules.md, `games/bots/mcts.py`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.base import LegalSet, Ruleset, canonical_json

from . import heuristic, paired, playout, simulate
from .base import BotParts, Budget, Command

ROLLOUT_DEPTH = 10  # commands played past the tree before the evaluation decides
EXPLORE = 0.7  # UCB1 exploration constant for rewards in [-1, 1]
SCALE = 10.0  # evaluation points that make a reward of tanh(1) ~ 0.76
BRANCH = 10  # commands considered at a node below the root


@dataclass
class Node:
    seat: int | None = None  # who chose the command leading here (its reward is that seat's)
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)
    commands: dict[str, Command] = field(default_factory=dict)


def _reward(rules: Ruleset, parts: BotParts, state: Any, seats: int) -> list[float]:
    value = heuristic.evaluator(rules, parts)
    return [math.tanh(value(state, q) / SCALE) for q in range(seats)]


def _actor(rules: Ruleset, state: Any, rng: random.Random) -> int | None:
    pend = rules.pending(state)
    return rng.choice(pend).seat if pend else None


def _legal(rules: Ruleset, state: Any, seat: int, rng: random.Random) -> dict[str, Command]:
    """Children are keyed by seat and command: where several seats are pending
    (simultaneous choices) worlds may pick a different one to act first."""
    cmds = simulate.candidates(rules.legal_commands(state, seat), rng, BRANCH, samples=2)
    return {f"{seat}:{canonical_json(c)}": c for c in cmds}


def _ucb(parent_avail: int, child: Node) -> float:
    if child.visits == 0:
        return math.inf
    return child.reward / child.visits + EXPLORE * math.sqrt(math.log(max(parent_avail, 1)) / child.visits)


def root_candidates(
    view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget
) -> tuple[list[Command], bool]:
    """The heuristic's own choice first, then its other candidates (no duplicates);
    and whether that choice came from the ruleset's `decide` hook."""
    assert budget.worlds is not None
    me, parts = budget.worlds.seat, budget.worlds.parts
    seed = rng.getrandbits(64)
    own = heuristic.ruled_choice(parts, view, me, legal, random.Random(seed), budget.worlds)
    ruled = own is not None
    if own is None:
        own = heuristic.choose(view, legal, random.Random(seed), Budget(worlds=budget.worlds))
    cands = [simulate.as_json(own)] if own is not None else []
    seen = {canonical_json(c) for c in cands}
    for c in heuristic.options(parts, view, me, legal, rng):
        if canonical_json(c) not in seen:
            seen.add(canonical_json(c))
            cands.append(c)
    return cands, ruled


def choose(view: Mapping[str, Any], legal: LegalSet, rng: random.Random, budget: Budget) -> Command | None:
    if budget.worlds is None:
        raise ValueError("the mcts bot needs the seat's information set (budget.worlds)")
    rules, me = budget.worlds.rules, budget.worlds.seat
    root_cmds, ruled = root_candidates(view, legal, rng, budget)
    if len(root_cmds) <= 1:
        return root_cmds[0] if root_cmds else None
    if ruled:
        tested = _tested(budget.worlds.parts, view, me, root_cmds, rng)
        return paired.best(rules, tested, rng, budget) if len(tested) > 1 else root_cmds[0]
    root = Node(seat=me, commands={f"{me}:{canonical_json(c)}": c for c in root_cmds})
    done = 0
    while done == 0 or not (budget.spent(done) or _decided(root, budget, done)):
        _iterate(rules, budget.worlds.parts, root, budget.worlds.sample(rng), me, rng, budget.worlds.players)
        done += 1
    visited = [(child.visits, child.reward, key) for key, child in root.children.items() if child.visits]
    if not visited:
        return root_cmds[0]
    return root.commands[max(visited)[2]]


def _tested(
    parts: BotParts, view: Mapping[str, Any], me: int, root_cmds: list[Command], rng: random.Random
) -> list[Command]:
    """The rules' answer, then up to WIDTH - 1 alternatives, where the ruleset
    searches that type (its `Search`, `parts.search`): the ruleset's own
    `variants` of the answer where it has them, else other candidates of its type;
    else the answer alone (played as it is)."""
    search = parts.search
    own = root_cmds[0]
    if search is None or own.get("type") not in search.searched:
        return [own]
    alts = search.variants(view, me, own, search.width, rng) if search.variants is not None else []
    if alts:
        return [own, *alts]
    others = [c for c in root_cmds[1:] if c.get("type") in search.searched]
    return [own, *rng.sample(others, min(len(others), search.width - 1))]


def _decided(root: Node, budget: Budget, done: int) -> bool:
    """The most visited command cannot be overtaken in the time left (at the rate
    iterations have run so far): stop early. Never with an iteration budget, so
    seeded tests search exactly what they ask."""
    if budget.iterations is not None or done < 2 * len(root.commands):
        return False
    elapsed = budget.elapsed()
    left = done / max(elapsed, 1e-9) * max(0.0, budget.seconds - elapsed)
    visits = sorted((c.visits for c in root.children.values()), reverse=True) + [0]
    return visits[0] - visits[1] > left


def _iterate(
    rules: Ruleset, parts: BotParts, root: Node, world: Any, me: int, rng: random.Random, seats: int
) -> None:
    path: list[Node] = [root]
    node, state, seat = root, world, me
    while True:
        if node is root:
            options = dict(root.commands)
        else:
            options = _legal(rules, state, seat, rng)
            node.commands.update(options)
        for key in options:
            node.children.setdefault(key, Node())
            node.children[key].available += 1
        untried = [k for k in options if node.children[k].visits == 0]
        if untried:
            key = rng.choice(untried)
        else:
            key = max(options, key=lambda k: _ucb(node.children[k].available, node.children[k]))
        after = simulate.apply(rules, state, seat, options[key], rng)
        if after is None:  # this world refuses it (a sampled secret): try another world next time
            break
        child = node.children[key]
        child.seat = seat
        path.append(child)
        state = after
        if untried or rules.outcome(state) is not None:
            break
        nxt = _actor(rules, state, rng)
        if nxt is None:
            break
        node, seat = child, nxt
    state = playout.run(rules, parts, state, seats, ROLLOUT_DEPTH, rng)
    rewards = _reward(rules, parts, state, seats)
    for n in path[1:]:
        n.visits += 1
        n.reward += rewards[n.seat] if n.seat is not None and n.seat < len(rewards) else 0.0
    root.visits += 1
