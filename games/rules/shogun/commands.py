"""Parsing of JSON commands: shape and types only (`BadCommand`, HTTP 400). Whether a
well-formed command is allowed now is decided by the phase modules (`IllegalCommand`).

    {"type": "draft", "card": <province> | "blind", "village": <armies>}
    {"type": "samurai", "bonus": "chests" | "rice" | "tray" | "vp"}
    {"type": "plan", "spaces": {<space>: <card> | null, ...}}
    {"type": "special", "slot": 1..5}
    {"type": "favour", "card": 1..21, "use": bool, "province": <province> | null}
    {"type": "pass"}                       (court: take no favour)
    {"type": "execute"} | {"type": "decline"}
    {"type": "move", "to": <province>, "armies": k}
    {"type": "revolt", "province": <province>}   (winter: which famine revolt comes next)
"""

from __future__ import annotations

from typing import Any

from games.rules.base import BadCommand
from games.rules.kit import Shape, parse_command


def _plan_spaces(cmd: dict[str, Any]) -> None:
    for space, card in cmd["spaces"].items():
        if not isinstance(space, str) or not (card is None or isinstance(card, str)):
            raise BadCommand("plan spaces map space names to card names or null")


SHAPES: dict[str, Shape] = {
    "draft": Shape({"card": str, "village": int}),
    "samurai": Shape({"bonus": str}),
    "plan": Shape({"spaces": dict}, check=_plan_spaces),
    "special": Shape({"slot": int}),
    "favour": Shape({"card": int, "use": bool, "province": (str, type(None))}),
    "pass": Shape(),
    "execute": Shape(),
    "decline": Shape(),
    "move": Shape({"to": str, "armies": int}),
    "revolt": Shape({"province": str}),
}


def parse(cmd: object) -> dict[str, Any]:
    """The command checked against its shape (`BadCommand` when malformed)."""
    return parse_command(cmd, SHAPES)
