"""Parsing of JSON commands: shape errors raise BadCommand (HTTP 400)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import BadCommand

from . import data

TYPES = {
    "choose_legendary",
    "pick_general",
    "place_general",
    "advance",
    "split",
    "deploy",
    "replace",
    "recall",
    "deploy_gwak",
    "done",
    "recruit",
    "reorganize",
    "move",
    "swap",
    "attack",
    "support",
    "confirm",
    "cancel",
    "discord",
    "fight",
    "resolve",
    "reroll",
    "second_attack",
    "taunt",
    "advance_into",
    "sacrifice",
    "choose_general",
    "pass",
    "kobayakawa",
    "splash",
}


def kind(cmd: Mapping[str, Any]) -> str:
    if not isinstance(cmd, Mapping) or not isinstance(cmd.get("type"), str):
        raise BadCommand("a command is a JSON object with a string 'type'")
    if cmd["type"] not in TYPES:
        raise BadCommand(f"unknown command type {cmd['type']!r}")
    return str(cmd["type"])


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
