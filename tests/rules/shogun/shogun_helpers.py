"""Helpers for the Shogun engine tests: deterministic rngs, a state builder, runners."""

from __future__ import annotations

import json

from games.rules.base import Event, fold, rng_factory
from games.rules.shogun import data
from games.rules.shogun.context import Ctx
from games.rules.shogun.flow import advance
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import clone, enter
from games.rules.shogun.tower import model_for


class FixedRng:
    """A scripted stand-in for `base.Rng`: every cube falls straight through the tower
    (mode "fall") or sticks at level 1 (mode "stick"); nothing is knocked loose; shuffles
    keep the order; choices take the first item. Tower draws are told apart by their
    bounds (the current model's catch and dislodge denominators, all above 45, the
    largest other bound)."""

    def __init__(self, mode: str = "fall"):
        self.mode = mode

    def randbelow(self, n: int) -> int:
        level = next((lv for lv in model_for(data.RULES_VERSION).levels if n == _catch_draw(lv)), None)
        if level is not None:  # a catch draw: the highest value falls (catch < 1)
            return n - 1 if self.mode == "fall" else 0
        if n in {lv.dislodge[1] for lv in model_for(data.RULES_VERSION).levels}:
            return n - 1  # never knocked loose
        return 0

    def shuffled(self, items):
        return list(items)

    def choice(self, seq):
        return seq[0]

    def salt(self) -> str:
        return "5a" * 16

    def random(self) -> float:
        return 0.0


def _catch_draw(level) -> int:
    """The `randbelow` bound of a level's catch draw (tower.Level.sticks)."""
    return level.catch[1] * level.capacity**level.shape


def fixed(mode: str = "fall"):
    return lambda purpose: FixedRng(mode)


def roundtrip(events):
    return [Event(e.type, json.loads(json.dumps(dict(e.payload))), e.version, e.visible_to) for e in events]


def new_game(n: int = 4, seed: str = "t", **opts) -> dict:
    """A started game (beginner set-up unless told otherwise), folded from its events."""
    opts = {"setup": "beginner", **opts}
    return fold(RULES, roundtrip(RULES.start([None] * n, opts, rng_factory(seed, 1))))


def run(state: dict, rng=None) -> tuple[dict, list]:
    """Run the automatic steps from `state` (after editing it by hand)."""
    ctx = Ctx(state, rng or fixed())
    advance(ctx)
    return ctx.state, ctx.events


def act(state: dict, seat: int, cmd: dict, rng=None) -> tuple[dict, list]:
    """decide + fold (with the JSON round trip), as the platform does."""
    before = clone(state)
    events = RULES.decide(state, seat, cmd, rng or fixed())
    assert state == before, "decide mutated its input"
    s = state
    for e in roundtrip(events):
        if not e.type.startswith("core."):
            s = RULES.evolve(s, e)
    return s, events


def types(events) -> list[str]:
    return [e.type.split(".", 1)[1] for e in events]


def of_type(events, name: str) -> list[dict]:
    return [dict(e.payload) for e in events if e.type == "shogun." + name]


def clear_board(s: dict) -> dict:
    """Empty every province and the tower (tests then place exactly what they need)."""
    s = clone(s)
    for p in s["provinces"].values():
        p.update(owner=None, armies=0, castle=False, temple=False, theatre=False, markers=0)
    s["tower"] = {"l1": [], "l2": [], "tray": []}
    return s


def setup_action(s: dict, action: str, plans: dict, order=None, event=None, blocker: bool = True) -> dict:
    """Put the game at the start of `action` in the action phase.
    plans = {seat: {space: card}}; unplanned spaces hold nothing. With `blocker`, the last
    seat holds Yamato and plans it on the next action, so the automatic steps stop there
    instead of running the season to its end."""
    s = clone(s)
    n = s["n"]
    r = s["round"]
    r["actions"] = [action] + [a for a in data.ACTION_IDS if a != action][:4]
    if blocker:
        own(s, "Yamato", n - 1, 2)
        s["players"][n - 1]["money"] = max(s["players"][n - 1]["money"], 20)
        plans = {**plans, n - 1: {**plans.get(n - 1, {}), r["actions"][1]: "Yamato"}}
    r["pool"] = sorted(a for a in data.ACTION_IDS if a not in r["actions"])
    r["order"] = list(order if order is not None else range(n))
    s["plans"] = [{sp: {"card": c, "salt": "00"} for sp, c in plans.get(x, {}).items()} for x in range(n)]
    r["planned"] = [True] * n
    r["revealed"] = [{} for _ in range(n)]
    r["lost"] = []
    r["cur"] = {"i": 0, "j": 0, "sub": None}
    enter(s, "actions")
    s["event"] = event
    s["event_cancelled"] = False
    return s


def own(s: dict, prov: str, seat, armies: int, **extra) -> None:
    s["provinces"][prov].update(owner=seat, armies=armies, **extra)
