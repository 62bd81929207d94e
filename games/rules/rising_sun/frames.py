"""The step machine's frames, shared by every phase module.

The game position is a stack of frames (plain dicts, `kind` = what they are).
Phase modules push and pop frames and ask prompts here; `flow.py` declares which
function runs each frame (its tables import the phase modules, never the reverse).

`Ctx` supplies randomness: in `decide` it draws from the platform rng and records
the results; in `evolve` of rules versions 2-3 it replays the recorded results
(public ones from the event payload, hidden ones from `state["secret_draws"]`).
Rising Sun's `decide` works on a private copy of the state and `outcomes.restate`
turns the result into facts, so it needs only the kit's random streams, not its
emit-and-fold `Context`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, cast

from ..base import RngFactory
from ..kit import Command, position
from .state import Frame, State

__all__ = ["Command", "Ctx", "pop", "prompt", "push"]


class Ctx:
    """Random draws of one decision (recorded) or of one replayed event (read back)."""

    def __init__(self, rng: RngFactory | None = None, draws: list[list[str]] | None = None):
        self.rng = rng
        self.draws: list[list[str]] = [] if rng else [list(d) for d in draws or []]
        self.hidden: list[list[str]] = []

    def shuffled(self, s: State, purpose: str, items: list[str], hidden: bool = False) -> list[str]:
        """`items` shuffled by the stream `purpose:<public draws>:<hidden draws>`."""
        if self.rng is not None:
            out = self.rng(f"{purpose}:{len(self.draws)}:{len(self.hidden)}").shuffled(items)
            (self.hidden if hidden else self.draws).append(out)
            return list(out)
        if hidden:
            return list(s["secret_draws"].pop(0))
        return list(self.draws.pop(0))


def push(state: State, kind: str, **data: Any) -> Frame:
    """A frame settled before everything below it (the kit's `position.push`)."""
    return position.push(_mutable(state), kind, **data)


def pop(state: State) -> Frame:
    """Remove and return the top frame (the kit's `position.pop`)."""
    return position.pop(_mutable(state))


def _mutable(state: State) -> MutableMapping[str, Any]:
    # a TypedDict is not a MutableMapping to mypy, though it is one at run time
    return cast(MutableMapping[str, Any], state)


def prompt(s: State, seat: int, what: str, opts: list[str], **kw: Any) -> None:
    """Ask `seat` to pick one of `opts` (the first is the default)."""
    if opts:
        push(s, "prompt", seat=seat, what=what, options=opts, **kw)
