"""Imjin War: a seat's view -> scene (units with troops and generals, control
of the land areas, the sides' supply, wheel and income, hand sizes)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from .geometry import RULES_DIR
from .palette import BLUE, ORANGE, SKY, VERMILLION, letters
from .scene import Piece, Row, Scene, turn

# side -> colours of its seats (the first seat of a side takes the first), control tint
SIDE_COLOURS = {"japan": (VERMILLION, ORANGE), "allies": (BLUE, SKY)}
CONTROL_TINT = {"japan": "#f7d9c9", "allies": "#d3e4f3"}
SIDE_NAME = {"japan": "Japan", "allies": "Joseon and Ming"}


@cache
def _areas() -> dict[str, dict[str, Any]]:
    raw = yaml.safe_load(Path(RULES_DIR / "imjin" / "data" / "map.yaml").read_text(encoding="utf-8"))
    return {a["id"]: a for a in raw["map"]["areas"]}


def names() -> dict[str, str]:
    return {k: a["en"] for k, a in _areas().items()}


def _title(ident: str) -> str:
    return ident.replace("_", " ").title()


def _seats(view: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    factions, sides = view["faction"], view["side"]
    marks = letters([_title(f) for f in factions])
    out, used = [], {"japan": 0, "allies": 0}
    for q, f in enumerate(factions):
        side = sides[q]
        colour = SIDE_COLOURS[side][min(used[side], 1)]
        used[side] += 1
        out.append((_title(f), marks[q], colour))
    return out


def scene(view: Mapping[str, Any]) -> Scene:
    if view.get("stage") != "play":
        return Scene(seats=[], title="Imjin War", notice="setting up")
    seats = _seats(view)
    sides = view["side"]
    flow = view.get("flow", {})
    sc = Scene(seats=seats, title=f"Imjin War — turn {flow.get('turn', 0) + 1}, {flow.get('step', '')}")
    side_letter = {"japan": "J", "allies": "A"}
    for area, side in sorted(view["control"].items()):
        if side is None:
            continue
        sc.fills[area] = CONTROL_TINT[side]
        first = sides.index(side)
        sc.add(
            area,
            Piece(
                "control",
                None,
                "⚑" + side_letter[side],
                f"controlled by {SIDE_NAME[side]}",
                attrs=(("side", side),),
                colour=seats[first][2],
            ),
        )
    for uid, u in sorted(view["units"].items(), key=lambda kv: (kv[1]["area"], kv[1]["owner"], kv[0])):
        if u["area"] not in _areas():
            continue
        q = u["owner"]
        gen = u.get("general")
        text = f"{seats[q][1]}{u['troops']}" + ("★" if gen else "")
        title = f"{seats[q][0]}: {u['troops']} troops" + (f", general {_title(gen)}" if gen else "")
        sc.add(u["area"], Piece("unit", q, text, title, u["troops"], (("unit", uid), ("general", gen or ""))))
    sc.panel = _panel(view, seats)
    return sc


def _chip(seats, q: int) -> Piece:
    return Piece("seat", q, seats[q][1], seats[q][0])


def _panel(view: Mapping[str, Any], seats) -> list[tuple[str, list[Row]]]:
    out: list[tuple[str, list[Row]]] = []
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result["winners"])
        out.append(("Game over", [Row(f"winner: {winners} ({result.get('reason', '')})")]))
    else:
        head = (view.get("queue") or [None])[0]
        if head is not None:
            who = (
                head.get("seats", [head.get("seat")])
                if head["kind"] == "pick_generals"
                else [head.get("seat")]
            )
            out.append(
                (
                    "To play",
                    [
                        Row(f"{seats[q][0]}: {head['kind']}", turn(seats, q, head["kind"]))
                        for q in who
                        if q is not None
                    ],
                )
            )
    rows = []
    for side in ("japan", "allies"):
        q = view["side"].index(side)
        bits = [
            f"income {view['income'][side]}",
            f"lands {view['lands'][side]}",
            f"wheel {view['wheel'][side]}",
        ]
        if result:
            bits.append(f"score {result['scores'].get(str(q), '')}")
        rows.append(
            Row(
                f"{SIDE_NAME[side]}: " + ", ".join(bits),
                Piece("side", q, seats[q][1], SIDE_NAME[side], attrs=(("side", side),)),
            )
        )
    out.append(("Sides", rows))
    seat_rows = []
    for q, supply in enumerate(view.get("supply", [])):
        hand = view["hands"][q]
        known = ", ".join(_title(c) for c in hand["cards"])
        hidden = f"{hand['hidden']} hidden" if hand["hidden"] else ""
        cards = "; ".join(x for x in (known, hidden) if x) or "none"
        seat_rows.append(Row(f"{seats[q][0]}: supply {supply}; generals in hand: {cards}", _chip(seats, q)))
    out.append(("Seats", seat_rows))
    deck = view.get("deck", {})
    events = [f"deck {deck.get('size', 0)} cards"]
    if view.get("last_card"):
        events.append(f"last: {_title(view['last_card'])}")
    for t in view.get("timed", []):
        events.append(f"{_title(t['card'])} ({t['left']} turns left)")
    out.append(("Events", [Row(", ".join(events))]))
    legend = (
        "chip = seat letter + troops of one unit, ★ with a general; ⚑J / ⚑A control (Japan / Joseon and Ming)"
    )
    out.append(("Legend", [Row(legend)]))
    killed = [f"{_title(g)}" for side in ("japan", "allies") for g in view.get("killed", {}).get(side, [])]
    if killed:
        out.append(("Generals killed", [Row(", ".join(killed))]))
    return out
