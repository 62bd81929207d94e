"""Helpers shared by the per-ruleset samplers of determinizations.

Rule of every sampler: whatever the seat may not see is first put in an order
that depends only on what it may see (sorted), then drawn with the bot's own
random source. So two states that differ only in another seat's secret give the
same world for the same random source: the search cannot read the secret.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

BLANK_SALT = "0" * 32  # other seats' salts are never copied into a world


def reshuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    out = sorted(items)  # type: ignore[type-var]
    rng.shuffle(out)
    return out
