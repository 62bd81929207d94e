"""Imjin determinizations. Secret for a seat (the engine's view.py): other seats'
sealed hand cards, their setup picks, and salts. Their sealed cards are redrawn
from the generals their army could hold that nobody has seen elsewhere."""

from __future__ import annotations

import pickle
import random
from typing import Any

from games.rules.imjin import data

from ..worlds import BLANK_SALT, reshuffled


def _army_pool(s: Any, seat: int) -> list[str]:
    """Generals a seat's army may hold (rulebook: nations in 2p, armies in 4p)."""
    f = s["faction"][seat]
    gens = data.generals()
    if s["n"] == 2:
        nations = {"japan"} if f == "japan" else {"ming", "joseon"}
        return sorted(g for g, d in gens.items() if d["nation"] in nations)
    return sorted(g for g, d in gens.items() if d["nation"] != "legend" and d["army_4p"] == f)


def sample(state: Any, seat: int, rng: random.Random) -> Any:
    s = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    if s.get("stage") != "play" or s.get("result") is not None:
        return s
    public = set(s["generals"]) | {g for g in s["legendary"].values() if g}
    for x in range(s["n"]):
        if x == seat:
            continue
        public |= {g for g in s["hands"][x] if g not in s["secrets"][x]}
    public |= set(s["hands"][seat]) | set(s["picks"][seat])
    seen = set(public)  # what the seat knows before anything is redrawn
    for x in range(s["n"]):
        if x == seat:
            continue
        sealed = sorted(g for g in s["hands"][x] if g in s["secrets"][x])
        known = [g for g in s["hands"][x] if g not in s["secrets"][x]]
        pool = reshuffled((g for g in _army_pool(s, x) if g not in public), rng)
        fresh = pool[: len(sealed)]
        public |= set(fresh)
        s["hands"][x] = known + fresh
        s["secrets"][x] = {g: {"key": f"hand:{x}:{i}", "salt": BLANK_SALT} for i, g in enumerate(fresh)}
        # picks: the ones seen since (deployed, dead, shown) stay; the others are redrawn
        kept = sorted(g for g in s["picks"][x] if g in seen)
        rest = [g for g in fresh + pool[len(sealed) :] if g not in kept]
        s["picks"][x] = kept + rest[: len(s["picks"][x]) - len(kept)]
    return s
