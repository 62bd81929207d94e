"""Shogun determinizations. Secret for a seat (the engine's view.py): the cards
other seats laid face down on their planning boards, the order of face-down
action cards, of the draft deck and of the favour pool, and salts.

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
from games.rules.shogun.view import view

from ..worlds import BLANK_SALT, reshuffled
from . import plan as rule_plan


def sample(state: Any, seat: int, rng: random.Random) -> Any:
    s = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    if s.get("phase") in ("init", "over") or s.get("result") is not None:
        return s
    s["favour_pool"] = reshuffled(s["favour_pool"], rng)
    d = s.get("draft")
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
    if s.get("phase") == "plan":
        _ruled_plans(s, seat, rng)
    return s


def _ruled_plans(s: Any, seat: int, rng: random.Random) -> None:
    """Rivals who have planned get the rules' plan from their view of this world."""
    for x, plan in enumerate(s["plans"]):
        if x == seat or not plan:
            continue
        spaces = rule_plan.build_plan(view(s, x), x, rng)["spaces"]
        if set(spaces) == set(plan):
            for k, card in spaces.items():
                plan[k] = {"card": card, "salt": BLANK_SALT}
