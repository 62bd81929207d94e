"""The step machine shared by every phase.

The game position is a stack of frames (plain dicts, `k` = kind). `run` pops and
executes automatic frames until the top frame waits for a player's input (or the
game ends). Phase modules register their frames here:

- `AUTO[k](s, frame, ctx)`: runs without input; pops itself or pushes sub-frames.
- `INPUT[k] = Step(pending, legal, apply)`: waits for a command.
- `PROMPT[what](s, frame, choice, ctx)`: the effect of a generic yes/no/pick prompt
  (frame k="prompt" with an explicit option list `opts`).

`Ctx` supplies randomness: in `decide` it draws from the platform rng and records
the results; in `evolve` it replays the recorded results (public ones from the
event payload, hidden ones from `state["secret_draws"]`, filled by a hidden event).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..base import IllegalCommand, RngFactory
from .state import Frame, State, top

Command = dict[str, Any]
"""A parsed command (commands.parse): `type` plus its fields."""


class Ctx:
    def __init__(self, rng: RngFactory | None = None, draws: list[list[str]] | None = None):
        self.rng = rng
        self.draws: list[list[str]] = [] if rng else [list(d) for d in draws or []]
        self.hidden: list[list[str]] = []

    def shuffled(self, s: State, purpose: str, items: list[str], hidden: bool = False) -> list[str]:
        if self.rng is not None:
            out = self.rng(f"{purpose}:{len(self.draws)}:{len(self.hidden)}").shuffled(items)
            (self.hidden if hidden else self.draws).append(out)
            return list(out)
        if hidden:
            return list(s["secret_draws"].pop(0))
        return list(self.draws.pop(0))


@dataclass(frozen=True)
class Step:
    pending: Callable[[State, Frame], list[int]]
    legal: Callable[[State, Frame, int], list[Command]]
    apply: Callable[[State, Frame, int, Command, Ctx], None] | None  # None: decide handles it
    kind: str


Auto = Callable[[State, Frame, Ctx], None]
PromptEffect = Callable[[State, Frame, Any, Ctx], None]  # the choice: one of the frame's options

AUTO: dict[str, Auto] = {}
INPUT: dict[str, Step] = {}
PROMPT: dict[str, PromptEffect] = {}


def push(s: State, k: str, **kw: Any) -> Frame:
    frame = {"kind": k, **kw}
    s["stack"].append(frame)
    return frame


def pop(s: State) -> Frame:
    return s["stack"].pop()


def prompt(s: State, seat: int, what: str, opts: list[str], **kw: Any) -> None:
    """Ask `seat` to pick one of `opts` (the first is the default)."""
    if opts:
        push(s, "prompt", seat=seat, what=what, options=opts, **kw)


def run(s: State, ctx: Ctx) -> None:
    guard = 0
    while s["result"] is None and s["stack"]:
        f = s["stack"][-1]
        fn = AUTO.get(f["kind"])
        if fn is None:
            if not INPUT[f["kind"]].pending(s, f):
                raise RuntimeError(f"input frame {f['kind']} with nobody pending")
            return
        fn(s, f, ctx)
        guard += 1
        if guard > 100000:  # pragma: no cover - a bug, not a rule
            raise RuntimeError("step machine loops")


def pending(s: State) -> list[tuple[int, str]]:
    f = top(s)
    if s["result"] is not None or f is None:
        return []
    step = INPUT.get(f["kind"])
    if step is None:
        return []
    kind = f.get("what", step.kind) if f["kind"] == "prompt" else step.kind
    return [(seat, kind) for seat in step.pending(s, f)]


def legal(s: State, seat: int) -> list[Command]:
    f = top(s)
    if s["result"] is not None or f is None or f["kind"] not in INPUT:
        return []
    step = INPUT[f["kind"]]
    if seat not in step.pending(s, f) and f["kind"] != "tea":
        return []
    return step.legal(s, f, seat)


def apply_input(s: State, seat: int, cmd: Command, ctx: Ctx) -> None:
    f = top(s)
    if s["result"] is not None:
        raise IllegalCommand("the game is over")
    if f is None or f["kind"] not in INPUT:
        raise IllegalCommand("nobody can act now")
    step = INPUT[f["kind"]]
    if f["kind"] != "tea" and seat not in step.pending(s, f):
        raise IllegalCommand("it is not your turn to act")
    if step.apply is None:
        raise IllegalCommand(f"now you must {step.kind.replace('_', ' ')}")
    step.apply(s, f, seat, cmd, ctx)
    run(s, ctx)


# ------------------------------------------------------------------ prompts


def _prompt_pending(s: State, f: Frame) -> list[int]:
    return [f["seat"]]


def _prompt_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return [{"type": "choose", "choice": o} for o in f["options"]]


def _prompt_apply(s: State, f: Frame, seat: int, cmd: Command, ctx: Ctx) -> None:
    if cmd["type"] != "choose":
        raise IllegalCommand("choose one of the offered options")
    if cmd.get("choice") not in f["options"]:
        raise IllegalCommand("that option is not offered")
    pop(s)
    PROMPT[f["what"]](s, f, cmd["choice"], ctx)


INPUT["prompt"] = Step(_prompt_pending, _prompt_legal, _prompt_apply, "prompt")
