"""The seats' entropy: which contributions core.GameStarted lists, and the stream key they give.

A game whose seats contributed entropy keys every random stream with
``games.rules.seeding.stream_seed(seed, contributions)`` instead of the seed
itself (docs/audit.md, "Seat entropy"). This check reads the contributions,
refuses malformed ones (not 64 lowercase hex, a seat out of range or listed
twice, out of seat order, a bot seat's), and once the seed is known sets
``report.stream_seed``, the key the salts and the replay use. A contribution
changed in the export changes the key, so the replay then fails.
"""

from __future__ import annotations

from typing import Any

from games.rules import seeding

from .report import Report


def check_entropy(started: Any, report: Report) -> None:
    """Read core.GameStarted's `entropy` into the report; set the stream key once the seed is known."""
    items = list(started.entropy or ())
    seats = list(started.seats or ())
    given: list[tuple[int, str]] = []
    for item in items:
        seat = item.get("seat") if isinstance(item, dict) else None
        value = item.get("entropy") if isinstance(item, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
            report.add(1, "entropy", f"a contribution names no seat of the game: {seat!r}")
            continue
        if not seeding.is_entropy(value):
            report.add(1, "entropy", f"seat {seat}'s contribution is not 64 lowercase hex characters")
            continue
        if isinstance(seats[seat], dict) and seats[seat].get("bot"):
            report.add(1, "entropy", f"seat {seat} is a bot seat: only a person contributes entropy")
        if given and seat <= given[-1][0]:
            report.add(1, "entropy", f"seat {seat}'s contribution is repeated or out of seat order")
        given.append((seat, str(value)))
    report.entropy = [{"seat": seat, "entropy": value} for seat, value in given]
    if isinstance(report.seed, str):
        report.stream_seed = seeding.stream_seed(report.seed, given)
