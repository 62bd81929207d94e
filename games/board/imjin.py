"""Imjin War: a seat's view -> scene (units with troops and generals, control
of the land areas, the sides' supply, wheel and income, hand sizes)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from games.rules.i18n import Texts
from games.rules.kit import position

from .geometry import RULES_DIR
from .palette import BLUE, ORANGE, SKY, VERMILLION, letters
from .scene import Layer, Piece, Row, Scene, turn, word

# the engine's end-of-game reasons (victory.py writes them in English into the
# GameEnded event) -> the key naming each; the groups are the key's fields
REASONS = (
    (
        re.compile(r"more (?P<what>.+) after the third Reset \((?P<a>\d+) vs (?P<b>\d+)\)"),
        "board.reason.more",
    ),
    (re.compile(r"complete tie after the third Reset"), "board.reason.tie"),
    (re.compile(r"(?P<side>japan|allies) controls (?P<n>\d+) land territories"), "board.reason.lands"),
    (re.compile(r"Japan controls two of "), "board.reason.two_of"),
    (re.compile(r"the allies occupy both Tsushima channels"), "board.reason.tsushima"),
)
REASON_WORDS = {"lands": "lands", "generals killed": "killed", "income": "income", "supply stock": "stock"}

# side -> colours of its seats (the first seat of a side takes the first), control tint
SIDE_COLOURS = {"japan": (VERMILLION, ORANGE), "allies": (BLUE, SKY)}
CONTROL_TINT = {"japan": "#f7d9c9", "allies": "#d3e4f3"}


@cache
def _areas() -> dict[str, dict[str, Any]]:
    raw = yaml.safe_load(Path(RULES_DIR / "imjin" / "data" / "map.yaml").read_text(encoding="utf-8"))
    return {a["id"]: a for a in raw["map"]["areas"]}


def names() -> dict[str, str]:
    return {k: a["en"] for k, a in _areas().items()}


def _title(ident: str) -> str:
    return ident.replace("_", " ").title()


def _seats(view: Mapping[str, Any], t: Texts) -> list[tuple[str, str, str]]:
    factions, sides = view["faction"], view["side"]
    marks = letters([_title(f) for f in factions])
    out, used = [], {"japan": 0, "allies": 0}
    for q, f in enumerate(factions):
        side = sides[q]
        colour = SIDE_COLOURS[side][min(used[side], 1)]
        used[side] += 1
        out.append((word(t, f"faction.{f}", _title(f)), marks[q], colour))
    return out


def scene(view: Mapping[str, Any], t: Texts) -> Scene:
    if view.get("stage") != "play":
        return Scene(seats=[], title=t("board.name"), notice=t("board.setting_up"))
    seats = _seats(view, t)
    sides = view["side"]
    flow = position.base(view) or {}  # the stage frame: whose turn, which step
    step = flow.get("step", "")
    sc = Scene(
        seats=seats,
        title=t("board.title", turn=flow.get("turn", 0) + 1, step=word(t, f"board.step.{step}", step)),
    )
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
                t("board.controlled", side=t(f"faction.{side}")),
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
        title = t("board.unit", who=seats[q][0], n=u["troops"])
        if gen:
            title = t("board.unit_general", who=seats[q][0], n=u["troops"], general=_general(t, gen))
        sc.add(u["area"], Piece("unit", q, text, title, u["troops"], (("unit", uid), ("general", gen or ""))))
    sc.panel = _panel(view, seats, t)
    return sc


def _reason(t: Texts, reason: str) -> str:
    """Why the game ended, in the viewer's language (a reason no pattern knows: as the engine wrote it)."""
    for pattern, key in REASONS:
        found = pattern.match(reason)
        if found:
            fields = found.groupdict()
            if "what" in fields:
                fields["what"] = word(
                    t, f"board.reason.what.{REASON_WORDS.get(fields['what'])}", fields["what"]
                )
            if "side" in fields:
                fields["side"] = t(f"faction.{fields['side']}")
            return t(key, **fields)
    return reason


def _general(t: Texts, card: str) -> str:
    return word(t, f"general.{card}", _title(card))


def _event(t: Texts, card: str) -> str:
    return word(t, f"event.{card}", _title(card))


def _chip(seats: list[tuple[str, str, str]], q: int) -> Piece:
    return Piece("seat", q, seats[q][1], seats[q][0])


def _turn_section(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> list[tuple[str, list[Row]]]:
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result["winners"])
        reason = _reason(t, result.get("reason", ""))
        return [(t("board.game_over"), [Row(t("board.winner_why", winners=winners, reason=reason))])]
    frames = position.frames(view)
    if len(frames) < 2:  # only the stage frame: no prompt is asked
        return []
    head = frames[-1]
    kind = head["kind"]
    who = head.get("seats", [head.get("seat")]) if kind == "pick_generals" else [head.get("seat")]
    label = word(t, f"prompt.{kind}", kind)
    return [
        (
            t("board.to_play"),
            [Row(f"{seats[q][0]}: {label}", turn(t, seats, q, kind)) for q in who if q is not None],
        )
    ]


def _panel(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> list[tuple[str, list[Row]]]:
    out = _turn_section(view, seats, t)
    result = view.get("result")
    rows = []
    for side in ("japan", "allies"):
        q = view["side"].index(side)
        wheel = view["wheel"][side]
        bits = [
            t("board.income", n=view["income"][side]),
            t("board.lands", n=view["lands"][side]),
            t("board.wheel", n=word(t, f"wheel.{wheel}", wheel)),
        ]
        if result:
            bits.append(t("board.final_score", n=result["scores"].get(str(q), "")))
        name = t(f"faction.{side}")
        rows.append(
            Row(f"{name}: " + ", ".join(bits), Piece("side", q, seats[q][1], name, attrs=(("side", side),)))
        )
    out.append((t("board.sides"), rows))
    seat_rows = []
    for q, supply in enumerate(view.get("supply", [])):
        hand = view["hands"][q]
        known = ", ".join(_general(t, c) for c in hand["cards"])
        hidden = t("board.hidden", n=hand["hidden"]) if hand["hidden"] else ""
        cards = "; ".join(x for x in (known, hidden) if x) or t("board.none")
        seat_rows.append(
            Row(t("board.seat_row", who=seats[q][0], supply=supply, cards=cards), _chip(seats, q))
        )
    out.append((t("board.seats"), seat_rows))
    out.append((t("board.events"), [Row(", ".join(_events(view, t)))]))
    out.append((t("board.legend"), [Row(t("board.legend_text"))]))
    killed = [_general(t, g) for side in ("japan", "allies") for g in view.get("killed", {}).get(side, [])]
    if killed:
        out.append((t("board.killed"), [Row(", ".join(killed))]))
    return out


def _events(view: Mapping[str, Any], t: Texts) -> list[str]:
    events = [t("board.deck", n=view.get("deck", {}).get("size", 0))]
    if view.get("last_card"):
        events.append(t("board.last_card", card=_event(t, view["last_card"])))
    for timed in view.get("timed", []):
        events.append(t("board.timed", card=_event(t, timed["card"]), n=timed["left"]))
    return events


LAYER = Layer("imjin", scene, names)
