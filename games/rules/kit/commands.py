"""One way to turn a JSON command into a checked command: its declared `Shape`.

Shape errors raise `BadCommand` (HTTP 400); whether a well-formed command is
allowed now is for the decision that handles it (`IllegalCommand`, HTTP 422).
A field's kind is a Python type or a tuple of types (`int` never accepts a
bool, since JSON `true` is not a number)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import BadCommand

Kind = type | tuple[type, ...]


@dataclass(frozen=True)
class Shape:
    """The fields of one command type.

    `required` and `optional` map field names to kinds; `defaults` fills
    optional fields that are absent (or null); `check` runs last on the parsed
    command for constraints a kind cannot say (and raises `BadCommand`);
    `open` lets unknown fields through untouched (for rulesets whose decisions
    read their own fields)."""

    required: Mapping[str, Kind] = field(default_factory=dict)
    optional: Mapping[str, Kind] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[[dict[str, Any]], None] | None = None
    open: bool = False


def _is(value: Any, kind: Kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


def _kind_name(kind: Kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        dict: "an object",
        list: "a list",
        type(None): "null",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def parse_command(command: object, shapes: Mapping[str, Shape]) -> dict[str, Any]:
    """The command as a plain dict with exactly its declared fields (defaults
    filled), so it compares equal to the ones `legal_commands` lists.

    Raises `BadCommand` for anything but a JSON object whose `type` is one of
    `shapes` and whose fields have the declared kinds."""
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise BadCommand("a command is a JSON object with a string 'type'")
    name = command["type"]
    shape = shapes.get(name)
    if shape is None:
        raise BadCommand(f"unknown command type {name!r}")
    declared = {"type", *shape.required, *shape.optional}
    extra = set(command) - declared
    if extra and not shape.open:
        raise BadCommand(f"unknown field(s) {sorted(extra)} for {name}")
    out: dict[str, Any] = {"type": name, **_fields(name, command, shape)}
    if shape.open:
        out.update({key: command[key] for key in extra})
    if shape.check is not None:
        shape.check(out)
    return out


def _fields(name: str, command: Mapping[str, Any], shape: Shape) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, kind in shape.required.items():
        if key not in command:
            raise BadCommand(f"{name} needs field {key!r}")
        out[key] = _checked(key, command[key], kind)
    for key, kind in shape.optional.items():
        if command.get(key) is not None:
            out[key] = _checked(key, command[key], kind)
        elif key in shape.defaults:
            out[key] = shape.defaults[key]
    return out


def _checked(key: str, value: Any, kind: Kind) -> Any:
    if not _is(value, kind):
        raise BadCommand(f"field {key!r} must be {_kind_name(kind)}")
    return value
