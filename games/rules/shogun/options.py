"""Game options: the JSON schema the platform validates, each option's default (the
behaviour of the base reading) and the rules version that introduced it.

A game's `GameStarted` payload lists its options with their defaults filled in. Options
introduced by a later rules version are neither accepted nor filled in for an older
version, so games recorded under that version re-decide to the very same payload; code
reads every option through `option()`, which falls back to the default for states folded
from such games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules.base import BadCommand

from .state import State


@dataclass(frozen=True)
class Option:
    choices: tuple[Any, ...]
    default: Any
    since: int  # the rules version that introduced the option
    description: str


OPTIONS: dict[str, Option] = {
    "board": Option(("sun", "moon"), "sun", 1, "board side; moon is experimental (no sourced moon map)"),
    "setup": Option(("draft", "beginner"), "draft", 1, "start provinces: the draft or the fixed set-ups"),
    "tennos_court": Option((True, False), True, 1, "the Tenno's Court expansion"),
    "samurai": Option((False, True), False, 1, "the Samurai module"),
    "revolt_order": Option(
        ("classic", "marker_first"),
        "classic",
        1,
        "collection unrest: revolt on an existing marker, then add one (classic, R #11), "
        "or add the marker first and revolt from 2 markers ([imr])",
    ),
    "court_conversion": Option(
        ("exact", "up_to"),
        "exact",
        3,
        "court space k converts exactly k armies or nothing (exact, R #1), or as many as "
        "possible up to k (up_to, the [tek] house rule)",
    ),
    "recruit1": Option(
        ("optional", "mandatory"),
        "optional",
        3,
        "Recruit 1 + move: the recruit and the move are independent optional parts "
        "(optional, R #10), or the move needs the recruit first (mandatory, [imr])",
    ),
    "forced_execution": Option(
        (False, True),
        False,
        3,
        "a revealed action that can be executed must be (R #12 option); by default it may be declined",
    ),
    "theatre_calms": Option(
        ("all", "one"),
        "all",
        3,
        "No-theatre events E01/E02: a theatre built this season removes all revolt markers "
        "of its province (all, [imr]) or one (one)",
    ),
}


def _same(left: Any, right: Any) -> bool:
    """Equal and of the same type (True is not 1)."""
    return left == right and type(left) is type(right)


def known(version: int) -> dict[str, Option]:
    """The options a game of this rules version has."""
    return {key: opt for key, opt in OPTIONS.items() if opt.since <= version}


def normalise(opts: Any, version: int) -> dict[str, Any]:
    """Defaults filled in; an unknown option or value is refused (the platform validates
    against the schema first, this keeps the engine safe on its own)."""
    table = known(version)
    given = dict(opts or {})
    out = {key: opt.default for key, opt in table.items()}
    for key, value in given.items():
        opt = table.get(key)
        if opt is None or not any(_same(value, c) for c in opt.choices):
            raise BadCommand(f"bad Shogun option {key}={value!r}")
        out[key] = value
    return out


def schema(version: int) -> dict[str, Any]:
    """The JSON schema (draft 2020-12) of the options of a game of this rules version."""
    props: dict[str, Any] = {}
    for key, opt in known(version).items():
        kind = {"type": "boolean"} if isinstance(opt.default, bool) else {"enum": list(opt.choices)}
        props[key] = {**kind, "default": opt.default, "description": opt.description}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": False,
        "properties": props,
    }


def option(state: State, key: str) -> Any:
    """A game's option; the default when the game predates it (its GameStarted has no
    such key)."""
    return state["opts"].get(key, OPTIONS[key].default)
