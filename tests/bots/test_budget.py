"""A decision's budget counts seconds on the clock it is given (issue 17: the bot
benchmark counts the search in CPU time, the server in wall time)."""

from __future__ import annotations

import random
import time

from games import plugins
from games.bots import arena, play
from games.bots.base import Budget
from games.rules.base import fold, rng_factory
from games.rules.registry import get


class FakeClock:
    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def test_a_budget_counts_its_seconds_on_its_clock():
    clock = FakeClock()
    budget = Budget(seconds=1.0, clock=clock)
    assert budget.started == 100.0 and budget.elapsed() == 0.0
    assert not budget.spent(5)
    clock.now = 100.9
    assert not budget.spent(5) and abs(budget.elapsed() - 0.9) < 1e-9
    clock.now = 101.0
    assert budget.spent(5)


def test_a_budget_on_the_default_clock_reads_wall_time():
    budget = Budget(seconds=1.0)
    assert budget.clock is time.perf_counter
    assert 0.0 <= budget.elapsed() < 1.0


def test_iterations_replace_any_clock():
    clock = FakeClock()
    budget = Budget(seconds=1.0, iterations=3, clock=clock)
    clock.now = 1e6
    assert not budget.spent(2) and budget.spent(3)


def _searched_reads(ruleset: str, players: int, seconds: float) -> int:
    """Along a game where every seat plays mcts on a clock that advances 0.1 s at
    each reading: the most readings one decision made."""
    rules, parts = get(ruleset), plugins.bots_of(ruleset)
    state = fold(rules, rules.start([None] * players, {}, rng_factory("clock", 1)))
    most = 0
    for n in range(12):
        ticks = {"n": 0}

        def ticking(ticks: dict[str, int] = ticks) -> float:
            ticks["n"] += 1
            return ticks["n"] * 0.1

        seat = rules.pending(state)[0].seat
        cmd = play(rules, state, seat, "mcts", random.Random(n), players, seconds, None, ticking, parts=parts)
        most = max(most, ticks["n"])
        for e in rules.decide(state, seat, cmd, rng_factory("clock", n + 2)):
            if not e.type.startswith("core."):
                state = rules.evolve(state, e)
    return most


def test_a_search_stops_when_its_clock_says_the_time_is_up():
    """One second is ten readings of the fake clock, whatever the wall time: a
    search that read another clock would run a wall second and read the fake
    one far more often (every rollout round reads it)."""
    most = _searched_reads("rising-sun", 3, 1.0)
    assert 3 <= most <= 25  # a round reads it several times; early stops (a decided lead) read fewer


def test_the_arena_passes_the_clock_to_the_searching_seat():
    readings = {"n": 0}

    def counted() -> float:
        readings["n"] += 1
        return time.thread_time()

    parts = plugins.RISING_SUN.bots
    match = arena.run(
        get("rising-sun"), ["mcts", "random", "random"], 1, seconds=0.001, clock=counted, parts=parts
    )
    assert match.outcome is not None and readings["n"] > 0
    assert all(t >= 0.0 for t in match.seconds["mcts"])
