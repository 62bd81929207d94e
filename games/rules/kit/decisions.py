"""The decision table: what a seat may be asked, declared as data.

Each ruleset's `flow.py` holds `DECISIONS = {kind: Decision(...)}` (as
boardgame.io declares moves and phases): `pending` says which seats must
decide, `legal` lists what one seat may do, `decide` applies a command, and
`default` is what a missed deadline plays. The kit fixes the four roles, not
their arguments: each ruleset passes what its position is made of (a frame, a
prompt, a phase) and says so in its `flow.py`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import IllegalCommand

Command = dict[str, Any]
"""A parsed command: its `type` plus its fields (see `kit.commands`)."""


@dataclass(frozen=True)
class Decision:
    """One kind of decision.

    `commands` names the command types it understands (empty: whatever
    `decide` checks itself); `decide` is None when the ruleset's `rules.py`
    handles the command itself (a secret commitment, say); `default` is None
    when the ruleset computes defaults one way for every kind; `name` is the
    kind `pending` reports, when it differs from the table's key."""

    pending: Callable[..., list[int]]
    legal: Callable[..., list[Command]]
    decide: Callable[..., None] | None = None
    default: Callable[..., Command | None] | None = None
    commands: frozenset[str] = field(default_factory=frozenset)
    name: str = ""


def decision_of(table: Mapping[str, Decision], kind: str, command_type: str | None = None) -> Decision:
    """The decision of `kind` in `table`; with `command_type`, refuses
    (`IllegalCommand`) a command the decision does not understand."""
    decision = table.get(kind)
    if decision is None:
        raise IllegalCommand("nobody can act now")
    if command_type is not None and decision.commands and command_type not in decision.commands:
        raise IllegalCommand(f"now is a {kind} decision; commands: {sorted(decision.commands)}")
    return decision
