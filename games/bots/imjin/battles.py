"""Which battles to declare (§3.5 step 2), priced by their odds rather than by one
roll: a one-ply lookahead sees nothing when an attack is declared (the dice fall
later), so without this the heuristic attacked at random.

A battle is worth its expected change of the evaluation: the land it takes when
the target is the area's last enemy unit and the main unit survives to advance,
the troops each side loses, the supply the carts steal, and what it costs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.imjin import battle, combat

from . import odds, position

CART = 1 / 6  # one die face steals 2 supply
STEAL = 2
SECOND_BATTLE = 0.3  # share of an area's worth for the first of the two battles it takes
MARGIN = 0.3
URGENCY = 3.0  # lands count this much more when the end is near and the count is lost  # a battle must be worth at least this (in evaluation points) to be fought


def _units(s: Mapping[str, Any]) -> Mapping[str, Any]:
    units: Mapping[str, Any] = s["units"]
    return units


def score(s: Any, seat: int, draft: Mapping[str, Any], free_dice: int = 0) -> float:
    """Expected gain of a drafted battle for the seat's side (evaluation points);
    `free_dice` adds dice that cost nothing (a bound on what supports can add)."""
    units = _units(s)
    main, target = units[draft["main"]], units[draft["target"]]
    a, d = combat.pools(s, {**draft, "mode": draft.get("mode", "normal")})
    a += free_dice
    p_kill = odds.at_least(a, target["troops"])
    p_die = odds.at_least(d, main["troops"])
    value = position.TROOP * (
        odds.expected_losses(a, target["troops"]) - odds.expected_losses(d, main["troops"])
    )
    value += position.STOCK * STEAL * CART * (a - d)
    value -= position.STOCK * battle.draft_cost(s, {**draft, "supports": list(draft.get("supports", []))})
    area = target["area"]
    side = s["side"][seat]
    worth = position.area_worth(s, side, area) * (URGENCY if position.urgent(s, side) else 1.0)
    value += p_kill * (1 - p_die) * worth * _capture_share(s, side, draft["target"])
    if main["general"] is not None:
        value -= p_die * position.GENERAL
    if target["general"] is not None:
        value += p_kill * position.GENERAL
    return value


def _capture_share(s: Any, side: str, target: str) -> float:
    """How much of the area's worth killing `target` brings: all of it when no other
    enemy unit stays there (or the others are already under attack this action),
    a part when one more battle must follow (stacked areas are won in two)."""
    units = _units(s)
    area = units[target]["area"]
    attacked = {b["target"] for b in s["act"].get("battles", []) if not b["done"]}
    others = [
        u for u, x in units.items() if x["area"] == area and s["side"][x["owner"]] != side and u != target
    ]
    if all(u in attacked for u in others):
        return 1.0
    return SECOND_BATTLE


def with_supports(s: Any, seat: int, draft: dict[str, Any]) -> dict[str, Any]:
    """The draft with the supports that raise its worth (cheapest first, at most 2)."""
    best, best_score = draft, score(s, seat, draft)
    for _ in range(2):
        opts = battle.support_options(s, seat, best)
        if not opts:
            break
        cheapest = min(opts, key=lambda c: (_units(s)[c["unit"]]["troops"], c["unit"]))
        trial = {**best, "supports": best["supports"] + [cheapest["unit"]]}
        trial_score = score(s, seat, trial)
        if trial_score <= best_score:
            break
        best, best_score = trial, trial_score
    return best


def worth(s: Any, seat: int, draft: dict[str, Any], floor: float = MARGIN) -> float:
    """The battle's worth with its best supports; when even two free support dice
    could not lift it above `floor`, that bound (saves pricing the supports)."""
    bound = score(s, seat, draft, free_dice=2)
    if bound <= floor:
        return bound
    return score(s, seat, with_supports(s, seat, draft))


def best_attack(s: Any, seat: int, legal: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The attack command worth most (with its supports counted), or None when no
    battle is worth its price."""
    best: tuple[float, str, dict[str, Any]] | None = None
    for cmd in legal:
        if cmd.get("type") != "attack" or cmd.get("mode") != "normal":
            continue
        draft = {**_draft_of(cmd), "supports": []}
        value = worth(s, seat, draft, MARGIN if best is None else max(MARGIN, best[0]))
        key = (value, f"{cmd['target']}:{cmd['main']}:{cmd.get('via')}")
        if value > MARGIN and (best is None or key > best[:2]):
            best = (value, key[1], dict(cmd))
    return None if best is None else best[2]


def _draft_of(cmd: Mapping[str, Any]) -> dict[str, Any]:
    return {"target": cmd["target"], "main": cmd["main"], "via": cmd.get("via"), "mode": cmd["mode"]}


def next_support(s: Any, seat: int, draft: Mapping[str, Any]) -> dict[str, Any] | None:
    """At a draft: the support to add next, or None to confirm it as it is."""
    planned = with_supports(s, seat, {**draft, "supports": list(draft["supports"])})
    extra = [u for u in planned["supports"] if u not in draft["supports"]]
    return {"type": "support", "unit": extra[0]} if extra else None
