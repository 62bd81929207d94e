"""Battle odds from the die (§5.1): every die hits a troop with probability 1/3
in either battle type (砲 plus 馬 on land or 船 at sea), whatever the side."""

from __future__ import annotations

from functools import cache
from math import comb

HIT = 1 / 3


@cache
def hits(dice: int) -> tuple[float, ...]:
    """P(exactly k troop hits) for k = 0..dice."""
    return tuple(comb(dice, k) * HIT**k * (1 - HIT) ** (dice - k) for k in range(dice + 1))


def at_least(dice: int, k: int) -> float:
    """P(at least k troop hits from `dice` dice)."""
    if k <= 0:
        return 1.0
    return sum(hits(max(0, dice))[k:])


def expected_losses(dice: int, troops: int) -> float:
    """Expected troops a unit of `troops` loses to `dice` dice (it cannot lose more)."""
    return sum(p * min(k, troops) for k, p in enumerate(hits(max(0, dice))))
