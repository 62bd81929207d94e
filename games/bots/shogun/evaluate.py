"""How good a Shogun position is for a seat: VP so far plus the Winter score it
would take now (provinces, buildings, regional majorities), plus what keeps
them: armies (on the map and in the tower, which come back in battles), money
for buildings and bids, rice for the winter (each province short of rice
revolts: famine), and no revolt markers piling up. Relative to the best rival."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import LegalSet
from games.rules.shogun import state as shogun_state
from games.rules.shogun.scoring import score

from . import opening, plan, tactics

MONEY = 0.3
ARMY = 0.45
TOWER = 0.2
FAMINE = 1.5  # per province the rice cannot feed in winter
MARKER = 0.6  # per revolt marker on an own province


def _worth(s: Any, q: int, winter: list[dict[str, Any]]) -> float:
    p = s["players"][q]
    owned = shogun_state.owned(s, q)
    v: float = p["vp"] + winter[q]["total"] + MONEY * p["money"] + 0.25 * p["rice"]
    v += ARMY * sum(s["provinces"][n]["armies"] for n in owned) + TOWER * shogun_state.in_tower(s, q)
    v -= FAMINE * max(0, len(owned) - p["rice"])
    v -= MARKER * sum(s["provinces"][n]["markers"] for n in owned)
    return v


def evaluate(s: Any, seat: int) -> float:
    if s.get("result") is not None:
        return 1000.0 if seat in s["result"]["winners"] else -1000.0
    if shogun_state.phase_of(s) == "init":
        return 0.0
    winter = score(s)
    worth = [_worth(s, q, winter) for q in range(s["n"])]
    return worth[seat] - max(w for q, w in enumerate(worth) if q != seat)


def decide(view: Any, seat: int, legal: LegalSet, rng: random.Random, worlds: Any) -> dict[str, Any] | None:
    """Rule-based choices where the lookahead prices badly (plan, special card,
    executing and attacking: tactics.py, plan.py); None leaves the rest (draft,
    favours, famine order) to the lookahead. A choice the legal set does not list
    (e.g. a decline under forced execution) is dropped for the lookahead too."""
    phase = view.get("phase")
    if phase == "plan" and legal.templates:
        return plan.build_plan(view, seat, rng)
    listed = [dict(c) for c in legal.commands]
    if not listed:
        return None
    if phase == "draft":
        return opening.draft(view, seat, listed)
    if phase == "special":
        return tactics.special(view, seat, listed)
    if phase != "actions":
        return None
    sub = view["round"]["cur"]["sub"]
    cmd = (
        tactics.execute_or_decline(view, seat)
        if sub in ("execute", "recruit")
        else tactics.move(view, seat, listed)
    )
    return cmd if cmd in listed else None
