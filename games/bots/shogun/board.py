"""What the rule-based Shogun decisions read off a seat's view: its provinces,
their neighbours, how much rice the winter will ask for, and what a building
or a province is worth in winter VP. Public information only (the view)."""

from __future__ import annotations

from typing import Any

from games.rules.shogun import data

View = dict[str, Any]

MONEY = 0.3  # VP per war chest: the evaluation's rate (evaluate.py)


def owned(view: View, seat: int) -> list[str]:
    return sorted(n for n, p in view["provinces"].items() if p["owner"] == seat)


def neighbours(view: View, prov: str) -> list[str]:
    """Adjacent provinces in play (3 players leave 8 out)."""
    return [t for t in data.ADJ[prov] if t in view["provinces"]]


def hostile(view: View, seat: int, prov: str) -> list[str]:
    """Neighbours of `prov` not owned by the seat (neutral or a rival's)."""
    return [t for t in neighbours(view, prov) if view["provinces"][t]["owner"] != seat]


def threat(view: View, seat: int, prov: str) -> int:
    """The most armies a rival has next to `prov` (what could attack it)."""
    provs = view["provinces"]
    return max(
        (provs[t]["armies"] for t in hostile(view, seat, prov) if provs[t]["owner"] is not None), default=0
    )


def winters_left(view: View) -> int:
    """Winter scorings still to come: a province or building held now scores in each."""
    return 3 - int(view.get("year", 1))


def rice_loss(view: View) -> float:
    """Expected winter rice loss: the mean over the year's event cards not drawn yet
    (one of them is the fourth card, whose lower half the winter takes)."""
    used = view.get("used_events") or []
    left = [e for e in view.get("year_events") or [] if e not in used]
    if not left:
        return 0.0
    result: float = sum(data.EVENTS[e]["rice_loss"] for e in left) / len(left)
    return result


def rice_need(view: View, seat: int) -> float:
    """Rice still missing to feed every province this winter (famine revolts)."""
    result: float = len(owned(view, seat)) + rice_loss(view) + 1 - view["players"][seat]["rice"]
    return result


def tax_yield(view: View, seat: int, prov: str, what: str) -> int:
    """A collection's yield as the engine computes it (event limits, then the special)."""
    key = "tax" if what == "tax" else "rice"
    n = int(data.PROVINCES[prov][key])
    ev = data.EVENTS.get(view.get("event") or "", {}) if not view.get("event_cancelled") else {}
    if ev.get("effect") == f"{key}_max":
        n = min(n, ev["value"])
    if ev.get("effect") == f"{key}_min":
        n = max(n, ev["value"])
    special = view["players"][seat].get("special")
    return n + int(data.SPECIALS[special].get(f"{key}_bonus", 0) if special else 0)


def can_build(view: View, seat: int, prov: str, kind: str) -> bool:
    p = view["provinces"][prov]
    if p["owner"] != seat or p[kind] or view["tiles"][kind] <= 0:
        return False
    result: bool = sum(p[b] for b in data.BUILDINGS) < int(data.PROVINCES[prov]["sites"])
    return result


def _majority(counts: list[int], seat: int, kind: str) -> int:
    sole, tied = data.TABLES["scoring"]["majority"][kind]
    best = max(counts)
    if best < 1 or counts[seat] < best:
        return 0
    result: int = sole if counts.count(best) == 1 else tied
    return result


def majority_gain(view: View, seat: int, prov: str, kind: str) -> float:
    """Winter VP one more `kind` in `prov`'s region adds for the seat (its majority),
    plus half of what it takes from a rival who held the sole majority."""
    region = data.regions(view["opts"]["board"])
    counts = [0] * view["n"]
    for name, p in view["provinces"].items():
        if region[name] == region[prov] and p["owner"] is not None and p[kind]:
            counts[p["owner"]] += 1
    before = [_majority(counts, q, kind) for q in range(view["n"])]
    counts[seat] += 1
    after = [_majority(counts, q, kind) for q in range(view["n"])]
    rivals = sum(b - a for q, (b, a) in enumerate(zip(before, after, strict=True)) if q != seat)
    return after[seat] - before[seat] + 0.5 * rivals


def province_worth(view: View, prov: str) -> float:
    """Winter VP of holding `prov` (itself and its buildings) over the winters left."""
    p = view["provinces"][prov]
    result: float = winters_left(view) * (1 + sum(p[b] for b in data.BUILDINGS))
    return result
