"""Seat entropy: the game's random stream key from the server's seed and the seats' contributions.

Before a game starts each seat played by a person may contribute 32 random bytes
(64 hex characters). The server's seed is drawn, and its commitment published,
when the game is created, before any contribution can arrive. At the start the
stream key every random outcome derives from (docs/audit.md) becomes
``sha256_hex("sengoku-seed/1\\n" + seed + "\\n" + "".join(f"{seat}:{entropy}\\n"))``
over the contributions in seat order; with no contribution it stays the seed
itself, so such games play as before. No party alone, the server included,
chooses the outcome of a game where one honest seat contributed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .base import sha256_hex

FORMAT = "sengoku-seed/1"
ENTROPY_RE = re.compile(r"[0-9a-f]{64}")


def is_entropy(value: object) -> bool:
    """64 lowercase hex characters (32 bytes)."""
    return isinstance(value, str) and ENTROPY_RE.fullmatch(value) is not None


def contributions(items: Iterable[Mapping[str, Any]] | None) -> list[tuple[int, str]]:
    """(seat, entropy) pairs in seat order from core.GameStarted's `entropy` items."""
    return sorted((int(item["seat"]), str(item["entropy"])) for item in items or ())


def stream_seed(seed: str, given: Iterable[tuple[int, str]]) -> str:
    """The key of every random stream of the game: the seed itself when no seat
    contributed, else the documented mix of the seed and every contribution."""
    pairs = sorted(given)
    if not pairs:
        return seed
    return sha256_hex(f"{FORMAT}\n{seed}\n" + "".join(f"{seat}:{entropy}\n" for seat, entropy in pairs))
