"""The decision table: what a seat may be asked, declared as data.

Each ruleset's `flow.py` holds `DECISIONS = {kind: Decision(...)}` (as
boardgame.io declares moves and phases), keyed by the kind of the position's
top frame (`kit.position`). The four roles have one typed signature for every
ruleset, which `mypy --strict` holds each table to: `pending(state)` says which
seats must decide, `legal(state, seat)` lists what one seat may do,
`decide(context, seat, command)` applies a command through the kit's `Context`
(emit -> fold), and `default(state, seat)` is what a missed deadline plays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from ..base import Event, IllegalCommand
from .context import Context

Command = dict[str, Any]
"""A parsed command: its `type` plus its fields (see `kit.commands`)."""

S = TypeVar("S")

PendingRole = Callable[[S], list[int]]
LegalRole = Callable[[S, int], list[Command]]
DecideRole = Callable[[Context[S], int, Command], None]
DefaultRole = Callable[[S, int], Command | None]


@dataclass(frozen=True)
class Decision(Generic[S]):
    """One kind of decision.

    `commands` names the command types it understands (empty: whatever
    `decide` checks itself); `decide` is None when the ruleset's `rules.py`
    handles the command itself (a secret commitment, say); `default` is None
    when the ruleset computes defaults one way for every kind; `name` is the
    kind `pending` reports, when it differs from the table's key."""

    pending: PendingRole[S]
    legal: LegalRole[S]
    decide: DecideRole[S] | None = None
    default: DefaultRole[S] | None = None
    commands: frozenset[str] = field(default_factory=frozenset)
    name: str = ""


class Decided(NamedTuple, Generic[S]):
    """What `decide_folded` returns: the events of one command and the state
    after them, folded once by the kit's `Context` (the service folds nothing)."""

    events: list[Event]
    state: S


def decision_of(table: Mapping[str, Decision[S]], kind: str, command_type: str | None = None) -> Decision[S]:
    """The decision of `kind` in `table`; with `command_type`, refuses
    (`IllegalCommand`) a command the decision does not understand."""
    decision = table.get(kind)
    if decision is None:
        raise IllegalCommand("nobody can act now")
    if command_type is not None and decision.commands and command_type not in decision.commands:
        raise IllegalCommand(f"now is a {kind} decision; commands: {sorted(decision.commands)}")
    return decision
