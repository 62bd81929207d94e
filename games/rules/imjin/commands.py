"""Parsing of JSON commands: shape errors raise BadCommand (HTTP 400)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import BadCommand
from games.rules.kit import Shape, parse_command

from . import data

_BOOL = {"go": bool}
SHAPES: dict[str, Shape] = {
    "choose_legendary": Shape(optional={"general": str}, defaults={"general": None}),
    "pick_general": Shape({"general": str}),
    "place_general": Shape({"general": str, "unit": str}),
    "advance": Shape({"steps": int}),
    "split": Shape({"mine": int}),
    "deploy": Shape({"general": str, "unit": str}),
    "replace": Shape({"general": str, "unit": str}),
    "recall": Shape({"unit": str}),
    "deploy_gwak": Shape({"area": str}),
    "done": Shape(),
    "recruit": Shape({"area": str, "count": int}, {"unit": str}, defaults={"unit": None}),
    "reorganize": Shape({"area": str, "troops": list}),
    "move": Shape({"unit": str, "path": list}),
    "swap": Shape({"unit": str, "with": str}),
    "attack": Shape({"target": str, "main": str, "mode": str}, {"via": str}, defaults={"via": None}),
    "support": Shape({"unit": str}),
    "confirm": Shape(),
    "cancel": Shape(),
    "discord": Shape({"attacker": str, "defender": str, "unit": str}),
    "fight": Shape(),
    "resolve": Shape({"battle": int}),
    "reroll": Shape({"dice": list}),
    "second_attack": Shape(_BOOL),
    "taunt": Shape(_BOOL),
    "advance_into": Shape(_BOOL),
    "sacrifice": Shape(_BOOL),
    "choose_general": Shape({"general": str}),
    "pass": Shape(),
    "kobayakawa": Shape({"option": int}),
    "splash": Shape(_BOOL),
}
"""Every command's fields and their JSON kinds; the decisions check the values
(known areas, generals, unit ids) with the readers below."""


def parse(cmd: object) -> dict[str, Any]:
    """The command checked against its shape (`BadCommand` when malformed)."""
    return parse_command(cmd, SHAPES)


def text(cmd: Mapping[str, Any], key: str, optional: bool = False) -> str | None:
    v = cmd.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise BadCommand(f"'{key}' must be a string")
    return v


def integer(cmd: Mapping[str, Any], key: str) -> int:
    v = cmd.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise BadCommand(f"'{key}' must be an integer")
    return v


def boolean(cmd: Mapping[str, Any], key: str) -> bool:
    v = cmd.get(key)
    if not isinstance(v, bool):
        raise BadCommand(f"'{key}' must be true or false")
    return v


def area(cmd: Mapping[str, Any], key: str, optional: bool = False) -> str | None:
    v = text(cmd, key, optional)
    if v is not None and v not in data.areas():
        raise BadCommand(f"unknown area {v!r}")
    return v


def general(cmd: Mapping[str, Any], key: str = "general", optional: bool = False) -> str | None:
    v = text(cmd, key, optional)
    if v is not None and v not in data.generals():
        raise BadCommand(f"unknown general {v!r}")
    return v


def unit(cmd: Mapping[str, Any], key: str = "unit", optional: bool = False) -> str | None:
    v = text(cmd, key, optional)
    if v is not None and (not v.startswith("u") or not v[1:].isdigit()):
        raise BadCommand(f"'{key}' must be a unit id like 'u7'")
    return v


def int_list(cmd: Mapping[str, Any], key: str) -> list[int]:
    v = cmd.get(key)
    if not isinstance(v, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        raise BadCommand(f"'{key}' must be a list of integers")
    return list(v)


def area_list(cmd: Mapping[str, Any], key: str) -> list[str]:
    v = cmd.get(key)
    if not isinstance(v, list) or not v or not all(isinstance(a, str) and a in data.areas() for a in v):
        raise BadCommand(f"'{key}' must be a non-empty list of area ids")
    return list(v)
