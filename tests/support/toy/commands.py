"""The toy's commands, declared as kit shapes (values are checked by auction.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.kit import Command, Shape, parse_command

SHAPES = {
    "bid": Shape({"amount": int}),
    "keep": Shape({}),
    "give": Shape({"to": int}),
}


def parse(command: Mapping[str, Any]) -> Command:
    """The command with exactly its declared fields, or `BadCommand`."""
    return parse_command(command, SHAPES)
