"""The 12 event cards' yearly draw (reference 3, 15.7): 4 cards at each year's start,
public; year 2 draws from the 8 cards not used in year 1. (Each season's card is revealed
in `planning.py`; the 4th card only gives the winter rice loss, `winter.py`.)"""

from __future__ import annotations

from . import data
from .context import Ctx


def year_events(ctx: Ctx, past: list[str]) -> list[str]:
    left = [e for e in data.EVENT_IDS if e not in past]
    picks = ctx.stream("year-events").shuffled(left)[: data.CARDS["events_per_year"]]
    return sorted(picks)
