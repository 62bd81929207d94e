"""`Position`: who must act now, kept under one state key by every ruleset.

A position is a stack of frames (plain dicts whose `kind` names the decision or
step), stored at `state["position"]`. The bottom frame is the phase or stage the
game is in; frames above it are prompts and sub-steps that must be settled
first, the top one now. One shape serves the three games: Shogun's phase is a
one-frame stack, Imjin's prompt queue sits above its stage frame (`enqueue`),
Rising Sun's step machine pushes and pops. Folds write it; decisions read it.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any, Final

POSITION: Final = "position"
"""The one state key the position lives under."""

Frame = dict[str, Any]
"""One frame: `{"kind": str, ...its data}` (plain JSON data: it is pickled and folded)."""


def frame(kind: str, **data: Any) -> Frame:
    """A new frame of `kind` carrying `data`."""
    return {"kind": kind, **data}


def frames(state: Mapping[str, Any]) -> list[Frame]:
    """The whole stack, bottom first (empty before setup and after the end)."""
    stack: list[Frame] = state.get(POSITION) or []
    return stack


def top(state: Mapping[str, Any]) -> Frame | None:
    """The frame to settle now, or None when nothing is pending."""
    stack = frames(state)
    return stack[-1] if stack else None


def kind(state: Mapping[str, Any]) -> str:
    """The kind of the top frame ("" when nothing is pending)."""
    current = top(state)
    return str(current["kind"]) if current is not None else ""


def base(state: Mapping[str, Any]) -> Frame | None:
    """The bottom frame: the phase or stage the game is in."""
    stack = frames(state)
    return stack[0] if stack else None


def start(state: MutableMapping[str, Any], kind: str, **data: Any) -> Frame:
    """Replace the whole stack by one frame (a new phase or stage)."""
    new = frame(kind, **data)
    state[POSITION] = [new]
    return new


def push(state: MutableMapping[str, Any], kind: str, **data: Any) -> Frame:
    """A frame settled before everything below it."""
    new = frame(kind, **data)
    state.setdefault(POSITION, []).append(new)
    return new


def enqueue(state: MutableMapping[str, Any], kind: str, **data: Any) -> Frame:
    """A frame settled after every frame stacked above the bottom one, before the
    bottom frame itself (a prompt queue above a stage)."""
    new = frame(kind, **data)
    stack = state.setdefault(POSITION, [])
    stack.insert(1 if stack else 0, new)
    return new


def pop(state: MutableMapping[str, Any]) -> Frame:
    """Remove and return the top frame."""
    popped: Frame = state[POSITION].pop()
    return popped


def replace(state: MutableMapping[str, Any], kind: str, **data: Any) -> Frame:
    """Replace the top frame (a step moves on within the same level)."""
    stack = state.setdefault(POSITION, [])
    new = frame(kind, **data)
    if stack:
        stack[-1] = new
    else:
        stack.append(new)
    return new


def clear(state: MutableMapping[str, Any]) -> None:
    """Nothing pending any more (the game is over)."""
    state[POSITION] = []
