"""Which unit to move where (§3.5 step 1). A one-ply lookahead sees a move's cost
at once but its worth only when it takes a land, so alone it rarely marched
toward the front. Here a move is worth the land it takes, plus how much nearer
it brings the unit to lands worth taking, minus its cost and the lands it
leaves open to the enemy; units that have a battle worth fighting from where
they stand are kept for it (a unit that moved may not fight)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, cast

from games.rules.imjin import battle, data, movement
from games.rules.imjin.state import State

from . import battles, position

PULL = 0.35  # weight of the change of `pull` a move brings, for a full unit (4 troops)
DECAY = 0.5  # a prize k areas away pulls DECAY**k
EXPOSED = 0.3  # share of an area's worth at risk when its last unit leaves it next to enemies
THREAT = 0.5  # need of troops (evaluation points) per enemy troop next to an area


@cache
def distances(area: str) -> dict[str, int]:
    """Steps from `area` to every area (moving through any area)."""
    adj = data.adjacency()
    dist = {area: 0}
    todo = deque([area])
    while todo:
        a = todo.popleft()
        for b in adj[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def side_at(s: Mapping[str, Any], area: str) -> str | None:
    for u in s["units"].values():
        if u["area"] == area:
            side: str = s["side"][u["owner"]]
            return side
    return None


def prizes(s: Mapping[str, Any], side: str) -> dict[str, float]:
    """Areas worth taking for `side`: enemy lands and the instant-win seas (their worth)."""
    enemy = "allies" if side == "japan" else "japan"
    out = {}
    for area, info in data.areas().items():
        if info["type"] == "land" and s["control"].get(area) == enemy:
            out[area] = position.area_worth(s, side, area)
        elif side == "allies" and area in data.rules()["instant_win"]["allies_all_of"]:
            if side_at(s, area) != "allies":
                out[area] = position.area_worth(s, side, area)
    return out


def pull(area: str, prize: Mapping[str, float]) -> float:
    """How strongly the prizes draw a unit standing in `area`."""
    dist = distances(area)
    return sum(w * DECAY ** dist[p] for p, w in prize.items())


def _exposed(s: Mapping[str, Any], uid: str, side: str) -> float:
    """Worth put at risk by leaving: the unit is the last one holding a land next to enemy units."""
    here = s["units"][uid]["area"]
    if not data.is_land(here):
        return 0.0
    others = [u for u, x in s["units"].items() if x["area"] == here and u != uid]
    if others:
        return 0.0
    near = data.adjacency()[here]
    if not any(x["area"] in near and s["side"][x["owner"]] != side for x in s["units"].values()):
        return 0.0
    return EXPOSED * position.area_worth(s, side, here)


def score(
    s: Mapping[str, Any],
    seat: int,
    prompt: Mapping[str, Any],
    cmd: Mapping[str, Any],
    prize: Mapping[str, float],
) -> float:
    side = s["side"][seat]
    unit = s["units"][cmd["unit"]]
    dest = cmd["path"][-1]
    # the engine's helper is typed for its own state and prompt dicts, which these are
    value = -position.STOCK * movement.cost(cast(State, s), cast(dict[str, Any], prompt), unit["troops"])
    if dest in prize and side_at(s, dest) is None:
        value += prize[dest]
    weight = PULL * unit["troops"] / 4
    value += weight * (pull(dest, prize) - pull(unit["area"], prize))
    result: float = value - _exposed(s, cmd["unit"], side)
    return result


def _fighters(s: Any, seat: int, prompt: Mapping[str, Any]) -> set[str]:
    """Units with a battle worth fighting from where they stand (only in the action)."""
    if prompt.get("mode") != "action" or battle.peace(s):
        return set()
    out = set()
    for t, x in s["units"].items():
        if s["side"][x["owner"]] == s["side"][seat]:
            continue
        for m, y in s["units"].items():
            if m in out or y["owner"] != seat or y["area"] not in data.adjacency()[x["area"]]:
                continue
            draft = {"target": t, "main": m, "via": None, "mode": "normal", "supports": []}
            if battles.worth(s, seat, draft) > battles.MARGIN:
                out.add(m)
    return out


def best_move(
    s: Any, seat: int, legal: Sequence[Mapping[str, Any]], prompt: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The move worth most, or None when no move is worth its price (then: done)."""
    prize = prizes(s, s["side"][seat])
    keep = _fighters(s, seat, prompt)
    best: tuple[float, str, dict[str, Any]] | None = None
    for cmd in legal:
        if cmd.get("type") != "move" or cmd["unit"] in keep:
            continue
        value = score(s, seat, prompt, cmd, prize)
        key = f"{cmd['unit']}:{'/'.join(cmd['path'])}"
        if value > 0 and (best is None or (value, key) > best[:2]):
            best = (value, key, dict(cmd))
    return None if best is None else best[2]


def front(s: Mapping[str, Any], side: str, area: str, prize: Mapping[str, float]) -> float:
    """How much troops in `area` are needed: the prizes near it and the enemy units next to it."""
    near = data.adjacency()[area]
    enemies = sum(
        x["troops"] for x in s["units"].values() if x["area"] in near and s["side"][x["owner"]] != side
    )
    result: float = pull(area, prize) + THREAT * enemies
    return result
