"""Parsing of JSON commands: shape only (BadCommand); rules live elsewhere.
`parse` returns a canonical dict with exactly the known fields, so commands
compare equal to the ones `legal_commands` lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import BadCommand
from ..kit import Shape, parse_command

_BID = ("seppuku", "hostage", "ronin", "poets")


def _gift_amounts(cmd: dict[str, Any]) -> None:
    if cmd["coins"] < 0 or cmd["ronin"] < 0:
        raise BadCommand("gift amounts are >= 0")


SHAPES: dict[str, Shape] = {
    "propose_alliance": Shape({"to": int}),
    "withdraw_alliance": Shape({"to": int}),
    "accept_alliance": Shape({"from": int}),
    "decline_alliance": Shape({"from": int}),
    "tea_done": Shape(),
    "gift": Shape({"to": int}, {"coins": int, "ronin": int}, {"coins": 0, "ronin": 0}, _gift_amounts),
    "choose_mandate": Shape({"tile": str}, {"declare": str}),
    "summon": Shape({"kind": str, "province": str}, {"shrine": str}),
    "move": Shape({"from": str, "kind": str, "to": str}),
    "build": Shape({"province": str}),
    "buy": Shape({"card": str}),
    "place": Shape({"province": str}, {"shrine": str}),
    "betray": Shape({"owner": int, "at": str, "kind": str, "with": str}),
    "bid": Shape(optional={a: int for a in _BID}, defaults={a: 0 for a in _BID}),
    # a prompt's option is a string or a number (a bool passes as a number, as JSON
    # parsers in some clients send 0/1 as false/true; the prompt refuses it if not offered)
    "choose": Shape({"choice": (str, int, bool)}),
    "done": Shape(),
}


def parse(command: Mapping[str, Any]) -> dict[str, Any]:
    """The command checked against its shape (`BadCommand` when malformed)."""
    return parse_command(command, SHAPES)
