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

FIELDS: dict[str, dict[str, Any]] = {
    "draft": {"card": str, "village": int},
    "samurai": {"bonus": str},
    "plan": {"spaces": dict},
    "special": {"slot": int},
    "favour": {"card": int, "use": bool, "province": (str, type(None))},
    "pass": {},
    "execute": {},
    "decline": {},
    "move": {"to": str, "armies": int},
    "revolt": {"province": str},
}


def parse(cmd: object) -> dict[str, Any]:
    if not isinstance(cmd, dict) or not isinstance(cmd.get("type"), str):
        raise BadCommand("a command is a JSON object with a string 'type'")
    spec = FIELDS.get(cmd["type"])
    if spec is None:
        raise BadCommand(f"unknown command type {cmd['type']!r}")
    extra = set(cmd) - set(spec) - {"type"}
    if extra:
        raise BadCommand(f"unexpected field(s): {', '.join(sorted(extra))}")
    for name, typ in spec.items():
        if name not in cmd:
            raise BadCommand(f"missing field {name!r}")
        value = cmd[name]
        bad_bool = isinstance(value, bool) and typ is int
        if bad_bool or not isinstance(value, typ):
            raise BadCommand(f"field {name!r} has the wrong type")
    if cmd["type"] == "plan":
        for space, card in cmd["spaces"].items():
            if not isinstance(space, str) or not (card is None or isinstance(card, str)):
                raise BadCommand("plan spaces map space names to card names or null")
    return dict(cmd)
