"""Shogun (with Tenno's Court): a seat's view -> scene (armies, castles, temples,
theatres, revolt markers, the region of each province on the chosen board
side, provinces out of play, the tower's cubes, the round, the daimyo's
treasuries). Reads only the view: another seat's face-down plan is not in it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from .geometry import RULES_DIR
from .palette import BLACK, BLUE, GREEN, NAMED, PURPLE, VERMILLION, YELLOW
from .scene import Piece, Row, Scene, turn

COLOURS = {"blue": BLUE, "red": VERMILLION, "yellow": YELLOW, "purple": PURPLE, "black": BLACK}
LETTER = {"blue": "B", "red": "R", "yellow": "Y", "purple": "P", "black": "K"}
# pale tints of the five regions, so the daimyo's chips stand out on them
REGION_TINT = {
    "brown": "#e9dcc8",
    "yellow": "#f6efc4",
    "red": "#f3d6cf",
    "purple": "#e8dcee",
    "green": "#dcecd6",
}
BUILDINGS = (("castle", "C", "castle"), ("temple", "T", "temple"), ("theatre", "Th", "theatre"))
PEASANTS = -1  # green cubes in the tower


@cache
def _provinces() -> dict[str, dict[str, Any]]:
    raw = yaml.safe_load(Path(RULES_DIR / "shogun" / "data" / "map.yaml").read_text(encoding="utf-8"))
    return raw["provinces"]


def names() -> dict[str, str]:
    return {p: p for p in _provinces()}


def _seats(view: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (c.title(), LETTER.get(c, c[:1].upper()), COLOURS.get(c, NAMED.get(c, "#FFFFFF")))
        for c in view["colours"]
    ]


def scene(view: Mapping[str, Any]) -> Scene:
    if view.get("phase") == "init":
        return Scene(seats=[], title="Shogun", notice="setting up")
    seats = _seats(view)
    side = (view.get("opts") or {}).get("board", "sun")
    season = view.get("season_name", view.get("season"))
    sc = Scene(seats=seats, title=f"Shogun — year {view.get('year')}, {season}, {view.get('phase')}")
    if side == "moon":
        sc.notice = "Moon side: experimental (its regions are sourced, its 3-player provinces and adjacency are the sun side's)"
    in_play = set(view.get("in_play") or _provinces())
    for pid, meta in _provinces().items():
        sc.fills[pid] = REGION_TINT.get(meta.get(side, ""), "")
        if pid not in in_play:
            sc.dimmed.add(pid)
    for pid, p in sorted(view["provinces"].items()):
        for piece in _province_pieces(p, seats):
            sc.add(pid, piece)
    battle = view.get("last_battle")
    if battle and battle.get("province") in _provinces():
        sc.add(battle["province"], Piece("battle", None, "⚔", f"last battle: {battle.get('result', '')}"))
    sc.panel = _panel(view, seats)
    return sc


def _province_pieces(p: Mapping[str, Any], seats) -> list[Piece]:
    """The army, buildings and revolt markers one province shows."""
    owner = p.get("owner")
    pieces = []
    if owner is not None:
        title = f"{seats[owner][0]}: {p['armies']} armies"
        pieces.append(Piece("army", owner, f"{seats[owner][1]}{p['armies']}", title, p["armies"]))
    for key, text, what in BUILDINGS:
        if p.get(key):
            pieces.append(Piece(key, owner, text, what, colour="#FFFFFF"))
    if p.get("markers"):
        markers = p["markers"]
        pieces.append(
            Piece("marker", None, f"!{markers}", f"{markers} revolt marker(s)", markers, colour=GREEN)
        )
    return pieces


def _panel(view: Mapping[str, Any], seats) -> list[tuple[str, list[Row]]]:
    out: list[tuple[str, list[Row]]] = []
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result["winners"])
        scores = ", ".join(f"{seats[q][0]} {v}" for q, v in enumerate(result.get("scores", [])))
        out.append(("Game over", [Row(f"winner: {winners}; {scores}")]))
    else:
        out.append(
            (
                "To play",
                [
                    Row(f"{seats[p['seat']][0]}: {p['kind']}", turn(seats, p["seat"], p["kind"]))
                    for p in view.get("pending", [])
                ],
            )
        )
    rows = []
    for q, p in enumerate(view["players"]):
        bits = [
            f"{p['vp']} VP",
            f"{p['money']} chests",
            f"{p['rice']} rice",
            f"{view['supply'][q]} armies in supply",
        ]
        rows.append(
            Row(
                f"{seats[q][0]}: " + ", ".join(bits),
                Piece("score", q, seats[q][1], f"{seats[q][0]} score", attrs=(("vp", str(p["vp"])),)),
            )
        )
    out.append(("Daimyo", rows))
    tower = view.get("tower") or {}
    cubes = []
    for level, label in (("l1", "upper baffle"), ("l2", "lower baffle"), ("tray", "tray")):
        counts = Counter(tower.get(level, []))
        chips = tuple(
            Piece(
                "cube",
                None if c == PEASANTS else c,
                f"{'G' if c == PEASANTS else seats[c][1]}{n}",
                f"{n} {'green (peasant)' if c == PEASANTS else seats[c][0]} cube(s), {label}",
                n,
                (("level", level),),
                colour=GREEN if c == PEASANTS else None,
            )
            for c, n in sorted(counts.items())
        )
        cubes.append(Row(label if chips else f"{label}: empty", chips=chips))
    out.append(("Tower", cubes))
    rnd = view.get("round")
    if rnd:
        order = ", ".join(seats[q][0] for q in rnd.get("order", []))
        out.append(("Round", [Row(f"order: {order}"), Row("actions: " + ", ".join(rnd.get("actions", [])))]))
        for q, plan in sorted(rnd.get("plans", {}).items()):
            chip = Piece(
                "plan",
                int(q),
                seats[int(q)][1],
                f"{seats[int(q)][0]}'s plan",
                attrs=(("cards", str(len(plan))),),
            )
            text = ", ".join(f"{k}: {v}" for k, v in plan.items())
            out.append((f"Plan of {seats[int(q)][0]}", [Row(text, chip)]))
    legend = "chip = daimyo letter + armies; C castle, T temple, Th theatre; !n revolt markers; ⚔ last battle; G green (peasant) cubes; hatched: not in play"
    out.append(("Legend", [Row(legend)]))
    if view.get("event"):
        out.append(
            ("Event", [Row(str(view["event"]) + (" (cancelled)" if view.get("event_cancelled") else ""))])
        )
    return out
