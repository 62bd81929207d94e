"""Shogun determinizations. Secret for a seat (the engine's view.py): the cards
other seats laid face down on their planning boards, the order of face-down
action cards, of the draft deck and of the favour pool, salts, and which cubes
sit on which level inside the tower (only the count per colour is seen).

While plans are being laid, a rival's hidden plan is redrawn as the plan the
rules would lay from its own view of the world (plan.py: public information and
the sampler's random source only), not as a random deal of its cards: the
search of the seat's own plan then answers plans like the ones it will meet,
rather than plans no player lays."""

from __future__ import annotations

import pickle
import random
from typing import Any

from games.rules.shogun import state as shogun_state
from games.rules.shogun.data import RULES_VERSION
from games.rules.shogun.tower import model_for
from games.rules.shogun.view import view

from ..worlds import BLANK_SALT, reshuffled
from . import plan as rule_plan


def sample(state: Any, seat: int, rng: random.Random) -> Any:
    s = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    if shogun_state.phase_of(s) in ("init", "over") or s.get("result") is not None:
        return s
    s["favour_pool"] = reshuffled(s["favour_pool"], rng)
    d = shogun_state.frame_of(s, "draft")
    if d:
        cards = reshuffled(d["pool"] + d["bottom"], rng)
        d["pool"], d["bottom"] = cards[: len(d["pool"])], cards[len(d["pool"]) :]
    r = s.get("round")
    if r:
        r["pool"] = reshuffled(r["pool"], rng)
    if s.get("plans"):
        for x, plan in enumerate(s["plans"]):
            if x == seat or not plan:
                continue
            shown = r["revealed"][x] if r else {}
            hidden = sorted(k for k in plan if k not in shown)
            used = {plan[k]["card"] for k in plan if k in shown}
            cards = [c for c in reshuffled(shogun_state.hand(s, x), rng) if c not in used]
            for k in hidden:
                plan[k] = {"card": cards.pop() if cards else None, "salt": BLANK_SALT}
            for k in plan:
                plan[k]["salt"] = BLANK_SALT
    _redraw_tower(s, rng)
    if shogun_state.phase_of(s) == "plan":
        _ruled_plans(s, seat, rng)
    return s


def _redraw_tower(s: Any, rng: random.Random) -> None:
    """Nobody sees inside the tower: the cubes stuck there (a multiset every seat can
    count) are dealt to the two levels in proportion to their capacities, in an order
    drawn from the bot's source; the commitments of earlier contents are blanked."""
    t = s.get("tower")
    if not t:
        return
    stuck = reshuffled(t["l1"] + t["l2"], rng)
    upper = round(len(stuck) * _UPPER_SHARE)
    t["l1"], t["l2"] = stuck[:upper], stuck[upper:]
    if "tower_commits" in s:
        s["tower_commits"] = [
            {"key": c["key"], "choice": {"l1": [], "l2": []}, "salt": BLANK_SALT} for c in s["tower_commits"]
        ]


_LEVELS = model_for(RULES_VERSION).levels
_UPPER_SHARE = (_LEVELS[0].capacity or 1) / ((_LEVELS[0].capacity or 1) + (_LEVELS[1].capacity or 1))


def _ruled_plans(s: Any, seat: int, rng: random.Random) -> None:
    """Rivals who have planned get the rules' plan from their view of this world."""
    for x, plan in enumerate(s["plans"]):
        if x == seat or not plan:
            continue
        spaces = rule_plan.build_plan(view(s, x), x, rng)["spaces"]
        if set(spaces) == set(plan):
            for k, card in spaces.items():
                plan[k] = {"card": card, "salt": BLANK_SALT}
