"""The secret plan, built by rules rather than by lookahead: a plan's worth shows
only when its actions resolve, so a one-ply lookahead over random plans picks
close to at random.

Every province card goes where it does the most (a value per action and
province, in winter VP, assigned greedily); a planned action can still be
declined when it is revealed (tactics.py), so a card on a space is an option,
not a promise. Tower cards go on the court spaces (they convert the seat's own
cubes lying in the tray, at no cost), the bid is the 0 chest (a turn position
is worth less than the chests every bidder pays), and the chest cards left are
blanks on the spaces no province is worth."""

from __future__ import annotations

import random
from typing import Any

from games.rules.shogun import data

from . import board, court, odds
from .board import MONEY, View

ARMY = 0.3  # VP per army where it can fight (a border province)
IDLE_ARMY = 0.08  # VP per army recruited where no rival or neutral is next to it
MARKED = 1.5  # a collection where a revolt marker lies starts a revolt
BID = "chest0"


def _collect(view: View, seat: int, prov: str, action: str) -> float:
    p = view["provinces"][prov]
    if action == "taxes":
        value = board.tax_yield(view, seat, prov, "tax") * MONEY
    else:
        need = max(0.0, board.rice_need(view, seat))
        got = board.tax_yield(view, seat, prov, "rice")
        value = 0.5 * min(got, need) + 0.02 * got
    return value - 0.2 - (MARKED if p["markers"] else 0.0)


def _build(view: View, seat: int, prov: str, kind: str) -> float:
    if not board.can_build(view, seat, prov, kind):
        return 0.0
    worth = board.winters_left(view) * (1 + board.majority_gain(view, seat, prov, kind))
    if board.threat(view, seat, prov) >= view["provinces"][prov]["armies"]:
        worth *= 0.6  # it may change hands before the winter
    result: float = worth - data.ACTIONS[kind]["cost"] * MONEY
    return result


def _recruit(view: View, seat: int, prov: str, action: str) -> float:
    n = data.ACTIONS[action]["armies"]
    border = bool(board.hostile(view, seat, prov))
    value: float = n * (ARMY if border else IDLE_ARMY) - data.ACTIONS[action]["cost"] * MONEY
    if border and board.threat(view, seat, prov) >= view["provinces"][prov]["armies"]:
        value += 0.5  # a weak border province invites attacks
    if action == "recruit1" and not border:
        value += 0.05 * view["provinces"][prov]["armies"]  # its armies can move to the border
    return value


def attack_gain(view: View, seat: int, target: str) -> float:
    """What taking `target` is worth: its winter VP, more when a rival loses them."""
    owner = view["provinces"][target]["owner"]
    worth = board.province_worth(view, target)
    return worth * 1.5 + 0.5 if owner is not None else worth + 0.3


def attack_cost(view: View, target: str, moving: int) -> float:
    """Armies an attack loses: about the defence's cubes out (peasants' too), and the
    share of its own that stick in the tower for a while."""
    result: float = ARMY * (view["provinces"][target]["armies"] + 1) + 0.03 * moving
    return result


def best_attack(view: View, seat: int, prov: str) -> tuple[float, str | None]:
    """The best target from `prov` with all its armies but one: (value, target)."""
    moving = view["provinces"][prov]["armies"] - 1
    if moving < 1:
        return 0.0, None
    best: tuple[float, str | None] = (0.0, None)
    for t in board.hostile(view, seat, prov):
        chance = odds.win_chance(view, seat, t, moving)
        value = chance * attack_gain(view, seat, t) - attack_cost(view, t, moving)
        if value > best[0]:
            best = (value, t)
    return best


def values(view: View, seat: int) -> list[tuple[float, str, str]]:
    """(value, action, province) for every action space and province of the seat."""
    out = []
    for prov in board.owned(view, seat):
        attack = best_attack(view, seat, prov)[0]
        for action in data.ACTION_IDS:
            a = data.ACTIONS[action]
            if "build" in a:
                v = _build(view, seat, prov, a["build"])
            elif "collect" in a:
                v = _collect(view, seat, prov, action)
            elif "armies" in a:
                v = _recruit(view, seat, prov, action)
            else:
                v = attack
            out.append((v, action, prov))
    return out


def assign(scored: list[tuple[float, str, str]], provs: list[str], rng: random.Random) -> dict[str, str]:
    """Action space -> province: greedily by value (ties broken at random), then
    improved by swaps (a castle site that is also the only attack base goes to
    the attack when another site is as good)."""
    table: dict[str, dict[str, float]] = {a: {} for a in data.ACTION_IDS}
    for value, action, prov in scored:
        table[action][prov] = value
    plan: dict[str, str] = {}
    for value, action, prov in sorted(scored, key=lambda x: (-x[0], rng.random())):
        if value > 0 and action not in plan and prov not in plan.values():
            plan[action] = prov
    _improve(plan, table, provs)
    return plan


def _improve(plan: dict[str, str], table: dict[str, dict[str, float]], provs: list[str]) -> None:
    """While it pays: space `b` takes the province of space `a`, and `a` takes
    `b`'s old province or a free one (a swap, or a chain through a free card)."""

    def worth(action: str, prov: str | None) -> float:
        return max(0.0, table[action].get(prov, 0.0)) if prov else 0.0

    for _ in range(4):
        better = False
        for a, b in [(a, b) for a in data.ACTION_IDS for b in data.ACTION_IDS]:
            pa, pb = plan.get(a), plan.get(b)
            free = [p for p in provs if p not in plan.values()]
            moves: list[tuple[str | None, float]]
            if a == b:
                moves = [(q, worth(a, q) - worth(a, pa)) for q in free]
            else:
                now = worth(a, pa) + worth(b, pb)
                moves = [(q, worth(a, q) + worth(b, pa) - now) for q in [pb, *free]]
            q, gain = max(moves, key=lambda m: m[1], default=(None, 0.0))
            if gain > 1e-9:
                if a != b:
                    _put(plan, b, pa)
                _put(plan, a, q)
                better = True
        if not better:
            return


def _put(plan: dict[str, str], action: str, prov: str | None) -> None:
    if prov is None:
        plan.pop(action, None)
    else:
        plan[action] = prov


def build_plan(view: View, seat: int, rng: random.Random) -> dict[str, Any]:
    """The whole plan command: every space named, every card at most once."""
    spaces = list(data.ACTION_IDS) + ["bid"]
    scored = values(view, seat)
    chosen = assign(scored, board.owned(view, seat), rng)
    plan: dict[str, str | None] = {"bid": BID}
    if view["opts"]["tennos_court"]:
        spaces += data.COURT_SPACES
        table = {(a, p): v for v, a, p in scored}
        worth = {a: table[(a, p)] for a, p in chosen.items()}
        plan.update(court.court_cards(view, seat, chosen, worth))
    plan.update(chosen)
    used = set(plan.values())
    hand = board.owned(view, seat) + data.chest_cards()
    hand += data.tower_cards() if view["opts"]["tennos_court"] else []
    spare = [c for c in hand if c not in used]
    for action in data.ACTION_IDS:
        if action not in plan:
            plan[action] = spare.pop(0) if spare else None
    return {"type": "plan", "spaces": {k: plan[k] for k in spaces}}
