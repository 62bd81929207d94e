"""The engine kit: the few pieces every ruleset is built from (pure Python).

- `commands`: a JSON command checked against its declared `Shape` (`parse_command`).
- `position`: the stack of frames at `state["position"]`: who must act now.
- `decisions`: typed `Decision(pending, legal, decide, default)`, one table per
  ruleset (`flow.DECISIONS`), keyed by the kind of the position's top frame;
  `Decided(events, state)` is what `decide_folded` returns.
- `context`: `Context`, the scratch of one decision: emit events, fold them at
  once into a private working state, hand out named random streams.
- `cow`: `deep_copy` and `copy_on_write` (copy only what an event changes).
- `evolves`: `Evolver`, the `@evolves(TYPE)` registry behind every `evolve`; it
  refuses an event type it does not know (`UnknownEvent`).

See games/rules/CONTRIBUTING.md for how a ruleset uses them.
"""

from . import position
from .commands import Shape, parse_command
from .context import Context
from .cow import ALL, copy_on_write, deep_copy
from .decisions import Command, Decided, Decision, decision_of
from .evolves import Evolver, UnknownEvent
from .header import ViewHeader, view_header

__all__ = [
    "ViewHeader",
    "view_header",
    "ALL",
    "Command",
    "Context",
    "Decided",
    "Decision",
    "Evolver",
    "Shape",
    "UnknownEvent",
    "copy_on_write",
    "decision_of",
    "deep_copy",
    "parse_command",
    "position",
]
