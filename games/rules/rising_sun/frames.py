"""The step machine's frames and the scratch of one decision, shared by every phase module.

The game position is the kit's `Position` (`state["position"]`): a stack of frames
whose `kind` names the step or decision. Phase modules push and pop frames and ask
prompts here; `flow.py` declares which function runs each frame (its tables import
the phase modules, never the reverse).

`Steps` is Rising Sun's kit `Context`: its `state` is the private copy the rules
change in place, step by step, and it supplies randomness: in `decide` it draws from
the platform rng and records the results; in `evolve` of rules versions 2-3 it
replays the recorded results (public ones from the event payload, hidden ones from
`state["secret_draws"]`). The batch's events are emitted afterwards (rules.py).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, cast

from ..base import Event, Rng, RngFactory
from ..kit import Command, Context, position
from .state import Frame, State

__all__ = ["Command", "Steps", "pop", "prompt", "push"]


class Steps(Context[State]):
    """Random draws of one decision (recorded) or of one replayed event (read back),
    over the working state the rules change in place."""

    def __init__(
        self, state: State, rng: RngFactory | None = None, draws: list[list[str]] | None = None
    ) -> None:
        super().__init__(state, rng or _replaying, _in_place)
        self.rng = rng
        self.draws: list[list[str]] = [] if rng else [list(order) for order in draws or []]
        self.hidden: list[list[str]] = []

    @staticmethod
    def of(context: Context[State]) -> Steps:
        """The `Steps` a decision role was handed (the flow only ever makes these)."""
        if not isinstance(context, Steps):
            raise TypeError("Rising Sun decides on its own Steps context")
        return context

    def shuffled(self, state: State, purpose: str, items: list[str], hidden: bool = False) -> list[str]:
        """`items` shuffled by the stream `purpose:<public draws>:<hidden draws>`."""
        if self.rng is not None:
            out = self.rng(f"{purpose}:{len(self.draws)}:{len(self.hidden)}").shuffled(items)
            (self.hidden if hidden else self.draws).append(out)
            return list(out)
        if hidden:
            return list(state["secret_draws"].pop(0))
        return list(self.draws.pop(0))


def _replaying(purpose: str) -> Rng:
    # a replayed event reads its draws back; drawing anew would change the game
    raise RuntimeError(f"a replayed Rising Sun event drew {purpose!r}")


def _in_place(state: State, event: Event) -> State:
    # the rules have already changed the working state; its events state that change
    return state


def push(state: State, kind: str, **data: Any) -> Frame:
    """A frame settled before everything below it (the kit's `position.push`)."""
    return position.push(_mutable(state), kind, **data)


def pop(state: State) -> Frame:
    """Remove and return the top frame (the kit's `position.pop`)."""
    return position.pop(_mutable(state))


def _mutable(state: State) -> MutableMapping[str, Any]:
    # a TypedDict is not a MutableMapping to mypy, though it is one at run time
    return cast(MutableMapping[str, Any], state)


def prompt(state: State, seat: int, what: str, options: list[str], **data: Any) -> None:
    """Ask `seat` to pick one of `options` (the first is the default)."""
    if options:
        push(state, "prompt", seat=seat, what=what, options=options, **data)
