"""Parsing of JSON commands: shape only (BadCommand); rules live elsewhere.
`parse` returns a canonical dict with exactly the known fields, so commands
compare equal to the ones `legal_commands` lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import BadCommand

_INT, _STR, _ANY = "int", "str", "any"

# type -> (required fields, optional fields)
SHAPES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "propose_alliance": ({"to": _INT}, {}),
    "withdraw_alliance": ({"to": _INT}, {}),
    "accept_alliance": ({"from": _INT}, {}),
    "decline_alliance": ({"from": _INT}, {}),
    "tea_done": ({}, {}),
    "gift": ({"to": _INT}, {"coins": _INT, "ronin": _INT}),
    "choose_mandate": ({"tile": _STR}, {"declare": _STR}),
    "summon": ({"kind": _STR, "province": _STR}, {"shrine": _STR}),
    "move": ({"from": _STR, "kind": _STR, "to": _STR}, {}),
    "build": ({"province": _STR}, {}),
    "buy": ({"card": _STR}, {}),
    "place": ({"province": _STR}, {"shrine": _STR}),
    "betray": ({"owner": _INT, "at": _STR, "kind": _STR, "with": _STR}, {}),
    "bid": ({}, {"seppuku": _INT, "hostage": _INT, "ronin": _INT, "poets": _INT}),
    "choose": ({"choice": _ANY}, {}),
    "done": ({}, {}),
}


def _check(name: str, value: Any, kind: str) -> None:
    if kind == _INT and (not isinstance(value, int) or isinstance(value, bool)):
        raise BadCommand(f"field {name!r} must be an integer")
    if kind == _STR and not isinstance(value, str):
        raise BadCommand(f"field {name!r} must be a string")
    if kind == _ANY and not isinstance(value, (str, int)):
        raise BadCommand(f"field {name!r} must be a string or an integer")


def parse(command: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(command, Mapping):
        raise BadCommand("a command is a JSON object")
    t = command.get("type")
    if t not in SHAPES:
        raise BadCommand(f"unknown command type {t!r}")
    required, optional = SHAPES[t]
    out: dict[str, Any] = {"type": t}
    for name, kind in required.items():
        if name not in command:
            raise BadCommand(f"{t} needs field {name!r}")
        _check(name, command[name], kind)
        out[name] = command[name]
    for name, kind in optional.items():
        if name in command and command[name] is not None:
            _check(name, command[name], kind)
            out[name] = command[name]
    extra = set(command) - {"type"} - set(required) - set(optional)
    if extra:
        raise BadCommand(f"unknown field(s) {sorted(extra)} for {t}")
    if t == "bid":
        for a in ("seppuku", "hostage", "ronin", "poets"):
            out.setdefault(a, 0)
    if t == "gift":
        out.setdefault("coins", 0)
        out.setdefault("ronin", 0)
        if out["coins"] < 0 or out["ronin"] < 0:
            raise BadCommand("gift amounts are >= 0")
    return out
